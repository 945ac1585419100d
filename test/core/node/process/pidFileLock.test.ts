import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeld, parseLockOwner, tryAcquirePidLock } from '../../../../core/node/process/pidFileLock';
import { processIsAlive } from '../../../../core/node/process/processAlive';

async function lockFile(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'aloud-pidlock-')), 'x.lock');
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('processIsAlive', () => {
  it('is true for this process and false for one that has exited', () => {
    expect(processIsAlive(process.pid)).toBe(true);
    expect(processIsAlive(deadPid())).toBe(false);
  });
});

describe('parseLockOwner', () => {
  it('reads the JSON owner, a bare pid of an older version as this host, and nothing else', () => {
    expect(parseLockOwner('{"pid":5,"host":"h","started_at":"t"}\n')).toEqual({ pid: 5, host: 'h', started_at: 't' });
    expect(parseLockOwner('1234', 'here')).toEqual({ pid: 1234, host: 'here', started_at: '' });
    for (const bad of ['', '0', 'abc', '{"pid":"5","host":"h","started_at":"t"}', '{"pid":5}']) expect(parseLockOwner(bad)).toBeNull();
  });
});

describe('pid-file lock', () => {
  it('is created with this owner, refuses while held (alive), and is free after release', async () => {
    const file = await lockFile();
    const first = await tryAcquirePidLock(file);
    if (!isHeld(first)) throw new Error('expected the lock');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ pid: process.pid, host: hostname(), started_at: first.owner.started_at });
    expect(await tryAcquirePidLock(file)).toEqual({ reason: 'alive', owner: first.owner });
    await first.release();
    await expect(stat(file)).rejects.toThrow();
    const again = await tryAcquirePidLock(file);
    expect(isHeld(again)).toBe(true);
  });

  it("takes over a dead process's lock (JSON or an older bare pid) and says whose it was", async () => {
    const pid = deadPid();
    for (const [text, owner] of [
      [JSON.stringify({ pid, host: hostname(), started_at: 'then' }), { pid, host: hostname(), started_at: 'then' }],
      [String(pid), { pid, host: hostname(), started_at: '' }],
    ] as const) {
      const file = await lockFile();
      await writeFile(file, text);
      const taken = await tryAcquirePidLock(file);
      if (!isHeld(taken)) throw new Error(`expected to take over ${text}`);
      expect(taken.tookOverFrom).toEqual(owner);
      expect(JSON.parse(await readFile(file, 'utf8')).pid).toBe(process.pid);
      expect(await readdir(path.dirname(file))).toEqual(['x.lock']);
    }
  });

  it("refuses another computer's lock and an unreadable lock, and leaves both as they are", async () => {
    const remote = JSON.stringify({ pid: deadPid(), host: `${hostname()}-elsewhere`, started_at: 't' });
    const file = await lockFile();
    await writeFile(file, remote);
    expect(await tryAcquirePidLock(file)).toMatchObject({ reason: 'other-host', owner: { host: `${hostname()}-elsewhere` } });
    expect(await readFile(file, 'utf8')).toBe(remote);
    await writeFile(file, '');
    expect(await tryAcquirePidLock(file)).toEqual({ reason: 'unreadable', owner: null });
    expect(await readFile(file, 'utf8')).toBe('');
  });

  it('a release after someone else took the lock over leaves their lock in place', async () => {
    const file = await lockFile();
    const mine = await tryAcquirePidLock(file, { pid: deadPid() });
    if (!isHeld(mine)) throw new Error('expected the lock');
    const theirs = await tryAcquirePidLock(file);
    if (!isHeld(theirs)) throw new Error('expected the takeover');
    await mine.release();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(theirs.owner);
  });

  it('of many racers for one stale lock exactly one wins', async () => {
    const file = await lockFile();
    await writeFile(file, String(deadPid()));
    const results = await Promise.all(Array.from({ length: 8 }, () => tryAcquirePidLock(file)));
    expect(results.filter(isHeld)).toHaveLength(1);
  });

  it('throws what the file system says when the folder does not exist', async () => {
    await expect(tryAcquirePidLock(path.join(await lockFile(), 'missing', 'x.lock'))).rejects.toThrow(/ENOENT/);
  });
});
