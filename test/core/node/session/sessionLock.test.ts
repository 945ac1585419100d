import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireSessionLock, SessionLockedError } from '../../../../core/node/session/sessionLock';

async function lockFile(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'aloud-lock-')), '.lock');
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('session lock', () => {
  it('writes pid, host and start time, refuses a second writer while held, and is free again after release', async () => {
    const file = await lockFile();
    const lock = await acquireSessionLock(file, { sessionLabel: 'the session of "ana"' });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ pid: process.pid, host: hostname(), started_at: lock.owner.started_at });
    expect(lock.tookOverFrom).toBeNull();
    const refused = await acquireSessionLock(file, { sessionLabel: 'the session of "ana"' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SessionLockedError);
    expect((refused as Error).message).toBe(
      `the session of "ana" is already open for writing by process ${process.pid} on ${hostname()} since ${lock.owner.started_at}; close that Aloud window or command first`,
    );
    await lock.release();
    await expect(stat(file)).rejects.toThrow();
    const again = await acquireSessionLock(file, { sessionLabel: 'x' });
    await again.release();
  });

  it('takes over a stale lock of a dead process on this host and reports whose it was', async () => {
    const file = await lockFile();
    const stale = { pid: deadPid(), host: hostname(), started_at: '2024-05-01T09:00:00.000Z' };
    await writeFile(file, JSON.stringify(stale));
    const lock = await acquireSessionLock(file, { sessionLabel: 'x' });
    expect(lock.tookOverFrom).toEqual(stale);
    expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it("refuses another host's lock and an unreadable lock, saying what to do", async () => {
    const file = await lockFile();
    await writeFile(file, JSON.stringify({ pid: 1, host: 'other-laptop', started_at: '2024-05-01T09:00:00.000Z' }));
    await expect(acquireSessionLock(file, { sessionLabel: 'S' })).rejects.toThrow(
      `S is already open for writing by process 1 on other-laptop since 2024-05-01T09:00:00.000Z (another computer); close Aloud there, or delete ${file} if it is no longer running`,
    );
    await writeFile(file, 'garbage');
    await expect(acquireSessionLock(file, { sessionLabel: 'S' })).rejects.toThrow(
      `S is already open for writing: the lock ${file} is unreadable`,
    );
  });
});
