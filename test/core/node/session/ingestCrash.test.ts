import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, encodeWavPcm16, readWav } from '../../../../core/node/audio/wavFile';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { cli } from '../../../helpers/cli';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const shared = path.resolve(repo, '../shared');
const model = path.join(shared, 'models/for-tests-ggml-tiny.en.bin');
const clips = ['commit-polite.wav', 'change-to-neutral.wav', 'negated-then-impolite.wav'].map((f) =>
  path.join(shared, 'fixtures/audio', f),
);
const haveShared = existsSync(model) && clips.every((c) => existsSync(c));
if (!haveShared) console.warn(`skipping ingest crash tests: ${model} or the fixture clips in ${shared}/fixtures/audio are missing`);

const KILLS = 20;
/** A kill lands at a random moment between the child's start and this long after its recording began. */
const MAX_RECORDING_MS = 2500;

let work: string;
let longWav: string;

/** A WAV of the three fixture clips one after the other (~22.7 s), long enough that every kill lands mid-recording. */
async function makeLongWav(file: string, repeat = 1): Promise<number> {
  const parts = await Promise.all(clips.map(async (c) => (await readWav(c)).samples));
  const all = Array.from({ length: repeat }, () => parts).flat();
  const pcm = new Float32Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    pcm.set(p, at);
    at += p.length;
  }
  await writeFile(file, encodeWavPcm16(pcm, 16000));
  return pcm.length;
}

async function demoProject(parent: string) {
  const dir = path.join(parent, 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return loadProjectConfig(dir);
}

function ingestChild(projectDir: string, wav: string, extra: string[] = []): ChildProcess {
  return spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(repo, 'core/node/cli/bin.ts'),
      'session',
      'ingest',
      '--project',
      projectDir,
      '--annotator',
      'ana',
      '--item',
      'demo-01',
      '--wav',
      wav,
      '--model',
      model,
      '--progress',
      ...extra,
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** Collects stderr lines, remembering when recording began and the last fed_ms reported. */
function watch(child: ChildProcess) {
  const seen = { recordingAt: null as number | null, fedMs: 0, stderr: '' };
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    seen.stderr += text;
    if (seen.recordingAt === null && text.includes('recording "demo-01"')) seen.recordingAt = Date.now();
    for (const m of text.matchAll(/fed_ms=(\d+)/g)) seen.fedMs = Number(m[1]);
  });
  child.stdout!.resume();
  return seen;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'aloud-crash-'));
  longWav = path.join(work, 'long.wav');
  if (haveShared) await makeLongWav(longWav);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe.skipIf(!haveShared)('headless ingest survives kill -9', () => {
  // each run starts the CLI and its engine process: minutes on a busy 2-core machine
  it(
    `recovers after SIGKILL at ${KILLS} random moments: audio within 1 s of what was fed, valid WAV header, replayable log, same item`,
    { timeout: 900_000 },
    async () => {
      const project = await demoProject(work);
      const paths = sessionPaths(project.dir, 'ana');
      let recoveredMs = 0;
      const figures: string[] = [];
      for (let k = 0; k < KILLS; k++) {
        const child = ingestChild(project.dir, longWav, ['--realtime']);
        const seen = watch(child);
        const spawnedAt = Date.now();
        // Most kills land mid-recording; every fifth at any moment from the start (loading, recovering, recording).
        const anyMoment = k % 5 === 4;
        if (anyMoment) {
          await sleep(Math.random() * 2000);
        } else {
          while (seen.recordingAt === null && child.exitCode === null && Date.now() - spawnedAt < 180_000) await sleep(10);
          expect(seen.recordingAt, `run ${k} never started recording: ${seen.stderr}`).not.toBeNull();
          await sleep(Math.random() * MAX_RECORDING_MS);
        }
        child.kill('SIGKILL');
        await exited(child);
        const fedMs = seen.fedMs;

        // Open for writing, as the app does on start: recovery runs here.
        const store = await SessionStore.open({ project, annotator: 'ana' });
        const item = store.itemState('demo-01');
        const state = store.state();
        await store.close();

        const audioMs = item?.audio_ms ?? 0;
        const added = audioMs - recoveredMs;
        figures.push(`${k}: fed ${fedMs} ms, kept ${added} ms`);
        // at most the last second lost; never more than was fed (plus chunks fed but not yet reported)
        expect(added, `run ${k}`).toBeGreaterThanOrEqual(fedMs - 1000);
        expect(added, `run ${k}`).toBeLessThanOrEqual(fedMs + 400);
        recoveredMs = audioMs;
        if (seen.recordingAt !== null) expect(state.current_item).toBe('demo-01');
        expect(state.recording).toBeNull();

        const { events, torn } = await readSessionLog(paths.events);
        expect(torn).toBeNull();
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        if (item?.audio_path) {
          const wav = decodeWav(await readFile(path.join(project.dir, item.audio_path)), item.audio_path);
          expect(wav.truncatedHeader).toBe(false);
          expect(Math.round(wav.samples.length / 16)).toBe(audioMs);
        }
      }
      console.log(`kill -9 runs (fed → kept):\n${figures.join('\n')}`);
      expect(recoveredMs).toBeGreaterThan(0);
    },
  );

  it('a second process opening the same session for writing is refused with a clear message', { timeout: 60_000 }, async () => {
    const project = await demoProject(await mkdtemp(path.join(work, 'lock-')));
    const child = ingestChild(project.dir, longWav, ['--realtime']);
    const seen = watch(child);
    while (seen.recordingAt === null && child.exitCode === null) await sleep(10);
    const second = await cli(
      'session',
      'ingest',
      '--project',
      project.dir,
      '--annotator',
      'ana',
      '--item',
      'demo-02',
      '--wav',
      clips[0]!,
      '--model',
      model,
    );
    child.kill('SIGKILL');
    await exited(child);
    expect(second.code).toBe(2);
    expect(second.err.trim().split('\n')).toHaveLength(1);
    expect(second.err).toContain(
      `aloud session: the session of "ana" in ${project.dir} is already open for writing by process ${child.pid}`,
    );
    // after the owner died, the next opening takes the lock over and says so
    const third = await cli(
      'session',
      'ingest',
      '--project',
      project.dir,
      '--annotator',
      'ana',
      '--item',
      'demo-02',
      '--wav',
      clips[0]!,
      '--model',
      model,
      '--json',
    );
    expect(third.code).toBe(0);
    expect(third.err).toContain(`took over the lock of process ${child.pid}`);
    expect(third.err).toMatch(/the recording of "demo-01" was interrupted/);
  });
});

/** Runs `fn` with a fresh tmpfs of `size` at `dir`, or returns false when mounting is not permitted here. */
function mountTmpfs(dir: string, size: string): boolean {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  return r.status === 0;
}

describe.skipIf(!haveShared)('headless ingest on a full or read-only disk', () => {
  it(
    'a full disk (1 MB tmpfs): clear error, recording stopped, everything saved before intact and recoverable',
    { timeout: 60_000 },
    async () => {
      const mountPoint = await mkdtemp(path.join(work, 'tmpfs-'));
      if (!mountTmpfs(mountPoint, '1m')) {
        console.warn('skipping the tmpfs full-disk variant: mount is not permitted here (the injected-ENOSPC tests still cover it)');
        return;
      }
      try {
        const project = await demoProject(mountPoint);
        const bigWav = path.join(work, 'big.wav');
        await makeLongWav(bigWav, 2); // ~45 s: 1.45 MB of audio, more than the disk holds
        const result = await cli(
          'session',
          'ingest',
          '--project',
          project.dir,
          '--annotator',
          'ana',
          '--item',
          'demo-01',
          '--wav',
          bigWav,
          '--model',
          model,
        );
        expect(result.code).toBe(1);
        expect(result.err.trim().split('\n')).toHaveLength(2); // the recording line, then the error
        expect(result.err).toMatch(
          /aloud session ingest: cannot write (audio to .*demo-01\.wav|to .*events\.jsonl): no space left on the disk \(ENOSPC\)/,
        );

        const paths = sessionPaths(project.dir, 'ana');
        const { events, torn } = await readSessionLog(paths.events);
        expect(torn).toBeNull();
        const wav = decodeWav(await readFile(path.join(paths.audioDir, 'demo-01.wav')), 'demo-01.wav');
        expect(wav.truncatedHeader).toBe(false);
        const logged = events
          .filter((e) => e.type === 'audio_appended')
          .reduce((n, e) => n + (e.type === 'audio_appended' ? e.data.samples : 0), 0);
        expect(logged).toBeGreaterThan(16000 * 10);
        expect(wav.samples.length).toBeGreaterThanOrEqual(logged);
        expect(wav.samples.length - logged).toBeLessThanOrEqual(16000);

        // the show command still reads it; a later opening (disk still full) sees a consistent session
        const shown = await cli('session', 'show', '--project', project.dir, '--annotator', 'ana', '--item', 'demo-01', '--json');
        expect(shown.code).toBe(0);
        expect(JSON.parse(shown.out).audio_ms).toBe(Math.round(logged / 16));
      } finally {
        spawnSync('umount', [mountPoint]);
      }
    },
  );

  it('a read-only folder: a clear one-line error and nothing changed', { timeout: 60_000 }, async () => {
    const mountPoint = await mkdtemp(path.join(work, 'ro-'));
    if (!mountTmpfs(mountPoint, '4m')) {
      console.warn('skipping the read-only variant: mount is not permitted here (the injected-EROFS tests still cover it)');
      return;
    }
    try {
      const project = await demoProject(mountPoint);
      await mkdir(path.join(project.dir, 'sessions'));
      expect(spawnSync('mount', ['-o', 'remount,ro', mountPoint]).status).toBe(0);
      const result = await cli(
        'session',
        'ingest',
        '--project',
        project.dir,
        '--annotator',
        'ana',
        '--item',
        'demo-01',
        '--wav',
        clips[0]!,
        '--model',
        model,
      );
      expect(result.code).toBe(1);
      expect(result.err.trim().split('\n')).toHaveLength(1);
      expect(result.err).toContain('read-only file system (EROFS)');
      expect(existsSync(path.join(project.dir, 'sessions/ana'))).toBe(false);
    } finally {
      spawnSync('umount', [mountPoint]);
    }
  });
});
