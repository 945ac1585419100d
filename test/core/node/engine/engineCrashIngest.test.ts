import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';
import { decodeWav, encodeWavPcm16, readWav } from '../../../../core/node/audio/wavFile';
import { ENGINE_CRASH_FILE_ENV } from '../../../../core/node/engine/engineProcessCommandLine';
import { AppService } from '../../../../core/node/app/appService';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';
import { FOR_TESTS_MODEL, REPO, SHARED } from './engineTestModels';

const clips = ['commit-polite.wav', 'change-to-neutral.wav', 'negated-then-impolite.wav'].map((f) =>
  path.join(SHARED, 'fixtures/audio', f),
);
const haveShared = existsSync(FOR_TESTS_MODEL) && clips.every((c) => existsSync(c));
if (!haveShared) console.warn(`[engine crash tests] SKIPPED: ${FOR_TESTS_MODEL} or the fixture clips are missing`);

let work: string;
let longWav: string;
let longPcm: Float32Array;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'aloud-engine-crash-'));
  longWav = path.join(work, 'long.wav');
  if (!haveShared) return;
  const parts = await Promise.all(clips.map(async (c) => (await readWav(c)).samples));
  longPcm = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    longPcm.set(p, at);
    at += p.length;
  }
  await writeFile(longWav, encodeWavPcm16(longPcm, 16000));
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function demoProject(name: string): Promise<string> {
  const dir = path.join(work, name);
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return dir;
}

/** The transcriptions a session logged: utterance, its span and request id, in log order. */
async function transcriptions(projectDir: string) {
  const { events } = await readSessionLog(sessionPaths(projectDir, 'ana').events);
  return {
    events,
    transcribed: events.flatMap((e) =>
      e.type === 'utterance_transcribed'
        ? [{ utterance: e.data.utterance, start: e.data.start_sample, end: e.data.end_sample, request: e.data.request_id }]
        : [],
    ),
  };
}

/** Waits for `condition` on what the child printed so far; fails with its stderr when it exits or takes too long. */
async function until(child: ChildProcess, seen: { stderr: string }, condition: () => boolean, what: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${what} never happened:\n${seen.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `session ingest --realtime --progress` in a child process, its engine armed with the crash hook's file; stderr watched. */
function ingestWithCrashHook(projectDir: string, crashFile: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO, 'core/node/cli/bin.ts'),
      'session',
      'ingest',
      '--project',
      projectDir,
      '--annotator',
      'ana',
      '--item',
      'demo-01',
      '--wav',
      longWav,
      '--model',
      FOR_TESTS_MODEL,
      '--realtime',
      '--progress',
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [ENGINE_CRASH_FILE_ENV]: crashFile } },
  );
  const seen = { stderr: '', fedMs: 0, pids: [] as number[] };
  child.stdout.resume();
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    seen.stderr += text;
    for (const m of text.matchAll(/fed_ms=(\d+)/g)) seen.fedMs = Number(m[1]);
    for (const m of text.matchAll(/transcription engine running as process (\d+) \(aloud-engine\)/g)) seen.pids.push(Number(m[1]));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, seen, exited };
}

describe.skipIf(!haveShared)('the engine process dies during `session ingest --realtime`', () => {
  it(
    'SIGSEGV (test hook) mid-job and SIGKILL: the ingest finishes, every utterance is transcribed exactly once, the session validates, all audio kept',
    { timeout: 300_000 },
    async () => {
      // what an ingest of this audio logs when nothing crashes: the same cuts, each transcribed once
      const reference = await demoProject('reference');
      const calm = await cli(
        'session',
        'ingest',
        '--project',
        reference,
        '--annotator',
        'ana',
        '--item',
        'demo-01',
        '--wav',
        longWav,
        '--model',
        FOR_TESTS_MODEL,
      );
      expect(calm.code, calm.err).toBe(0);
      const expected = (await transcriptions(reference)).transcribed
        .map(({ utterance, start, end }) => ({ utterance, start, end }))
        .sort((a, b) => a.utterance - b.utterance);
      expect(expected.length).toBeGreaterThanOrEqual(3);

      const projectDir = await demoProject('crashes');
      const crashFile = path.join(work, 'crash-next-transcribe');
      const { child, seen, exited } = ingestWithCrashHook(projectDir, crashFile);

      await until(child, seen, () => seen.pids.length === 1 && seen.fedMs >= 5000, 'recording with the engine running');
      const [first] = seen.pids;
      // users and scripts find the engine by its title
      expect(execFileSync('pgrep', ['-f', 'aloud-engine'], { encoding: 'utf8' }).split('\n').map(Number)).toContain(first);
      // SIGSEGV inside the engine process at its next final's transcription: a job the session waits for dies with it
      // (a partial dying would be dropped, not sent again: nothing waits for it)
      await writeFile(crashFile, 'transcribe-final');
      await until(child, seen, () => /transcription restarted \(process \d+, restart 1\)/.test(seen.stderr), 'the first restart');
      expect(existsSync(crashFile)).toBe(false);
      await until(child, seen, () => seen.fedMs >= 13_000, 'recording after the first restart');
      const second = seen.pids[1]!;
      process.kill(second, 'SIGKILL');
      await until(child, seen, () => /transcription restarted \(process \d+, restart 2\)/.test(seen.stderr), 'the second restart');

      expect(await exited, seen.stderr).toBe(0);
      expect(seen.stderr).toContain(
        `the engine process ${first} stopped: killed by SIGSEGV (segmentation fault); restarting it with for-tests-ggml-tiny.en`,
      );
      expect(seen.stderr).toContain(`the engine process ${second} stopped: killed by SIGKILL; restarting it with for-tests-ggml-tiny.en`);
      // the job the SIGSEGV interrupted was sent again to the next process
      expect(seen.stderr).toMatch(
        /restart 1\) with for-tests-ggml-tiny\.en; (the waiting utterance is|\d+ waiting utterances are) transcribed now/,
      );
      expect(seen.stderr).not.toContain('transcription failed');
      expect(seen.pids).toHaveLength(3);

      // every utterance transcribed exactly once, with the same cuts as without crashes; nothing stale
      const { events, transcribed } = await transcriptions(projectDir);
      expect(transcribed.map(({ utterance, start, end }) => ({ utterance, start, end })).sort((a, b) => a.utterance - b.utterance)).toEqual(
        expected,
      );
      expect(new Set(transcribed.map((t) => t.request)).size).toBe(transcribed.length);
      expect(events.filter((e) => e.type === 'stale_result')).toEqual([]);

      // every sample recorded, in the log and in the WAV
      const stopped = events.find((e) => e.type === 'recording_stopped');
      expect(stopped?.type === 'recording_stopped' && stopped.data).toMatchObject({
        total_samples: longPcm.length,
        reason: 'end_of_input',
        error: null,
      });
      const wav = decodeWav(await readFile(path.join(sessionPaths(projectDir, 'ana').audioDir, 'demo-01.wav')), 'demo-01.wav');
      expect(wav.samples).toEqual(longPcm);

      // the session exports and the export validates
      const out = path.join(work, 'crashes.jsonl');
      const exported = await cli('export', '--project', projectDir, '--annotator', 'ana', '--format', 'jsonl', '--out', out);
      expect(exported.code, exported.err).toBe(0);
      const validated = await cli('validate', out, '--project', projectDir);
      expect(validated.code, validated.out + validated.err).toBe(0);
    },
  );

  it(
    'three crashes within a minute: transcription stops and says so once, the recording goes on to the end',
    { timeout: 300_000 },
    async () => {
      const projectDir = await demoProject('three-crashes');
      const crashFile = path.join(work, 'crash-three-times');
      const { child, seen, exited } = ingestWithCrashHook(projectDir, crashFile);
      await until(child, seen, () => seen.fedMs >= 3000, 'recording');
      for (let crash = 1; crash <= 3; crash++) {
        await writeFile(crashFile, 'transcribe');
        if (crash < 3) await until(child, seen, () => seen.stderr.includes(`, restart ${crash})`), `restart ${crash}`);
      }
      await until(child, seen, () => seen.stderr.includes('crashed 3 times within a minute'), 'giving up');
      expect(await exited, seen.stderr).toBe(0);
      expect(
        seen.stderr.match(
          /the transcription engine crashed 3 times within a minute \(last: killed by SIGSEGV \(segmentation fault\)\); transcription is off for this session, recording continues/g,
        ),
      ).toHaveLength(1);

      // every sample recorded; every utterance either transcribed before the stop or logged as not transcribed, saying why
      const { events, transcribed } = await transcriptions(projectDir);
      const wav = decodeWav(await readFile(path.join(sessionPaths(projectDir, 'ana').audioDir, 'demo-01.wav')), 'demo-01.wav');
      expect(wav.samples).toEqual(longPcm);
      const failed = events.filter((e) => e.type === 'stale_result');
      expect(failed.length).toBeGreaterThan(0);
      for (const e of failed) expect(e.type === 'stale_result' && e.data.reason).toMatch(/crashed 3 times within a minute/);
      expect(new Set(transcribed.map((t) => t.utterance)).size).toBe(transcribed.length);
    },
  );

  it('a model that crashes the engine at load: one clear error, and the app still records', { timeout: 120_000 }, async () => {
    const projectDir = await demoProject('crash-at-load');
    const crashFile = path.join(work, 'crash-at-load.txt');
    await writeFile(crashFile, 'load');
    process.env[ENGINE_CRASH_FILE_ENV] = crashFile;
    let app: AppService | null = null;
    try {
      app = await AppService.open({ projectDir, mode: 'browser', modelFile: FOR_TESTS_MODEL });
      await app.openSession('ana');
      const { engine } = await app.appInfo();
      expect(engine.available).toBe(false);
      expect(engine.problem).toMatch(
        new RegExp(
          `^cannot load the whisper model ${FOR_TESTS_MODEL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the engine process crashed while loading for-tests-ggml-tiny\\.en \\(killed by SIGSEGV \\(segmentation fault\\)\\); the file may be damaged or of a kind whisper\\.cpp cannot run: check it with \`aloud models verify\`$`,
        ),
      );
      expect(engine.problem!.split('\n')).toHaveLength(1);

      await app.openItem('demo-01');
      await app.startRecording(null);
      const second = new Float32Array(16000).map((_, i) => 0.2 * Math.sin(i / 5));
      await app.appendAudio(encodeChunkFrame({ startSample: 0, sampleRate: 16000, pcm: second }));
      const patch = await app.stopRecording();
      expect(patch.changed_items.find((i) => i.item_id === 'demo-01')?.audio_ms).toBe(1000);
    } finally {
      delete process.env[ENGINE_CRASH_FILE_ENV];
      await app?.close();
    }
  });
});
