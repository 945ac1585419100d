import { spawnSync } from 'node:child_process';
import { appendFile, mkdir, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { asRefusal as toApiError } from '../../../core/common/refusal/refusal';
import { AppService } from '../../../core/node/app/appService';
import { acquireSessionLock, SessionLockedError } from '../../../core/node/session/sessionLock';
import { readSessionLog } from '../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../core/node/session/sessionPaths';
import { SessionStore } from '../../../core/node/session/sessionStore';
import { faultyFs } from '../../core/node/session/faultyFs';
import { cli } from '../../helpers/cli';
import { freshProject, recordedProject, rejection, unchanged } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';
import { wavDeclaring } from '../wavBytes';

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

const staleLock = () => `${JSON.stringify({ pid: deadPid(), host: hostname(), started_at: '2024-05-01T10:00:00.000Z' })}\n`;

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void>) => cases.push({ name, run });

// The session lock.
add('a lock left by a dead process is taken over and reported; no stale copy is left beside it', async () => {
  const { project } = await freshProject();
  const paths = sessionPaths(project.dir, 'ana');
  await mkdir(paths.dir, { recursive: true });
  await writeFile(paths.lock, staleLock());
  const lock = await acquireSessionLock(paths.lock, { sessionLabel: 'ana' });
  expect(lock.tookOverFrom).not.toBeNull();
  expect((await readdir(paths.dir)).filter((f) => f.includes('stale'))).toEqual([]);
  await lock.release();
});
for (const racers of [2, 6, 12]) {
  add(
    `${racers} processes racing to take over one stale lock, 15 times over: each time exactly one wins, the others are told who holds it`,
    async () => {
      const { project } = await freshProject();
      const paths = sessionPaths(project.dir, 'ana');
      await mkdir(paths.dir, { recursive: true });
      for (let round = 0; round < 15; round++) {
        await writeFile(paths.lock, staleLock());
        const outcomes = await Promise.allSettled(
          Array.from({ length: racers }, () => acquireSessionLock(paths.lock, { sessionLabel: 'ana' })),
        );
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        expect(won, `round ${round}`).toHaveLength(1);
        for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(SessionLockedError);
        const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireSessionLock>>>).value;
        expect(JSON.parse(await readFile(paths.lock, 'utf8'))).toEqual(winner.owner);
        expect((await readdir(paths.dir)).filter((f) => f !== '.lock')).toEqual([]);
        await winner.release();
      }
    },
  );
}
add('a live lock is never taken over, and stays byte for byte', async () => {
  const { project } = await freshProject();
  const paths = sessionPaths(project.dir, 'ana');
  await mkdir(paths.dir, { recursive: true });
  const live = `${JSON.stringify({ pid: process.pid, host: hostname(), started_at: '2024-05-01T10:00:00.000Z' })}\n`;
  await writeFile(paths.lock, live);
  expect(await rejection(acquireSessionLock(paths.lock, { sessionLabel: 'ana' }))).toBeInstanceOf(SessionLockedError);
  await unchanged(paths.lock, live);
});
add("another computer's lock is never taken over", async () => {
  const { project } = await freshProject();
  const paths = sessionPaths(project.dir, 'ana');
  await mkdir(paths.dir, { recursive: true });
  const remote = `${JSON.stringify({ pid: 1, host: 'other-host.example', started_at: '2024-05-01T10:00:00.000Z' })}\n`;
  await writeFile(paths.lock, remote);
  expect((await rejection(acquireSessionLock(paths.lock, { sessionLabel: 'ana' }))).message).toContain('another computer');
  await unchanged(paths.lock, remote);
});

// Crashes mid-write.
/** The log as a kill during the recording leaves it: every line before the take's recording_stopped (a prefix). */
async function killedMidTake(events: string): Promise<void> {
  const lines = (await readFile(events, 'utf8')).split('\n');
  const stop = lines.map((l) => l.includes('"type":"recording_stopped"')).lastIndexOf(true);
  await writeFile(events, `${lines.slice(0, stop).join('\n')}\n`);
}
add('a torn last log line (killed mid-append) is cut, kept in a .torn file and reported', async () => {
  const { project } = await recordedProject();
  const { events } = sessionPaths(project.dir, 'ana');
  const torn = '{"v":1,"seq":99,"ts":"2024-05-01T10:00:00.000Z","type":"no';
  await appendFile(events, torn);
  const store = await SessionStore.open({ project, annotator: 'ana' });
  expect(store.report.torn).toMatchObject({ bytes: Buffer.byteLength(torn) });
  expect(await readFile(store.report.torn!.tornFile, 'utf8')).toContain('"seq":99');
  await store.close();
  expect((await readSessionLog(events)).torn).toBeNull();
});
add('a damaged line in the middle of the log refuses the session (4xx, naming the line) and leaves the log as it was', async () => {
  const { project } = await recordedProject();
  const { events } = sessionPaths(project.dir, 'ana');
  const lines = (await readFile(events, 'utf8')).split('\n');
  lines.splice(2, 0, '{"v":1,"seq":3,"garbage"');
  await writeFile(events, lines.join('\n'));
  const before = await readFile(events);
  const error = await rejection(SessionStore.open({ project, annotator: 'ana' }));
  expect(error.message).toMatch(/events\.jsonl:3:/);
  expect(toApiError(error).code).toBe('conflict');
  await unchanged(events, before);
});
add('a WAV with audio past what the log records (killed between the WAV write and the event) is kept and logged as recovered', async () => {
  const { project, wav } = await recordedProject();
  await killedMidTake(sessionPaths(project.dir, 'ana').events);
  const bytes = await readFile(wav);
  await writeFile(wav, Buffer.concat([bytes, Buffer.alloc(3200, 1)]));
  const store = await SessionStore.open({ project, annotator: 'ana' });
  expect(store.report.recoveredAudio).toEqual([
    expect.objectContaining({ item_id: 'demo-01', samples_logged: 16_000, samples_total: 17_600 }),
  ]);
  await store.close();
});
add('a WAV whose header was never patched (size 0) is repaired on opening', async () => {
  const { project, wav } = await recordedProject();
  await killedMidTake(sessionPaths(project.dir, 'ana').events);
  const bytes = await readFile(wav);
  bytes.writeUInt32LE(0, 40);
  await writeFile(wav, bytes);
  const store = await SessionStore.open({ project, annotator: 'ana' });
  expect(store.report.recoveredAudio[0]).toMatchObject({ header_repaired: true });
  await store.close();
});
add('a WAV cut shorter than the log (a torn write) is repaired to what is on disk and reported', async () => {
  const { project, wav } = await recordedProject();
  await killedMidTake(sessionPaths(project.dir, 'ana').events);
  await truncate(wav, 44 + 16_000);
  const store = await SessionStore.open({ project, annotator: 'ana' });
  expect(store.report.recoveredAudio[0]).toMatchObject({ samples_logged: 16_000, samples_total: 8_000 });
  await store.close();
});
add('an empty log (killed right after creating it) reopens as a new session', async () => {
  const { project } = await freshProject();
  const paths = sessionPaths(project.dir, 'ana');
  await mkdir(paths.audioDir, { recursive: true });
  await writeFile(paths.events, '');
  const store = await SessionStore.open({ project, annotator: 'ana' });
  expect(store.report.created).toBe(true);
  await store.close();
  expect((await readSessionLog(paths.events)).events[0]?.type).toBe('session_started');
});
add('a recording interrupted by a kill is closed on reopening (recording_stopped, reason recovered)', async () => {
  const { project } = await recordedProject();
  const store = await SessionStore.open({ project, annotator: 'ana' });
  await store.append('item_opened', { item_id: 'demo-02', text_sha256: null });
  await store.append('recording_started', { item_id: 'demo-02', audio_path: store.audioPath('demo-02'), offset_samples: 0, device: null });
  const writer = await store.audioWriter('demo-02');
  writer.append(new Float32Array(1600));
  await writer.flush();
  await store.append('audio_appended', { item_id: 'demo-02', offset_samples: 0, samples: 1600 });
  // no close: the process "dies" here; the lock is released as a dead process's would be found
  await (store as unknown as { lock: { release(): Promise<void> } }).lock.release();
  const reopened = await SessionStore.open({ project, annotator: 'ana' });
  expect(reopened.report.interruptedRecording).toBe('demo-02');
  await reopened.close();
  await store.closeAudio('demo-02').catch(() => undefined);
});
add('the disk fills while recording: a storage error (507) names the WAV, the audio already written stays', async () => {
  const { project } = await freshProject();
  const fs = faultyFs({ affects: (p) => p.endsWith('.wav') });
  const store = await SessionStore.open({ project, annotator: 'ana', fs });
  await store.append('item_opened', { item_id: 'demo-01', text_sha256: null });
  await store.append('recording_started', { item_id: 'demo-01', audio_path: store.audioPath('demo-01'), offset_samples: 0, device: null });
  const writer = await store.audioWriter('demo-01');
  writer.append(new Float32Array(1600));
  await writer.flush();
  fs.setBudget(100);
  writer.append(new Float32Array(16_000));
  const error = await rejection(writer.flush());
  expect(error.message).toContain('demo-01.wav');
  expect(toApiError(error).code).toBe('storage');
  await store.closeAudio('demo-01', { abandon: true }).catch(() => undefined);
  await store.close().catch(() => undefined);
  const size = (await stat(path.join(project.dir, store.audioPath('demo-01')))).size;
  expect(size).toBeGreaterThanOrEqual(44 + 3200);
});
add('a read-only project folder: the session is refused with a storage error and no lock is left', async () => {
  const { project } = await freshProject();
  const error = await rejection(SessionStore.open({ project, annotator: 'ana', fs: faultyFs({ failOpen: 'EROFS' }) }));
  expect(toApiError(error).code).toBe('storage');
  await expect(stat(sessionPaths(project.dir, 'ana').lock)).rejects.toThrow();
});

// Refusals change nothing.
add('session ingest of a 1 Hz WAV exits 2 before the session is touched (no log, no lock, no WAV)', async () => {
  const { project, root } = await freshProject();
  const file = path.join(root, 'one-hertz.wav');
  await writeFile(file, wavDeclaring(1));
  const result = await cli('session', 'ingest', '--project', project.dir, '--annotator', 'ana', '--item', 'demo-01', '--wav', file);
  expect(result.code).toBe(2);
  await expect(stat(path.join(project.dir, 'sessions', 'ana'))).rejects.toThrow();
});
add('a failed switch to a locked annotator keeps the current session open and recording-ready', async () => {
  const { project } = await freshProject();
  const app = await AppService.open({ projectDir: project.dir, mode: 'electron', openEngine: null });
  try {
    await app.openSession('ana');
    await app.openItem('demo-01');
    await mkdir(sessionPaths(project.dir, 'ben').dir, { recursive: true });
    const held = await acquireSessionLock(sessionPaths(project.dir, 'ben').lock, { sessionLabel: 'ben' });
    const error = await rejection(app.openSession('ben'));
    expect((error as Error & { code?: string }).code).toBe('conflict');
    expect((await app.session()).annotator).toBe('ana');
    expect((await app.startRecording(null)).recording_item).toBe('demo-01');
    await app.stopRecording();
    await held.release();
  } finally {
    await app.close();
  }
});

export const crashPointsGroup = hostileGroup<null>({
  surface: 'crash points',
  area: 'session lock races, kills mid-write, full and read-only disks, refusals that change nothing',
  setup: () => null,
  cases,
});
