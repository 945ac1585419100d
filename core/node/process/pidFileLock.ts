import { open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { processIsAlive } from './processAlive';

/** Contents of a lock file: who holds it. */
export interface LockOwner {
  pid: number;
  host: string;
  /** ISO 8601; empty for a lock written by an older version as a bare pid */
  started_at: string;
}

/** Why a lock was not taken: its owner is running here, or on another computer, or the file cannot be read. */
export type LockRefusal =
  | { reason: 'alive'; owner: LockOwner }
  | { reason: 'other-host'; owner: LockOwner }
  | { reason: 'unreadable'; owner: null }
  | { reason: 'contended'; owner: null };

export interface HeldPidLock {
  file: string;
  owner: LockOwner;
  /** the dead process whose lock was taken over, when there was one */
  tookOverFrom: LockOwner | null;
  /** Removes the lock if it is still ours (a lock someone else took over is left to them). */
  release(): Promise<void>;
}

export interface PidLockOptions {
  pid?: number;
  host?: string;
  now?: () => Date;
}

/**
 * Reads a lock file's owner: the JSON {pid, host, started_at}, or a bare pid (room and model locks of older
 * versions, always of this host); null when it is neither.
 */
export function parseLockOwner(text: string, thisHost = hostname()): LockOwner | null {
  if (/^\s*\d+\s*$/u.test(text)) {
    const pid = Number(text);
    return pid > 0 ? { pid, host: thisHost, started_at: '' } : null;
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isInteger(value.pid) && typeof value.host === 'string' && typeof value.started_at === 'string') {
      return { pid: value.pid!, host: value.host, started_at: value.started_at };
    }
  } catch {
    // not JSON: the caller reports the lock as unreadable
  }
  return null;
}

const MAX_ATTEMPTS = 50;

/**
 * Takes a lock file created exclusively, holding the owner as JSON. A lock left by a dead process on this host is
 * taken over (and reported in `tookOverFrom`); a live owner, another host's lock or an unreadable lock is a refusal
 * the caller puts in words. Errors other than "exists" (no such folder, no permission) are thrown as they are.
 */
export async function tryAcquirePidLock(file: string, options: PidLockOptions = {}): Promise<HeldPidLock | LockRefusal> {
  const owner: LockOwner = {
    pid: options.pid ?? process.pid,
    host: options.host ?? hostname(),
    started_at: (options.now ?? (() => new Date()))().toISOString(),
  };
  const text = `${JSON.stringify(owner)}\n`;
  let tookOverFrom: LockOwner | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { file, owner, tookOverFrom, release: () => releaseLock(file, text) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const existingText = await readFile(file, 'utf8').catch(() => null);
    if (existingText === null) continue; // released between our open and read: try again
    const existing = parseLockOwner(existingText, owner.host);
    if (existing === null) return { reason: 'unreadable', owner: null };
    if (existing.host !== owner.host) return { reason: 'other-host', owner: existing };
    if (processIsAlive(existing.pid)) return { reason: 'alive', owner: existing };
    // Stale: its process is gone. Only the holder of the takeover mutex (created exclusively) may remove it, and only
    // while it is still the stale lock it read: no one else ever removes a lock, and every new lock is created
    // exclusively, so a fresh lock is never removed and exactly one process wins.
    if (await removeStaleLock(file, existingText, text, owner)) tookOverFrom = existing;
    else await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8));
  }
  return { reason: 'contended', owner: null };
}

/** Whether tryAcquirePidLock took the lock. */
export function isHeld(result: HeldPidLock | LockRefusal): result is HeldPidLock {
  return 'release' in result;
}

/** Removes the stale lock under the takeover mutex `<lock>.takeover`; false when another process holds the mutex. */
async function removeStaleLock(file: string, staleText: string, ownText: string, owner: LockOwner): Promise<boolean> {
  const mutex = `${file}.takeover`;
  let handle;
  try {
    handle = await open(mutex, 'wx');
  } catch {
    // A takeover whose process died midway leaves its mutex: clear it so the next attempt can go on.
    const holder = parseLockOwner((await readFile(mutex, 'utf8').catch(() => null)) ?? '', owner.host);
    if (holder && holder.host === owner.host && !processIsAlive(holder.pid)) await unlink(mutex).catch(() => undefined);
    return false;
  }
  try {
    await handle.writeFile(ownText);
    await handle.close();
    const current = await readFile(file, 'utf8').catch(() => null);
    if (current !== staleText) return false;
    await unlink(file);
    return true;
  } finally {
    await unlink(mutex).catch(() => undefined);
  }
}

async function releaseLock(file: string, ownText: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current === ownText) await unlink(file).catch(() => undefined);
}
