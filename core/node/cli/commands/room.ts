import { parseArgs } from 'node:util';
import { finalLabelDisagreements } from '../../../common/agreement/agreementAnalysis';
import { DEFAULT_MAX_MEMBERS, type RoomItem } from '../../../common/rooms/roomEvents';
import { foldRoom } from '../../../common/rooms/roomFold';
import { roomMetrics } from '../../../common/rooms/roomViews';
import { exportLabelSet, mergeLabelSets, projectLabelSet } from '../../agreement/agreementSources';
import { HUDDLE_COUNTING } from '../../../common/agreement/countingRules';
import { projectSessionSource } from '../../export/projectSessions';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../../project/projectFolder';
import { RoomHost } from '../../rooms/roomHost';
import { lanAddress, startRoomListener } from '../../rooms/roomListener';
import { readRoomLog, roomPaths } from '../../rooms/roomLogFile';
import { writeBackRoomVotes } from '../../rooms/roomWriteBack';
import { type CliCommand, type CliIo, printJson, requireOption, UsageError, withUsageErrors } from '../cliSupport';
import { parseCount } from './agreement';

const USAGE = [
  'room open --project DIR (--items ID,ID… | --huddle [--export FILE…]) [--lan [--address IP]] [--port N] [--max-members N] [--json]',
  '       room resume CODE --project DIR [--lan [--address IP]] [--port N] [--json]',
  '       room export CODE --project DIR [--json]',
  '       room writeback CODE --project DIR [--json]',
  '  open      a norming room over chosen items, or a huddle over the items the team disagrees on (project sessions,',
  '            or the --export files); prints the code, the members\' address and the lead\'s panel, and runs until Ctrl-C',
  '  --lan     listen on the local network (default: 127.0.0.1 only, so only this machine can join)',
  '  resume    open a room again from its log after a restart (the lead gets a new panel link)',
  '  export    the room log and its metrics (α blind vs current, conformity)',
  '  writeback final votes as labels (source "room") of a new annotator session "<name> (room CODE)" per member',
].join('\n');

async function huddleItems(project: OpenProject, exports: readonly string[]): Promise<string[]> {
  const sets = exports.length > 0 ? await Promise.all(exports.map((file) => exportLabelSet(file, HUDDLE_COUNTING))) : [await projectLabelSet(project, projectSessionSource, HUDDLE_COUNTING)];
  // only the disagreement list: no alpha, no bootstrap
  return finalLabelDisagreements(mergeLabelSets(sets), { level: 'nominal', categories: project.config.schema.labels.map((l) => l.name), hasBlind: true }).map((d) => d.item_id);
}

/** Serves the room until SIGINT/SIGTERM (or `stop`, for tests), then closes the log cleanly. */
async function serve(host: RoomHost, values: { lan?: boolean; address?: string; port?: string; json?: boolean }, io: CliIo, stop?: Promise<void>): Promise<number> {
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
  const info = { code: host.code, url: listener.url, lead_url: listener.leadUrl, address: listener.address, port: listener.port, log: host.logFile, lan: address !== '127.0.0.1' };
  if (values.json) io.out(`${JSON.stringify(info)}\n`);
  else {
    io.out(`room code: ${host.code}\n`);
    io.out(address === '127.0.0.1' ? `members on this machine open: ${listener.url}\n` : `members on the local network open: ${listener.url}\n`);
    io.out(`your lead panel (keep it to yourself): ${listener.leadUrl}\nlog: ${host.logFile}\nCtrl-C closes the listener; \`aloud room resume ${host.code}\` opens it again.\n`);
  }
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    void stop?.then(done);
  });
  await listener.close();
  await host.close();
  return 0;
}

export const roomCommand: CliCommand = {
  name: 'room',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const { values, positionals } = withUsageErrors(() =>
      parseArgs({
        args: rest,
        strict: true,
        allowPositionals: true,
        options: {
          project: { type: 'string' },
          items: { type: 'string' },
          huddle: { type: 'boolean', default: false },
          export: { type: 'string', multiple: true },
          lan: { type: 'boolean', default: false },
          address: { type: 'string' },
          port: { type: 'string' },
          'max-members': { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      }),
    );
    if (values.address !== undefined && !values.lan) throw new UsageError('--address needs --lan: opening the room beyond this machine must be explicit');
    const project = await loadProjectConfig(requireOption(values.project, '--project'));
    if (sub === 'open') {
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      if ((values.items === undefined) === !values.huddle) throw new UsageError('give either --items ID,ID… or --huddle');
      const all = await loadProjectItems(project);
      const byId = new Map(all.map((i) => [i.id, i]));
      const ids = values.huddle ? await huddleItems(project, values.export ?? []) : values.items!.split(',').map((s) => s.trim()).filter(Boolean);
      if (ids.length === 0) throw new UsageError(values.huddle ? 'no disagreements to huddle on: every item has one final label across annotators' : '--items is empty');
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
    const code = positionals[0];
    if (code === undefined) throw new UsageError(`room ${sub ?? ''}: give the room code`);
    if (sub === 'resume') {
      const host = await RoomHost.resume(project.dir, code);
      if (host.repaired) io.err('warning: a torn last line (a crash while writing) was cut from the log and kept beside it\n');
      return serve(host, values, io);
    }
    if (sub === 'export') {
      const file = roomPaths(project.dir, code).events;
      const { events, torn } = await readRoomLog(file);
      if (torn) io.err(`warning: ${file}:${torn.line}: torn last line (a crash while writing) left out\n`);
      const state = foldRoom(events, file);
      const metrics = roomMetrics(state);
      if (values.json) printJson(io, { code: state.code, log: events, metrics });
      else {
        io.out(`room ${state.code}: ${events.length} events, ${metrics.revealed_items} of ${state.items.size} items revealed\n`);
        io.out(`alpha blind: ${metrics.alpha_blind?.toFixed(3) ?? 'undefined'}, current: ${metrics.alpha_current?.toFixed(3) ?? 'undefined'}\n`);
        for (const c of metrics.conformity) io.out(`  ${c.name}: ${c.votes} votes, ${c.changes} changes, ${c.changes_toward_majority} toward the others' majority\n`);
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
    throw new UsageError(`unknown subcommand "${sub ?? ''}" (open, resume, export, writeback)`);
  },
};
