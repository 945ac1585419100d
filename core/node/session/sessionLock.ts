import { open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { processIsAlive } from '../process/processAlive';
import { describeFsError } from '../fs/durableFile';
import { Refusal } from '../../common/contract/refusal';

/** Contents of sessions/<annotator>/.lock. */
export interface LockOwner {
  pid: number;
  host: string;
  /** ISO 8601 */
  started_at: string;
}

/** The session is already open for writing by a live process (or one on another host). */
export class SessionLockedError extends Refusal {
  override name = 'SessionLockedError';
  constructor(
    message: string,
    readonly lockFile: string,
    readonly owner: LockOwner | null,
  ) {
    super('conflict', message);
  }
}

export interface HeldSessionLock {
  file: string;
  owner: LockOwner;
  /** the dead process whose lock was taken over, when there was one */
  tookOverFrom: LockOwner | null;
  release(): Promise<void>;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isInteger(value.pid) && typeof value.host === 'string' && typeof value.started_at === 'string') {
      return { pid: value.pid!, host: value.host, started_at: value.started_at };
    }
  } catch {
    // an unreadable lock is reported below as held by an unknown owner
  }
  return null;
}

/**
 * Takes the write lock of one annotator's session: a lock file created exclusively. A lock left by a dead
 * process on this host is taken over (and reported in `tookOverFrom`); a live owner, another host's lock or an
 * unreadable lock refuses with a message saying who holds it and what to do.
 */
export async function acquireSessionLock(
  file: string,
  options: { sessionLabel: string; pid?: number; host?: string; now?: () => Date } = { sessionLabel: file },
): Promise<HeldSessionLock> {
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
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new SessionLockedError(`cannot create the lock ${file}: ${describeFsError(e).text}`, file, null);
      }
    }
    const existingText = await readFile(file, 'utf8').catch(() => null);
    if (existingText === null) continue; // released between our open and read: try again
    const existing = parseOwner(existingText);
    const held = `${options.sessionLabel} is already open for writing`;
    if (existing === null) {
      throw new SessionLockedError(`${held}: the lock ${file} is unreadable; if no Aloud is running on it, delete that file`, file, null);
    }
    const who = `by process ${existing.pid} on ${existing.host} since ${existing.started_at}`;
    if (existing.host !== owner.host) {
      throw new SessionLockedError(
        `${held} ${who} (another computer); close Aloud there, or delete ${file} if it is no longer running`,
        file,
        existing,
      );
    }
    if (processIsAlive(existing.pid)) {
      throw new SessionLockedError(`${held} ${who}; close that Aloud window or command first`, file, existing);
    }
    // Stale: its process is gone. Only the holder of the takeover mutex (created exclusively) may remove it, and only
    // while it is still the stale lock it read: no one else ever removes a lock, and every new lock is created
    // exclusively, so a fresh lock is never removed and exactly one process wins.
    if (await removeStaleLock(file, existingText, text, owner)) tookOverFrom = existing;
    else await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8));
  }
  throw new SessionLockedError(`${options.sessionLabel}: could not take the lock ${file}; another process keeps taking it`, file, null);
}

const MAX_ATTEMPTS = 50;

/** Removes the stale lock under the takeover mutex `<lock>.takeover`; false when another process holds the mutex. */
async function removeStaleLock(file: string, staleText: string, ownText: string, owner: LockOwner): Promise<boolean> {
  const mutex = `${file}.takeover`;
  let handle;
  try {
    handle = await open(mutex, 'wx');
  } catch {
    // A takeover whose process died midway leaves its mutex: clear it so the next attempt can go on.
    const holder = parseOwner((await readFile(mutex, 'utf8').catch(() => null)) ?? '');
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
