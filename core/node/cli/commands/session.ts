import { asRefusal } from '../../../common/refusal/refusal';
import { isTranscriptFinal, unitsOfItem } from '../../../common/coding/codingUnits';
import type { ItemSessionState } from '../../../common/session/itemState';
import { foldSession, SessionFold } from '../../../common/session/sessionFold';
import { readWav, resampleTo16k } from '../../audio/wavFile';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../../project/projectFolder';
import { forkEngineLauncher } from '../../engine/engineProcessHost';
import type { EngineSupervisorEvent } from '../../engine/engineSupervisor';
import { engineScriptFile, openSessionEngine, type SessionEngine } from '../../engine/sessionEngine';
import { readSessionLog } from '../../session/sessionLogFile';
import { sessionPaths } from '../../session/sessionPaths';
import { reparseSession } from '../../session/sessionReparse';
import { SessionService } from '../../session/sessionService';
import type { Item } from '../../../common/items/item';
import { foldOptionsOf, type SessionOpenReport } from '../../session/sessionStore';
import { projectSessionSource } from '../../session/projectSessions';
import { type CliCommand, type CliIo, printJson, requireOption, UsageError, parseOptions } from '../cliSupport';
import { AUDIO_SAMPLE_RATE } from '../../../common/audio/sampleRate';
import { connectShadowFeed } from '../../rooms/shadowFeedSocket';
import { tapSession } from '../../rooms/shadowTap';
import { packCommand, PACK_USAGE, UNPACK_JSON_USAGE, unpackCommand } from './sessionPack';
import { progressLine } from '../progressLine';

/** Audio is fed as the recorder delivers it: 50 ms chunks. */
const CHUNK_MS = 50;

const usage = [
  'session ingest --project DIR --annotator NAME --item ID --wav FILE.wav [--realtime] [--model FILE | --engine-script FILE.json] [--shadow-room CODE] [--progress] [--json]',
  '       aloud session show --project DIR --annotator NAME [--item ID | [--offset N] [--limit N]] [--json]',
  '       aloud session reparse --project DIR [--annotator NAME] [--dry-run] [--json]',
  '       aloud session transcribe --project DIR --annotator NAME [--item ID] [--all] [--model FILE | --engine-script FILE.json] [--json]',
  PACK_USAGE,
  '       aloud session units --project DIR --annotator NAME [--item ID] [--json]',
  '       aloud session complete --project DIR --annotator NAME (--item ID | --all) [--json]',
  '',
  'show: the folded state of every item; --item ID: that item alone (its state, not the session around it); --limit N and',
  '--offset N: a page of the items in the order they were first opened, with items_total and items_offset (only the items',
  'shown are derived, so a page or one item of a large session is quick).',
  UNPACK_JSON_USAGE,
  "units: the units of coding of the annotator's protocols (aloud.yaml coding.unit: utterance or sentence) for items whose",
  'transcript is final (completed): item_id, unit (u<utterance>[.s<sentence>]), text (verbatim), t0_ms, t1_ms.',
  'complete: completes items as Enter does in the app (the same rule, decideCompletion, logged the same way: item_opened,',
  'then item_completed); --all: every item of the session with audio or a label not completed yet. A refusal (a spoken',
  'label required, say) is listed per item and the exit is 1; nothing else changes.',
].join('\n');

function seconds(samples: number): string {
  return `${(samples / AUDIO_SAMPLE_RATE).toFixed(2)} s`;
}

/** One stderr line per thing the opening repaired, so nothing recovered goes unreported. */
function reportRecovery(io: CliIo, report: SessionOpenReport): void {
  const say = (text: string) => io.err(`aloud session: ${text}\n`);
  if (report.tookOverLock) {
    const o = report.tookOverLock;
    say(`took over the lock of process ${o.pid} on ${o.host} (started ${o.started_at}), which is no longer running`);
  }
  if (report.torn)
    say(
      `events.jsonl line ${report.torn.line} was torn by a crash (${report.torn.bytes} bytes): cut from the log, kept in ${report.torn.tornFile}`,
    );
  for (const r of report.recoveredAudio) {
    say(
      `recovered the audio of "${r.item_id}": ${seconds(r.samples_total)} on disk, the log had ${seconds(r.samples_logged)}${r.header_repaired ? '; WAV header repaired' : ''}`,
    );
  }
  if (report.interruptedRecording)
    say(`the recording of "${report.interruptedRecording}" was interrupted; it is closed and its signals recomputed`);
}

/**
 * The engine (whisper.cpp, or a script — said on stderr, never silently) and the annotator's session for writing,
 * with what opening it repaired reported.
 */
async function openTranscribingSession(
  command: string,
  options: {
    project: OpenProject;
    annotator: string;
    items: Item[];
    model: string | undefined;
    engineScript: string | undefined;
    progress?: boolean;
  },
  io: CliIo,
): Promise<{ service: SessionService; engine: SessionEngine }> {
  const engineScript = engineScriptFile(options.engineScript);
  if (engineScript) io.err(`aloud session ${command}: transcription is SCRIPTED from ${engineScript} (not whisper.cpp)\n`);
  // the engine process's crashes and restarts (and with --progress its pid), one line each
  const onEngineEvent = (event: EngineSupervisorEvent) => {
    if (event.type !== 'started' || options.progress) io.err(`aloud session ${command}: ${event.message}\n`);
  };
  const engine = await openSessionEngine({
    project: options.project,
    modelFile: options.model ?? null,
    engineScript,
    launchEngine: forkEngineLauncher,
    onEngineEvent,
  });
  let service: SessionService;
  try {
    service = await SessionService.open({ project: options.project, annotator: options.annotator, items: options.items, engine });
  } catch (e) {
    await engine.transcriber.close();
    throw e;
  }
  reportRecovery(io, service.store.report);
  return { service, engine };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function ingest(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, {
    project: 'string',
    annotator: 'string',
    item: 'string',
    wav: 'string',
    model: 'string',
    'engine-script': 'string',
    'shadow-room': 'string',
    realtime: false,
    progress: false,
    json: false,
  });
  const projectDir = requireOption(values.project, '--project');
  const annotator = requireOption(values.annotator, '--annotator');
  const itemId = requireOption(values.item, '--item');
  const wavFile = requireOption(values.wav, '--wav');
  const project = await loadProjectConfig(projectDir);
  sessionPaths(project.dir, annotator); // a name that cannot be a folder is refused before the model loads
  const items = await loadProjectItems(project);
  if (!items.some((item) => item.id === itemId)) throw new UsageError(`--item: "${itemId}" is not in ${project.config.items}`);
  const wav = await readWav(wavFile);
  const pcm = resampleTo16k(wav.samples, wav.sampleRate);
  // a shadow room watches this session through a one-way feed; whatever happens to the room, the session goes on
  const room =
    values['shadow-room'] === undefined
      ? null
      : await connectShadowFeed(project.dir, values['shadow-room'], (problem) =>
          io.err(`aloud session ingest: warning: ${problem}; the session goes on\n`),
        );
  let service: SessionService;
  try {
    ({ service } = await openTranscribingSession(
      'ingest',
      { project, annotator, items, model: values.model, engineScript: values['engine-script'], progress: values.progress },
      io,
    ));
  } catch (e) {
    await room?.close();
    throw e;
  }
  let untap: (() => void) | null = null;
  try {
    await service.openItem(itemId);
    // the room sees her from the item she opened on: no other item of a resumed session flashes by first
    untap = room ? tapSession(service, 'ingest', (record) => room.send(record)) : null;
    if (room) io.err(`aloud session ingest: shadow room ${values['shadow-room']} is watching\n`);
    const fed = await feed(service, itemId, pcm, wavFile, { realtime: values.realtime, progress: values.progress }, io);
    await service.stopRecording('end_of_input');
    await service.drainTranscriptions();
    const item = service.itemState(itemId)!;
    if (values.json) printJson(io, { annotator, item_id: itemId, fed_ms: Math.round((fed * 1000) / AUDIO_SAMPLE_RATE), item });
    else
      io.out(
        `${itemId}\t${(item.audio_ms / 1000).toFixed(2)} s\t${item.final_label ?? '(no label)'}\t${item.label_source ?? '-'}\t${item.transcript}\n`,
      );
  } finally {
    untap?.();
    await service.close();
    await room?.close();
  }
  return 0;
}

/** Feeds the clip in 50 ms chunks (as the app captures) through the recorder's path, paced in real time when asked, to the open item. Returns samples fed. */
async function feed(
  service: SessionService,
  itemId: string,
  pcm: Float32Array,
  wavFile: string,
  { realtime, progress }: { realtime: boolean; progress: boolean },
  io: CliIo,
): Promise<number> {
  await service.startRecording({ device: `file:${wavFile}` });
  const chunk = (AUDIO_SAMPLE_RATE * CHUNK_MS) / 1000;
  io.err(
    `aloud session ingest: recording "${itemId}" from ${wavFile} (${seconds(pcm.length)}, ${realtime ? 'real time' : 'as fast as possible'})\n`,
  );
  const start = Date.now();
  let fed = 0;
  for (let k = 0; fed < pcm.length; k++) {
    if (realtime) await sleep(start + k * CHUNK_MS - Date.now());
    const next = pcm.subarray(fed, Math.min(pcm.length, fed + chunk));
    await service.appendAudio(next);
    fed += next.length;
    if (progress) io.err(`aloud session ingest: fed_ms=${Math.round((fed * 1000) / AUDIO_SAMPLE_RATE)}\n`);
  }
  return fed;
}

/** The annotator's session log as it is on disk (read, never repaired), or the refusal that there is none. */
async function loggedSession(values: { project?: string | undefined; annotator?: string | undefined }) {
  const projectDir = requireOption(values.project, '--project');
  const annotator = requireOption(values.annotator, '--annotator');
  const project = await loadProjectConfig(projectDir);
  const paths = sessionPaths(project.dir, annotator);
  const { events, torn } = await readSessionLog(paths.events);
  if (events.length === 0) throw new UsageError(`no session of "${annotator}" in ${project.dir} (${paths.events} not found)`);
  return { projectDir, annotator, project, paths, events, torn };
}

/** A whole number of items from an option (0 or more), or null when the option is not given. */
function itemCount(value: string | undefined, flag: string): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (!(Number.isInteger(n) && n >= 0)) throw new UsageError(`${flag} must be a whole number of items, 0 or more (got "${value}")`);
  return n;
}

async function show(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, {
    project: 'string',
    annotator: 'string',
    item: 'string',
    limit: 'string',
    offset: 'string',
    json: false,
  });
  const limit = itemCount(values.limit, '--limit');
  const offset = itemCount(values.offset, '--offset');
  if ((limit !== null || offset !== null) && values.item !== undefined)
    throw new UsageError('--item shows one item: give --item, or --limit/--offset to page through the items');
  const { projectDir, annotator, project, paths, events, torn } = await loggedSession(values);
  if (torn) {
    io.err(
      `aloud session: ${paths.events}:${torn.line}: torn last line (a crash cut it); it is cut and kept in a .torn file when the session is next opened for writing\n`,
    );
  }
  // every event is folded (the log is the truth), but only the items shown are derived: one item of 10,000 costs one
  const fold = new SessionFold(project.config, paths.events, foldOptionsOf(project));
  for (const event of events) fold.apply(event);
  if (fold.configChanged) {
    io.err(
      `aloud session: spoken labels were derived under other label phrases than ${project.configPath} has now (labels, synonyms, languages or stems); they are shown as recorded (re-derive them with: aloud session reparse --project ${projectDir} --annotator ${annotator})\n`,
    );
  }
  const recording = fold.openRecording;
  if (recording)
    io.err(`aloud session: the recording of "${recording.item_id}" was interrupted; opening the session for writing recovers it\n`);
  if (values.item !== undefined) {
    const item = fold.itemState(values.item);
    if (item === null) throw new UsageError(`--item: "${values.item}" has no events in the session of "${annotator}"`);
    if (values.json) printJson(io, item);
    else printItemLines(io, [item]);
    return 0;
  }
  // a pipeline pages through a large session: items_total says how many there are, items_offset where this page starts
  const ids = fold.itemIds();
  const start = offset ?? 0;
  const paged = limit !== null || offset !== null;
  const items = ids.slice(start, limit === null ? undefined : start + limit).map((id) => fold.itemState(id)!);
  if (values.json) printJson(io, { ...fold.stateWith(items), ...(paged ? { items_total: ids.length, items_offset: start } : {}) });
  else printItemLines(io, items);
  return 0;
}

function printItemLines(io: CliIo, items: readonly ItemSessionState[]): void {
  for (const i of items)
    io.out(
      `${i.item_id}\t${(i.audio_ms / 1000).toFixed(2)} s\t${i.final_label ?? '(no label)'}\t${i.label_source ?? '-'}\t${i.transcript}\n`,
    );
}

/** `session units`: the annotator's protocols cut into units of coding, as a coder (or `import --codings`) names them. */
async function units(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, { project: 'string', annotator: 'string', item: 'string', json: false });
  const { annotator, project, paths, events } = await loggedSession(values);
  const state = foldSession(events, project.config, paths.events, foldOptionsOf(project));
  let items = state.items.filter((i) => i.segments.length > 0);
  if (values.item !== undefined) {
    items = items.filter((i) => i.item_id === values.item);
    if (items.length === 0) throw new UsageError(`--item: "${values.item}" has no transcript in the session of "${annotator}"`);
    if (!isTranscriptFinal(items[0]!))
      throw new UsageError(
        `--item: the transcript of "${values.item}" is not final (the item is not completed), so its units could still change`,
      );
  }
  const notFinal = items.filter((i) => !isTranscriptFinal(i)).map((i) => i.item_id);
  if (notFinal.length > 0) io.err(`aloud session units: left out, transcript not final yet (item not completed): ${notFinal.join(', ')}\n`);
  const listed = items
    .filter(isTranscriptFinal)
    .flatMap((i) => unitsOfItem(i, project.config.coding.unit))
    .map(({ item_id, unit, text, t0_ms, t1_ms }) => ({ item_id, unit, text, t0_ms, t1_ms }));
  if (values.json) printJson(io, listed);
  else
    for (const u of listed) io.out(`${u.item_id}\t${u.unit}\t${(u.t0_ms / 1000).toFixed(2)}–${(u.t1_ms / 1000).toFixed(2)} s\t${u.text}\n`);
  return 0;
}

/**
 * `session complete`: Enter without the app, for recordings ingested from files. Each item is opened and completed
 * through the SessionService, so the app's rule decides (decideCompletion) and the log reads as the app's would.
 */
async function complete(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, { project: 'string', annotator: 'string', item: 'string', all: false, json: false });
  const { annotator, project, paths, events } = await loggedSession(values);
  if ((values.item === undefined) === !values.all)
    throw new UsageError('give --item ID (one item) or --all (every item of the session with audio or a label, not completed yet)');
  const items = await loadProjectItems(project);
  const logged = foldSession(events, project.config, paths.events).items;
  let targets: string[];
  if (values.item !== undefined) {
    if (!items.some((i) => i.id === values.item)) throw new UsageError(`--item: "${values.item}" is not one of the project's items`);
    targets = [values.item];
  } else {
    const open = new Set(logged.filter((i) => i.completed_at === null && (i.audio_ms > 0 || i.final_label !== null)).map((i) => i.item_id));
    targets = items.filter((i) => open.has(i.id)).map((i) => i.id);
  }
  const service = await SessionService.open({ project, annotator, items });
  const results: Array<{ item_id: string; completed: boolean; already: boolean; final_label: string | null; refused: string | null }> = [];
  try {
    reportRecovery(io, service.store.report);
    for (const itemId of targets) {
      const before = service.itemState(itemId);
      await service.openItem(itemId);
      try {
        const state = await service.completeItem();
        results.push({
          item_id: itemId,
          completed: true,
          already: before?.completed_at != null && !before.changed_after_completion,
          final_label: state.final_label,
          refused: null,
        });
      } catch (e) {
        const refusal = asRefusal(e);
        if (refusal.code === 'internal' || refusal.code === 'storage') throw e;
        results.push({
          item_id: itemId,
          completed: false,
          already: false,
          final_label: service.itemState(itemId)?.final_label ?? null,
          refused: refusal.message,
        });
      }
    }
  } finally {
    await service.close();
  }
  if (values.json) printJson(io, { annotator, items: results });
  else {
    for (const r of results)
      io.out(
        `${r.item_id}\t${r.completed ? (r.already ? 'already completed' : 'completed') : 'not completed'}\t${r.final_label ?? '(no label)'}${r.refused ? `\t${r.refused}` : ''}\n`,
      );
    if (targets.length === 0)
      io.err(`aloud session complete: nothing to complete: no item of "${annotator}" has audio or a label and is open\n`);
  }
  return results.some((r) => !r.completed) ? 1 : 0;
}

async function reparse(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, { project: 'string', annotator: 'string', 'dry-run': false, json: false });
  const projectDir = requireOption(values.project, '--project');
  const project = await loadProjectConfig(projectDir);
  const annotators = values.annotator !== undefined ? [values.annotator] : await projectSessionSource.annotators(project);
  if (annotators.length === 0) throw new UsageError(`no annotator sessions in ${project.dir}`);
  const results = [];
  const progress = progressLine(io, 'aloud session reparse', 'sessions');
  for (const [done, annotator] of annotators.entries()) {
    progress.report(done, annotators.length);
    results.push(await reparseSession(project, annotator, { dryRun: values['dry-run'] }));
  }
  progress.end();
  const changed = results.reduce((n, r) => n + r.items.filter((i) => i.changed).length, 0);
  if (values.json)
    printJson(io, {
      dry_run: values['dry-run'],
      config_sha256: results[0]!.config_sha256,
      parser_version: results[0]!.parser_version,
      changed,
      sessions: results,
    });
  else {
    for (const r of results) {
      for (const i of r.items)
        io.out(
          `${r.annotator}\t${i.item_id}\t${i.from ?? '(no label)'} → ${i.to ?? '(no label)'}${i.changed ? '' : '\t(same labels, now under the current configuration)'}\n`,
        );
    }
    io.err(`aloud session reparse: ${changed} item(s) change${values['dry-run'] ? ' (dry run: nothing written)' : ''}\n`);
  }
  return 0;
}

async function transcribeLater(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, {
    project: 'string',
    annotator: 'string',
    item: 'string',
    all: false,
    model: 'string',
    'engine-script': 'string',
    json: false,
  });
  const { annotator, project, paths, events } = await loggedSession(values);
  if (values.item !== undefined && values.all)
    throw new UsageError('--item and --all cannot be combined: --item transcribes one item, --all every recorded item');
  const items = await loadProjectItems(project);
  // the item is checked before a model is loaded
  const logged = foldSession(events, project.config, paths.events).items.filter((i) => i.audio_path !== null);
  if (values.item !== undefined && !logged.some((i) => i.item_id === values.item)) {
    throw new UsageError(`--item: "${values.item}" has no recorded audio in the session of "${annotator}"`);
  }
  const { service, engine } = await openTranscribingSession(
    'transcribe',
    { project, annotator, items, model: values.model, engineScript: values['engine-script'] },
    io,
  );
  try {
    const recorded = service.state().items.filter((i) => i.audio_path !== null);
    // one item; or every item never transcribed, or transcribed with another model than this one (--all: every item)
    const wanted =
      values.item !== undefined
        ? recorded.filter((i) => i.item_id === values.item)
        : values.all
          ? recorded
          : recorded.filter((i) => i.model === null || i.model.sha256 !== engine.model?.sha256);
    const done = [];
    for (const [k, item] of wanted.entries()) {
      io.err(`aloud session transcribe: ${k + 1}/${wanted.length} ${item.item_id} (${(item.audio_ms / 1000).toFixed(1)} s)\n`);
      const superseded = item.segments.length > 0;
      const after = await service.transcribeAgain(
        item.item_id,
        readSessionAudio,
        `transcribed again with ${engine.model?.name ?? 'another model'}`,
      );
      done.push({
        item_id: item.item_id,
        superseded_earlier: superseded,
        transcript: after.transcript,
        final_label: after.final_label,
        label_source: after.label_source,
        model: after.model,
      });
    }
    if (wanted.length === 0)
      io.err(
        `aloud session transcribe: nothing to transcribe: every recorded item of "${annotator}" is already transcribed with this model (--all transcribes them again)\n`,
      );
    if (values.json) printJson(io, { annotator, model: engine.model ?? null, transcribed: done.length, items: done });
    else for (const d of done) io.out(`${d.item_id}\t${d.final_label ?? '(no label)'}\t${d.transcript}\n`);
  } finally {
    await service.close();
  }
  return 0;
}

/** An item's WAV as the engine takes it: 16 kHz mono Float32. */
async function readSessionAudio(file: string): Promise<Float32Array> {
  const wav = await readWav(file);
  return resampleTo16k(wav.samples, wav.sampleRate);
}

export const sessionCommand: CliCommand = {
  name: 'session',
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'ingest') {
      // the disk failing stops the recording: what was saved is kept, and the ingest says so in its own name
      return ingest(rest, io).catch((e: unknown) => {
        if (asRefusal(e).code !== 'storage') throw e;
        io.err(`aloud session ingest: ${(e as Error).message}\n`);
        return 1;
      });
    }
    if (sub === 'show') return show(rest, io);
    if (sub === 'reparse') return reparse(rest, io);
    if (sub === 'transcribe') return transcribeLater(rest, io);
    if (sub === 'pack') return packCommand(rest, io);
    if (sub === 'unpack') return unpackCommand(rest, io);
    if (sub === 'units') return units(rest, io);
    if (sub === 'complete') return complete(rest, io);
    throw new UsageError(
      sub === undefined
        ? 'missing subcommand: ingest, show, reparse, transcribe, pack, unpack, units or complete'
        : `unknown subcommand "${sub}" (ingest, show, reparse, transcribe, pack, unpack, units or complete)`,
    );
  },
};
