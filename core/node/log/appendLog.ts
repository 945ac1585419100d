import { readFile } from 'node:fs/promises';
import { readJsonlBytes, type JsonlLineReader, type JsonlReading } from '../../common/io/jsonlLog';
import { describeFsError, DurableWriteError, nodeDurableFs, writeFully, type DurableFile, type DurableFs } from '../fs/durableFile';
import { ProjectPathError } from '../fs/resolveInside';
import { say } from '../../common/refusal/refusalMessage';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** A log is UTF-8 as written: a malformed byte is named at its line, never read as U+FFFD. */
export const strictUtf8 = (bytes: Uint8Array): string => fatalUtf8.decode(bytes);

/** A torn tail found on opening a log for appending: cut from the log, its bytes kept in `tornFile`. */
export interface TornTail {
  line: number;
  bytes: number;
  /** absolute path of the copy of the torn bytes: `<log>.line-<n>.<ms>.torn` */
  tornFile: string;
}

/** Reads a log's records from its bytes by the one torn-tail rule (readJsonlBytes), each line by `readLine`. */
export function readJsonlLog<E>(
  bytes: Uint8Array,
  readLine: JsonlLineReader<E>,
  badUtf8: (line: number, problem: string) => Error,
): JsonlReading<E> {
  return readJsonlBytes(bytes, strictUtf8, readLine, badUtf8);
}

/** A log's bytes, read without changing it; null when there is no file. */
export async function readLogBytes(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * THE append-only JSONL log of Aloud (a session's events, a room's, an adjudicator's): every append is one write of
 * whole lines followed by fsync, so each append is one commit point; a failed append is cut back, so the log never
 * keeps half a line it knows about. Opening repairs what a crash left by the one torn-tail rule: a torn tail is copied
 * to `<log>.line-<n>.<ms>.torn` and cut away, and a last record missing only its newline gets it. It keeps no queue:
 * its one owner appends one at a time (a session's queue, a room host's).
 */
export class AppendLog {
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: DurableFile,
    private size: number,
  ) {}

  /**
   * Opens the log for appending (`create`: 'new' refuses a file that exists, 'any' creates it when missing) and reads
   * its records with `read`. What `read` throws (the log's own error naming a line) leaves the file as it was.
   */
  static async open<E>(
    file: string,
    read: (bytes: Buffer) => JsonlReading<E>,
    options: { fs?: DurableFs; now?: () => Date; create?: 'new' | 'any' } = {},
  ): Promise<{ log: AppendLog; records: E[]; torn: TornTail | null }> {
    const fs = options.fs ?? nodeDurableFs;
    const now = options.now ?? (() => new Date());
    let handle: DurableFile;
    try {
      handle = await fs.open(file, options.create === 'new' ? 'wx+' : 'a+');
    } catch (e) {
      if (e instanceof ProjectPathError) throw e;
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw e;
      throw new DurableWriteError(say('refusal.storage.cannotOpen', { file, text: describeFsError(e).say }), file, describeFsError(e).code);
    }
    const bytes = await readAll(handle).catch(async (e: unknown) => {
      await handle.close().catch(() => undefined);
      throw new DurableWriteError(
        say('refusal.storage.cannotRepair', { file, text: describeFsError(e).say }),
        file,
        describeFsError(e).code,
      );
    });
    let reading: JsonlReading<E>;
    try {
      reading = read(bytes);
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw e;
    }
    try {
      let goodSize = bytes.length;
      let torn: TornTail | null = null;
      if (reading.torn) {
        goodSize = bytes.lastIndexOf(0x0a) + 1;
        const tornBytes = bytes.subarray(goodSize);
        const tornFile = `${file}.line-${reading.torn.line}.${now().getTime()}.torn`;
        await keepTornBytes(fs, tornFile, tornBytes);
        await handle.truncate(goodSize);
        await handle.sync();
        torn = { line: reading.torn.line, bytes: tornBytes.length, tornFile };
      } else if (reading.missingFinalNewline) {
        await writeFully(handle, Buffer.from('\n'), bytes.length);
        await handle.sync();
        goodSize = bytes.length + 1;
      }
      return { log: new AppendLog(file, handle, goodSize), records: reading.records, torn };
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw new DurableWriteError(
        say('refusal.storage.cannotRepair', { file, text: describeFsError(e).say }),
        file,
        describeFsError(e).code,
      );
    }
  }

  /**
   * Appends whole lines (each without its newline) as one write and one fsync: all of them or none are kept.
   * `kept` says, in the error, what the log still holds (e.g. "events up to seq 12 are kept").
   */
  async append(lines: readonly string[], kept: () => string): Promise<void> {
    if (this.closed) throw new Error(`${this.file}: the log is closed`);
    const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
    try {
      await writeFully(this.handle, bytes, this.size);
      await this.handle.sync();
    } catch (e) {
      await this.handle.truncate(this.size).catch(() => undefined);
      await this.handle.sync().catch(() => undefined);
      const { code, say: text } = describeFsError(e);
      // what the log still holds is the caller's English
      throw new DurableWriteError(say('refusal.storage.cannotWrite', { file: this.file, text, kept: kept() }), this.file, code);
    }
    this.size += bytes.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}

async function readAll(handle: DurableFile): Promise<Buffer> {
  const { size } = await handle.stat();
  const into = Buffer.alloc(size);
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return into;
}

async function keepTornBytes(fs: DurableFs, tornFile: string, bytes: Uint8Array): Promise<void> {
  const copy = await fs.open(tornFile, 'wx+');
  try {
    await writeFully(copy, bytes, 0);
    await copy.sync();
  } finally {
    await copy.close();
  }
}
