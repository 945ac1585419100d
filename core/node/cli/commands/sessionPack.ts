import { packSession, PackRefusedError, PackUnreadableError, unpackSession } from '../../packs/sessionPack';
import { loadProjectConfig } from '../../project/projectFolder';
import { type CliIo, parseOptions, printJson, requireOption, UsageError } from '../cliSupport';
import { progressLine } from '../progressLine';
import { pipelineSummary } from '../../../common/export/pipelineSummary';

export const PACK_USAGE = [
  '       aloud session pack --project DIR --annotator NAME --out FILE.aloudpack [--force] [--json]',
  '       aloud session unpack FILE.aloudpack --project DIR [--json [--full]]',
].join('\n');

/** What `unpack --json` prints, usage text: the pack's stray files as their count (a pack can hold many), all with --full. */
export const UNPACK_JSON_USAGE =
  'unpack --json: {file, annotator, status, events_before, events_after, appended, audio_files, stray_files_count,\n' +
  'stray_files (the first 20)}; --json --full: every stray file. A refused pack: {refused}.';

const size = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

/** `aloud session pack`: the annotator's log and audio as one file, with its manifest, for the lead to collect. */
export async function packCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, { project: 'string', annotator: 'string', out: 'string', force: false, json: false });
  const dir = requireOption(values.project, '--project');
  const annotator = requireOption(values.annotator, '--annotator');
  const out = requireOption(values.out, '--out');
  const project = await loadProjectConfig(dir);
  const progress = progressLine(io, 'aloud session pack', 'bytes');
  const result = await packSession({ project, annotator, out, force: values.force, onProgress: progress.report }).finally(progress.end);
  if (values.json) printJson(io, result);
  else
    io.out(
      `Packed the session of "${result.annotator}" (${result.events} events, ${result.audio_files} audio files, ${size(result.bytes)}) into ${result.file}\n`,
    );
  return 0;
}

/** `aloud session unpack`: checks a pack against the project, then adds the session or extends the one held. */
export async function unpackCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, { project: 'string', json: false, full: false }, { positionals: true });
  if (values.full && !values.json) throw new UsageError('--full prints the whole result with --json (add --json)');
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'missing FILE.aloudpack to unpack' : `expected one pack, got ${positionals.length}`);
  const dir = requireOption(values.project, '--project');
  const project = await loadProjectConfig(dir);
  const progress = progressLine(io, 'aloud session unpack', 'bytes');
  try {
    const result = await unpackSession({ project, file: positionals[0]!, onProgress: progress.report }).finally(progress.end);
    if (result.stray_files.length > 0)
      io.err(
        `aloud session unpack: left out ${result.stray_files.length} file${result.stray_files.length === 1 ? '' : 's'} of the pack that no event of its log names: ${result.stray_files.join(', ')}\n`,
      );
    // a pipeline reads the status and counts; stray files are listed on stderr above, and whole with --full
    if (values.json) printJson(io, values.full ? result : pipelineSummary(result, new Set(['stray_files'])));
    else if (result.status === 'added')
      io.out(`Added the session of "${result.annotator}": ${result.events_after} events, ${result.audio_files} audio files\n`);
    else if (result.status === 'extended')
      io.out(
        `Extended the session of "${result.annotator}": ${result.appended} new events (${result.events_before} → ${result.events_after}), ${result.audio_files} audio files written\n`,
      );
    else io.out(`The session of "${result.annotator}" is already up to date (${result.events_after} events)\n`);
    return 0;
  } catch (e) {
    // a refused pack is a finding about the pack (exit 1, like validate's problems); a file that is no readable pack
    // (damaged, hostile, over a limit) is a bad file given to the command (exit 2)
    if (!(e instanceof PackRefusedError) && !(e instanceof PackUnreadableError)) throw e;
    if (values.json) printJson(io, { refused: e.message });
    io.err(`aloud session unpack: ${e.message}\n`);
    return e instanceof PackUnreadableError ? 2 : 1;
  }
}
