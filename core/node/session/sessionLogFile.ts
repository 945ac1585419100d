import { readFile } from 'node:fs/promises';
import { ProjectPathError } from '../fs/resolveInside';
import { ProjectError } from '../project/projectError';
import {
  EVENT_VERSIONS,
  type SessionEvent,
  type SessionEventData,
  type SessionEventOf,
  type SessionEventType,
} from '../../common/session/sessionEvents';
import { formatEventLine, parseSessionLogBytes, type TornLine, type UpcasterRegistry } from '../../common/session/sessionLog';
import { describeFsError, nodeSessionFs, SessionWriteError, writeFully, type DurableFile, type SessionFs } from './sessionFs';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** The log is UTF-8 as written: a malformed byte is named at its line, never read as U+FFFD. */
const strictUtf8 = (bytes: Uint8Array): string => fatalUtf8.decode(bytes);

/** A torn last line found on opening the log for writing: cut from the log, its bytes kept in `tornFile`. */
export interface TornLineReport {
  line: number;
  bytes: number;
  /** absolute path of the copy of the torn bytes */
  tornFile: string;
}

/** Reads events.jsonl without changing it (for `session show` and exports). A missing file is an empty log. */
export async function readSessionLog(
  file: string,
  upcasters?: UpcasterRegistry,
): Promise<{ events: SessionEvent[]; torn: TornLine | null }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], torn: null };
    if ((e as NodeJS.ErrnoException).code === 'EISDIR')
      throw new ProjectError(`${file}: is a folder, not a session log; move it out of the project (the session's events are a file)`);
    throw new SessionWriteError(`cannot read ${file}: ${describeFsError(e).text}`, file, describeFsError(e).code);
  }
  const { events, torn } = parseSessionLogBytes(bytes, file, strictUtf8, upcasters);
  return { events, torn };
}

/**
 * The append-only writer of events.jsonl. Every append is one write of whole lines followed by fsync, so each
 * event is a commit point; a failed append is cut back so the log never keeps half a line it knows about.
 */
export class SessionLogWriter {
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: DurableFile,
    private size: number,
    private lastSeq: number,
    private readonly now: () => Date,
  ) {}

  /**
   * Opens (creating) the log for appending. A torn last line is copied to `events.jsonl.line-N.<time>.torn`
   * and cut away; a complete last event missing only its newline gets it. Any other corruption throws
   * SessionLogError naming the line, and the file is left as it was.
   */
  static async open(
    file: string,
    options: { fs?: SessionFs; now?: () => Date; upcasters?: UpcasterRegistry } = {},
  ): Promise<{ writer: SessionLogWriter; events: SessionEvent[]; torn: TornLineReport | null }> {
    const fs = options.fs ?? nodeSessionFs;
    const now = options.now ?? (() => new Date());
    let handle: DurableFile;
    try {
      handle = await fs.open(file, 'a+');
    } catch (e) {
      if (e instanceof ProjectPathError) throw e;
      throw new SessionWriteError(`cannot open ${file} for writing: ${describeFsError(e).text}`, file, describeFsError(e).code);
    }
    try {
      const { size } = await handle.stat();
      const bytes = Buffer.alloc(size);
      if (size > 0) await readFully(handle, bytes);
      const parsed = parseSessionLogBytes(bytes, file, strictUtf8, options.upcasters);
      let goodSize = size;
      let torn: TornLineReport | null = null;
      if (parsed.torn) {
        goodSize = bytes.lastIndexOf(0x0a) + 1;
        const tornBytes = bytes.subarray(goodSize);
        const tornFile = `${file}.line-${parsed.torn.line}.${now().getTime()}.torn`;
        await keepTornBytes(fs, tornFile, tornBytes);
        await handle.truncate(goodSize);
        await handle.sync();
        torn = { line: parsed.torn.line, bytes: tornBytes.length, tornFile };
      } else if (parsed.missingFinalNewline) {
        await writeFully(handle, Buffer.from('\n'), size);
        await handle.sync();
        goodSize = size + 1;
      }
      const lastSeq = parsed.events.length === 0 ? 0 : parsed.events[parsed.events.length - 1]!.seq;
      return { writer: new SessionLogWriter(file, handle, goodSize, lastSeq, now), events: parsed.events, torn };
    } catch (e) {
      await handle.close().catch(() => undefined);
      if (e instanceof Error && e.name === 'SessionLogError') throw e;
      if (e instanceof SessionWriteError) throw e;
      throw new SessionWriteError(
        `cannot repair ${file}: ${describeFsError(e).text}; the log was left as it was`,
        file,
        describeFsError(e).code,
      );
    }
  }

  get seq(): number {
    return this.lastSeq;
  }

  /** Appends one event at the current version and fsyncs it. */
  async append<T extends SessionEventType>(type: T, data: SessionEventData[T]): Promise<SessionEventOf<T>> {
    const [event] = await this.appendAll([{ type, data } as { type: SessionEventType; data: SessionEventData[SessionEventType] }]);
    return event as SessionEventOf<T>;
  }

  /** Appends events as one write and one fsync (one commit point), all at `ts` (default: now); all of them or none are kept. */
  appendAll(
    entries: ReadonlyArray<{ type: SessionEventType; data: SessionEventData[SessionEventType] }>,
    ts?: string,
  ): Promise<SessionEvent[]> {
    // no queue here: the log's one owner (the session's store, under the session's queue) writes one append at a time
    if (this.closed) return Promise.reject(new Error(`${this.file}: session log is closed`));
    return this.write(entries, ts ?? this.now().toISOString());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }

  private async write(
    entries: ReadonlyArray<{ type: SessionEventType; data: SessionEventData[SessionEventType] }>,
    ts: string,
  ): Promise<SessionEvent[]> {
    const events = entries.map(
      (entry, i) => ({ v: EVENT_VERSIONS[entry.type], seq: this.lastSeq + 1 + i, ts, type: entry.type, data: entry.data }) as SessionEvent,
    );
    const bytes = Buffer.from(events.map((event) => `${formatEventLine(event)}\n`).join(''), 'utf8');
    try {
      await writeFully(this.handle, bytes, this.size);
      await this.handle.sync();
    } catch (e) {
      await this.handle.truncate(this.size).catch(() => undefined);
      await this.handle.sync().catch(() => undefined);
      const { code, text } = describeFsError(e);
      throw new SessionWriteError(`cannot write to ${this.file}: ${text}; events up to seq ${this.lastSeq} are kept`, this.file, code);
    }
    this.size += bytes.length;
    this.lastSeq += events.length;
    return events;
  }
}

async function readFully(handle: DurableFile, into: Buffer): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
}

async function keepTornBytes(fs: SessionFs, tornFile: string, bytes: Uint8Array): Promise<void> {
  const copy = await fs.open(tornFile, 'wx+');
  try {
    await writeFully(copy, bytes, 0);
    await copy.sync();
  } finally {
    await copy.close();
  }
}
