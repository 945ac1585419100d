import { openNoFollow } from './resolveInside';
import { Refusal, type RefusalOf } from '../../common/refusal/refusal';
import { englishRefusal, say, type RefusalMessage, type RefusalMessageId, type RefusalValue } from '../../common/refusal/refusalMessage';

/** The part of a FileHandle the logs and WAVs are written through; tests wrap it to inject ENOSPC or EROFS. */
export interface DurableFile {
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

/** How a log or a WAV writer opens the files it writes (the seam for fault injection). */
export interface DurableFs {
  open(path: string, flags: 'r' | 'r+' | 'w+' | 'wx+' | 'a+'): Promise<DurableFile>;
}

/** Project files written are never opened through a symbolic link (O_NOFOLLOW), and never written through a hard link. */
export const nodeDurableFs: DurableFs = {
  open: (path, flags) => openNoFollow(path, flags),
};

/** A failed write to a log or a WAV; the message names the file and says what was kept. */
export class DurableWriteError extends Error implements RefusalOf {
  override name = 'DurableWriteError';
  /** what to say to a person, from the catalog (absent: the English message is all there is) */
  readonly say?: RefusalMessage;
  constructor(
    message: string | RefusalMessage,
    readonly file: string,
    /** the file system's error code (ENOSPC, EROFS, …) */
    readonly code: string | null,
  ) {
    super(typeof message === 'string' ? message : englishRefusal(message));
    if (typeof message !== 'string') this.say = message;
  }

  toRefusal(): Refusal {
    return new Refusal('storage', this.message, this.say);
  }
}

const CODE_SAY: Record<string, RefusalMessageId> = {
  ENOSPC: 'refusal.fs.ENOSPC',
  EDQUOT: 'refusal.fs.EDQUOT',
  EROFS: 'refusal.fs.EROFS',
  EACCES: 'refusal.fs.EACCES',
  EPERM: 'refusal.fs.EPERM',
  EIO: 'refusal.fs.EIO',
};

/**
 * "no space left on the disk (ENOSPC)" for an fs error, or its message; `say` is the same as a refusal's value (a
 * catalog message for the codes we name, else the system's own words).
 */
export function describeFsError(e: unknown): { code: string | null; text: string; say: RefusalValue } {
  const code = (e as NodeJS.ErrnoException | null)?.code ?? null;
  const known = code !== null ? CODE_SAY[code] : undefined;
  if (code !== null && known) {
    const message = say(known, { code });
    return { code, text: englishRefusal(message), say: message };
  }
  const text = code !== null ? `${(e as Error).message}` : String((e as Error | null)?.message ?? e);
  return { code, text, say: text };
}

/** Writes all of `bytes` at `position`, looping over short writes. */
export async function writeFully(file: DurableFile, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
    if (bytesWritten <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
    done += bytesWritten;
  }
}
