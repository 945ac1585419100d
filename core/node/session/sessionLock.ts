import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { describeFsError } from './sessionFs';

/** Contents of sessions/<annotator>/.lock. */
export interface LockOwner {
  pid: number;
  host: string;
  /** ISO 8601 */
  started_at: string;
}

/** The session is already open for writing by a live process (or one on another host). */
export class SessionLockedError extends Error {
  override name = 'SessionLockedError';
  constructor(
    message: string,
    readonly lockFile: string,
    readonly owner: LockOwner | null,
  ) {
    super(message);
  }
}

export interface HeldSessionLock {
  file: string;
  owner: LockOwner;
  /** the dead process whose lock was taken over, when there was one */
  tookOverFrom: LockOwner | null;
  release(): Promise<void>;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
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
  for (let attempt = 0; attempt < 3; attempt++) {
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
      throw new SessionLockedError(`${held} ${who} (another computer); close Aloud there, or delete ${file} if it is no longer running`, file, existing);
    }
    if (processIsAlive(existing.pid)) {
      throw new SessionLockedError(`${held} ${who}; close that Aloud window or command first`, file, existing);
    }
    // Stale: its process is gone. Take it over atomically: rename it to a name only we use (one of several racing
    // processes wins), then check that what we moved is the stale lock we read. If it is a fresh lock that another
    // process took meanwhile, put it back with link(), which never replaces a lock created since.
    const moved = `${file}.stale-${owner.pid}-${randomBytes(6).toString('hex')}`;
    const won = await rename(file, moved).then(() => true, () => false);
    if (won) {
      const movedText = await readFile(moved, 'utf8').catch(() => null);
      if (movedText === existingText) tookOverFrom = existing;
      else await link(moved, file).catch(() => undefined);
      await unlink(moved).catch(() => undefined);
    }
  }
  throw new SessionLockedError(`${options.sessionLabel}: could not take the lock ${file}; another process keeps taking it`, file, null);
}

async function releaseLock(file: string, ownText: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current === ownText) await unlink(file).catch(() => undefined);
}
