import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { InputProblem } from '../../common/io/inputProblem';
import { decodeWav, WavError } from './wavFile';
import { ProjectPathError, resolveInside } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

/** What a referenced session WAV holds, checked against what the log (or an export) says it holds. */
export type WavCheck = { status: 'ok'; sha256: string } | { status: 'missing' } | { status: 'disagrees'; problem: string };

/**
 * Checks the WAV a session log references: inside the project after realpath (no link out), a readable WAV in the
 * session format (16-bit PCM, mono, 16 kHz) whose header agrees with its length, as long as the log says (to the
 * millisecond), and, when a digest is expected (an earlier export's), with those exact bytes.
 */
export async function checkSessionWav(
  projectDir: string,
  relative: string,
  expected: { durationMs: number; sha256?: string | null },
): Promise<WavCheck> {
  let file: string;
  let bytes: Buffer;
  try {
    file = await resolveInside(projectDir, path.join(...relative.split('/')), 'read');
    bytes = await readFile(file);
  } catch (e) {
    if (e instanceof ProjectPathError && e.status === 404) return { status: 'missing' };
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return {
      status: 'disagrees',
      problem: e instanceof ProjectPathError ? e.message : `${relative}: cannot read (${(e as Error).message})`,
    };
  }
  const disagrees = (problem: string): WavCheck => ({ status: 'disagrees', problem: `${relative}: ${problem}` });
  let wav;
  try {
    wav = decodeWav(bytes, relative);
  } catch (e) {
    if (e instanceof WavError) return { status: 'disagrees', problem: e.message };
    throw e;
  }
  if (wav.format !== 'pcm' || wav.bitsPerSample !== 16 || wav.channels !== 1 || wav.sampleRate !== AUDIO_SAMPLE_RATE) {
    return disagrees(
      `not a session recording (${wav.format} ${wav.bitsPerSample}-bit, ${wav.channels} channel(s), ${wav.sampleRate} Hz; sessions write 16-bit PCM mono at ${AUDIO_SAMPLE_RATE} Hz)`,
    );
  }
  if (wav.truncatedHeader)
    return disagrees(
      "the WAV header's data size does not match the file (a crash, or the file was cut); open the session once to repair it",
    );
  const durationMs = Math.round((wav.samples.length * 1000) / AUDIO_SAMPLE_RATE);
  if (durationMs !== expected.durationMs) return disagrees(`holds ${durationMs} ms of audio, the session log ${expected.durationMs} ms`);
  const sha256 = sha256Hex(bytes);
  if (expected.sha256 && expected.sha256 !== sha256)
    return disagrees(`sha256 is ${sha256}, the export recorded ${expected.sha256} (the file changed since)`);
  return { status: 'ok', sha256 };
}

/**
 * For export: the WAV's sha256 when it agrees with the log, else null (the export records a gap for the item) and
 * a warning saying what disagrees. A missing file is a gap without a warning (the gap says it).
 */
export async function exportedWavSha256(
  projectDir: string,
  relative: string,
  durationMs: number,
  warn: (message: string) => void,
): Promise<string | null> {
  const check = await checkSessionWav(projectDir, relative, { durationMs });
  if (check.status === 'ok') return check.sha256;
  if (check.status === 'disagrees') warn(`${check.problem}: exported without its audio digest (a gap)`);
  return null;
}

/** What `validate --project` checks of a record with audio: whose it is and the audio it recorded. */
export interface ExportedAudio {
  annotator: string;
  item_id: string;
  audio: { path: string; sha256: string | null; duration_ms: number };
}

/** For `validate --project`: every WAV an export references, checked again against the export's own record of it. */
export async function exportedWavProblems(projectDir: string, records: readonly ExportedAudio[], file: string): Promise<InputProblem[]> {
  const problems: InputProblem[] = [];
  for (const { annotator, item_id, audio } of records) {
    if (audio.sha256 === null) continue;
    const check = await checkSessionWav(projectDir, audio.path, { durationMs: audio.duration_ms, sha256: audio.sha256 });
    const where = `${annotator} / ${item_id}`;
    if (check.status === 'missing')
      problems.push({ file, line: null, field: 'audio', stage: 'rule', message: `${where}: ${audio.path} is missing from the project` });
    if (check.status === 'disagrees')
      problems.push({ file, line: null, field: 'audio', stage: 'rule', message: `${where}: ${check.problem}` });
  }
  return problems;
}
