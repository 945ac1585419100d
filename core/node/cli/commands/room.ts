import { finalLabelDisagreements } from '../../../common/agreement/agreementAnalysis';
import { DEFAULT_MAX_MEMBERS, type RoomItem } from '../../../common/rooms/roomEvents';
import { foldRoom } from '../../../common/rooms/roomFold';
import { roomMetrics } from '../../../common/rooms/roomViews';
import { exportLabelSet, mergeLabelSets, projectLabelSet } from '../../agreement/agreementSources';
import { HUDDLE_COUNTING } from '../../../common/agreement/countingRules';
import { projectSessionSource } from '../../session/projectSessions';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../../project/projectFolder';
import { RoomHost } from '../../rooms/roomHost';
import { lanAddress } from '../../rooms/roomHttp';
import { startRoomListener } from '../../rooms/roomListener';
import { readRoomLog, roomPaths } from '../../rooms/roomLogFile';
import { writeBackRoomVotes } from '../../rooms/roomWriteBack';
import { foldShadowRoom } from '../../../common/rooms/shadowFold';
import { shadowMetrics } from '../../../common/rooms/shadowViews';
import type { RoomListener } from '../../rooms/roomHttp';
import { serveShadowFeed, type ShadowFeedServer } from '../../rooms/shadowFeedSocket';
import { ShadowHost } from '../../rooms/shadowHost';
import { startShadowListener } from '../../rooms/shadowListener';
import { checkShadowEvent, roomLogKind } from '../../rooms/shadowLogFile';
import { type CliCommand, type CliIo, printJson, requireOption, UsageError, parseOptions } from '../cliSupport';
import { parseCount } from './agreement';

const USAGE = [
  'room open --project DIR (--items ID,ID… | --huddle [--export FILE…]) [--lan [--address IP]] [--port N] [--max-members N] [--json]',
  '       room resume CODE --project DIR [--lan [--address IP]] [--port N] [--json]',
  '       room shadow --project DIR [--annotator NAME] [--lan [--address IP]] [--port N] [--max-members N] [--json]',
  '       room export CODE --project DIR [--json]',
  '       room writeback CODE --project DIR [--json]',
  '  open      a norming room over chosen items, or a huddle over the items the team disagrees on (project sessions,',
  "            or the --export files); prints the code, the members' address and the lead's panel, and runs until Ctrl-C",
  '  --lan     listen on the local network (default: 127.0.0.1 only, so only this machine can join)',
  '  resume    open a room again from its log after a restart (the lead gets a new panel link)',
  '  shadow    a shadow room: trainees watch an expert label and think aloud, live, and practise against her; her',
  '            session feeds it with `aloud session ingest … --shadow-room CODE` (or the app opens one from the Label',
  "            screen); --annotator: only that annotator's session may feed it (default: the first that does)",
  '  export    the room log and its metrics (norming: α blind vs current, conformity; shadow: agreement with the expert)',
  '  writeback final votes as labels (source "room") of a new annotator session "<name> (room CODE)" per member',
].join('\n');

async function huddleItems(project: OpenProject, exports: readonly string[]): Promise<string[]> {
  const sets =
    exports.length > 0
      ? await Promise.all(exports.map((file) => exportLabelSet(file, HUDDLE_COUNTING)))
      : [await projectLabelSet(project, projectSessionSource, HUDDLE_COUNTING)];
  // only the disagreement list: no alpha, no bootstrap
  return finalLabelDisagreements(mergeLabelSets(sets), {
    level: 'nominal',
    categories: project.config.schema.labels.map((l) => l.name),
    hasBlind: true,
  }).map((d) => d.item_id);
}

/** Serves the room until SIGINT/SIGTERM (or `stop`, for tests), then closes the log cleanly. */
async function serve(
  host: RoomHost,
  values: { lan?: boolean; address?: string; port?: string; json?: boolean },
  io: CliIo,
  stop?: Promise<void>,
): Promise<number> {
  let address = '127.0.0.1';
  if (values.lan) {
    const found = values.address ?? lanAddress();
    if (!found) {
      await host.close();
      throw new UsageError('--lan: this machine has no network address besides loopback; give one with --address');
    }
    address = found;
  }
  const listener = await startRoomListener(host, { address, port: parseCount(values.port, '--port', 0, 0, 65535) });
  const info = { ...listenerInfo(host, listener), lan: address !== '127.0.0.1' };
  if (values.json) io.out(`${JSON.stringify(info)}\n`);
  else {
    io.out(`room code: ${host.code}\n`);
    io.out(
      address === '127.0.0.1' ? `members on this machine open: ${listener.url}\n` : `members on the local network open: ${listener.url}\n`,
    );
    io.out(
      `your lead panel (keep it to yourself): ${listener.leadUrl}\nlog: ${host.logFile}\nCtrl-C closes the listener; \`aloud room resume ${host.code}\` opens it again.\n`,
    );
  }
  await untilStopped(stop);
  await listener.close();
  await host.close();
  return 0;
}

/** What a room's or a shadow room's --json start line says of where it listens, in that key order. */
function listenerInfo(host: { code: string; logFile: string }, listener: RoomListener) {
  return {
    code: host.code,
    url: listener.url,
    lead_url: listener.leadUrl,
    address: listener.address,
    port: listener.port,
    log: host.logFile,
  };
}

/** Resolves on SIGINT/SIGTERM, or when `stop` (tests) settles. */
function untilStopped(stop?: Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    void stop?.then(done);
  });
}

/** Serves a shadow room and its feed until SIGINT/SIGTERM (or `stop`, for tests); then closes it, so trainees' pages say so. */
async function serveShadow(
  host: ShadowHost,
  projectDir: string,
  options: { address: string; port: number; json: boolean; expert?: string | null },
  io: CliIo,
  stop?: Promise<void>,
): Promise<number> {
  let listener: RoomListener;
  let feed: ShadowFeedServer;
  try {
    listener = await startShadowListener(host, { address: options.address, port: options.port });
  } catch (e) {
    await host.close();
    throw e;
  }
  try {
    feed = await serveShadowFeed(host, projectDir);
  } catch (e) {
    await listener.close();
    await host.close();
    throw e;
  }
  const lan = options.address !== '127.0.0.1';
  const info = { ...listenerInfo(host, listener), feed: feed.file, lan };
  if (options.json) io.out(`${JSON.stringify(info)}\n`);
  else {
    io.out(`shadow room code: ${host.code}\n`);
    io.out(lan ? `trainees on the local network open: ${listener.url}\n` : `trainees on this machine open: ${listener.url}\n`);
    io.out(`your expert panel (keep it to yourself): ${listener.leadUrl}\n`);
    // the room takes the feed of its expert only: name her when the room was opened for her
    io.out(
      options.expert
        ? `feed it (${options.expert}'s session): aloud session ingest --project ${projectDir} --annotator ${options.expert} --item ID --wav FILE --realtime --shadow-room ${host.code}\n`
        : `feed it (the session that feeds it is the one shadowed, one at a time): aloud session ingest --project ${projectDir} --annotator EXPERT --item ID --wav FILE --realtime --shadow-room ${host.code}\n`,
    );
    io.out(`log: ${host.logFile}\nCtrl-C closes the room.\n`);
  }
  await untilStopped(stop);
  if (!host.snapshot().closed) await host.closeRoom().catch(() => undefined);
  // pages waiting on the room hear "closed" at once; a moment for them to get the answer
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await feed.close();
  await listener.close();
  await host.close();
  return 0;
}

/** A shadow room's log and what it measured: agreement of each trainee with the expert, and where they diverged. */
async function exportShadow(file: string, json: boolean, io: CliIo): Promise<number> {
  const { events, torn } = await readRoomLog(file, checkShadowEvent);
  if (torn) io.err(`warning: ${file}:${torn.line}: torn last line (a crash while writing) left out\n`);
  const state = foldShadowRoom(events, file);
  const metrics = shadowMetrics(state);
  if (json) printJson(io, { code: state.code, kind: 'shadow', expert: state.expert, log: events, metrics });
  else {
    io.out(
      `shadow room ${state.code}: ${events.length} events, expert ${state.expert ?? '(none fed it)'}, ${state.items.size} items shown, ${metrics.items} with practice over\n`,
    );
    for (const t of metrics.trainees) {
      io.out(
        `  ${t.name}: ${t.answered} answered, ${t.skipped} skipped, ${t.agree_final} same as her final; alpha vs her final ${t.alpha_final?.toFixed(3) ?? 'undefined'}\n`,
      );
    }
    for (const d of metrics.diverged_most)
      io.out(`  diverged: ${d.item_id} (${d.diverged} of ${d.answered}; she said ${d.expert_final})\n`);
  }
  return 0;
}

export const roomCommand: CliCommand = {
  name: 'room',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const { values, positionals } = parseOptions(
      rest,
      {
        project: 'string',
        items: 'string',
        huddle: false,
        export: 'strings',
        lan: false,
        address: 'string',
        port: 'string',
        'max-members': 'string',
        annotator: 'string',
        json: false,
      },
      { positionals: true },
    );
    if (values.address !== undefined && !values.lan)
      throw new UsageError('--address needs --lan: opening the room beyond this machine must be explicit');
    const project = await loadProjectConfig(requireOption(values.project, '--project'));
    if (sub === 'open') {
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      if ((values.items === undefined) === !values.huddle) throw new UsageError('give either --items ID,ID… or --huddle');
      const all = await loadProjectItems(project);
      const byId = new Map(all.map((i) => [i.id, i]));
      const ids = values.huddle
        ? await huddleItems(project, values.export ?? [])
        : values
            .items!.split(',')
            .map((s) => s.trim())
            .filter(Boolean);
      if (ids.length === 0)
        throw new UsageError(
          values.huddle ? 'no disagreements to huddle on: every item has one final label across annotators' : '--items is empty',
        );
      const items: RoomItem[] = ids.map((id) => {
        const item = byId.get(id);
        if (!item) throw new UsageError(`item "${id}" is not in the project's items`);
        return { id, text: item.text, ...(item.context !== undefined ? { context: item.context } : {}) };
      });
      const schema = project.config.schema;
      const host = await RoomHost.create(project.dir, {
        project: project.config.name,
        mode: values.huddle ? 'huddle' : 'items',
        items,
        labels: schema.labels.map((l) => l.name),
        level: schema.ordered ? 'ordinal' : 'nominal',
        max_members: parseCount(values['max-members'], '--max-members', DEFAULT_MAX_MEMBERS, 2, 50),
      });
      return serve(host, values, io);
    }
    if (values.annotator !== undefined && sub !== 'shadow') throw new UsageError('--annotator is an option of room shadow');
    if (sub === 'shadow') {
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      const address = values.lan ? (values.address ?? lanAddress()) : '127.0.0.1';
      if (address === null) throw new UsageError('--lan: this machine has no network address besides loopback; give one with --address');
      const items = await loadProjectItems(project);
      const host = await ShadowHost.create(
        { dir: project.dir, config: project.config, items },
        { expert: values.annotator ?? null, maxMembers: parseCount(values['max-members'], '--max-members', DEFAULT_MAX_MEMBERS, 1, 50) },
      );
      return serveShadow(
        host,
        project.dir,
        { address, port: parseCount(values.port, '--port', 0, 0, 65535), json: values.json, expert: values.annotator ?? null },
        io,
      );
    }
    const code = positionals[0];
    if (code === undefined) throw new UsageError(`room ${sub ?? ''}: give the room code`);
    if (sub === 'resume') {
      const host = await RoomHost.resume(project.dir, code);
      if (host.repaired) io.err('warning: a torn last line (a crash while writing) was cut from the log and kept beside it\n');
      return serve(host, values, io);
    }
    if (sub === 'export') {
      const file = roomPaths(project.dir, code).events;
      if ((await roomLogKind(file)) === 'shadow') return exportShadow(file, values.json, io);
      const { events, torn } = await readRoomLog(file);
      if (torn) io.err(`warning: ${file}:${torn.line}: torn last line (a crash while writing) left out\n`);
      const state = foldRoom(events, file);
      const metrics = roomMetrics(state);
      if (values.json) printJson(io, { code: state.code, log: events, metrics });
      else {
        io.out(`room ${state.code}: ${events.length} events, ${metrics.revealed_items} of ${state.items.size} items revealed\n`);
        io.out(
          `alpha blind: ${metrics.alpha_blind?.toFixed(3) ?? 'undefined'}, current: ${metrics.alpha_current?.toFixed(3) ?? 'undefined'}\n`,
        );
        for (const c of metrics.conformity)
          io.out(`  ${c.name}: ${c.votes} votes, ${c.changes} changes, ${c.changes_toward_majority} toward the others' majority\n`);
      }
      return 0;
    }
    if (sub === 'writeback') {
      const host = await RoomHost.resume(project.dir, code);
      try {
        if (host.snapshot().written_back) throw new UsageError(`room ${host.code} was written back already`);
        const result = await writeBackRoomVotes(project, host.snapshot());
        await host.recordWriteBack(result.sessions);
        for (const w of result.warnings) io.err(`warning: ${w}\n`);
        if (values.json) printJson(io, result);
        else for (const s of result.sessions) io.out(`${s.annotator}: ${s.labels} labels\n`);
      } finally {
        await host.close();
      }
      return 0;
    }
    throw new UsageError(`unknown subcommand "${sub ?? ''}" (open, resume, shadow, export, writeback)`);
  },
};
