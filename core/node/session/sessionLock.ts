import { type HeldPidLock, isHeld, type LockOwner, tryAcquirePidLock } from '../process/pidFileLock';
import { describeFsError } from '../fs/durableFile';
import { Refusal } from '../../common/refusal/refusal';
import { say, type RefusalMessage, type RefusalValue } from '../../common/refusal/refusalMessage';

export type { LockOwner };

/** The session is already open for writing by a live process (or one on another host). */
export class SessionLockedError extends Refusal {
  override name = 'SessionLockedError';
  constructor(
    message: string | RefusalMessage,
    readonly lockFile: string,
    readonly owner: LockOwner | null,
  ) {
    super('conflict', message);
  }
}

export type HeldSessionLock = HeldPidLock;

/**
 * Takes the write lock of one annotator's session: a lock file created exclusively. A lock left by a dead
 * process on this host is taken over (and reported in `tookOverFrom`); a live owner, another host's lock or an
 * unreadable lock refuses with a message saying who holds it and what to do.
 */
export async function acquireSessionLock(
  file: string,
  options: { sessionLabel: RefusalValue; pid?: number; host?: string; now?: () => Date } = { sessionLabel: file },
): Promise<HeldSessionLock> {
  let result;
  try {
    result = await tryAcquirePidLock(file, options);
  } catch (e) {
    throw new SessionLockedError(say('refusal.session.cannotCreateTheLock', { file, text: describeFsError(e).say }), file, null);
  }
  if (isHeld(result)) return result;
  const held = say('refusal.session.lock.held', { session: options.sessionLabel });
  switch (result.reason) {
    case 'unreadable':
      throw new SessionLockedError(say('refusal.session.theLockIsUnreadableIf', { held, file }), file, null);
    case 'contended':
      throw new SessionLockedError(say('refusal.session.couldNotTakeTheLock', { sessionLabel: options.sessionLabel, file }), file, null);
    case 'other-host':
    case 'alive': {
      const { owner } = result;
      const who = say('refusal.session.lock.heldBy', { pid: owner.pid, host: owner.host, startedAt: owner.started_at });
      if (result.reason === 'other-host') {
        throw new SessionLockedError(say('refusal.session.anotherComputerCloseAloudThere', { held, who, file }), file, owner);
      }
      throw new SessionLockedError(say('refusal.session.closeThatAloudWindowOr', { held, who }), file, owner);
    }
  }
}
