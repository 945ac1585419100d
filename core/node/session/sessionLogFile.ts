import { readFile } from 'node:fs/promises';
import { ProjectError } from '../fs/projectError';
import {
  EVENT_VERSIONS,
  type SessionEvent,
  type SessionEventData,
  type SessionEventOf,
  type SessionEventType,
} from '../../common/session/sessionEvents';
import type { JsonlReading, TornLine } from '../../common/io/jsonlLog';
import { formatEventLine, parseSessionLogBytes, type UpcasterRegistry } from '../../common/session/sessionLog';
import { AppendLog, strictUtf8, type TornTail } from '../log/appendLog';
import { describeFsError, DurableWriteError, type DurableFs } from '../fs/durableFile';
import { say } from '../../common/refusal/refusalMessage';
import { checkEventData } from '../../common/session/sessionEventSchema';
import {
  extendOverAppended,
  extendOverReading,
  logFileIdentity,
  noteOf,
  readCheckedPrefix,
  verifyCheckedPrefix,
  writeCheckedPrefix,
  type VerifiedPrefix,
} from './checkedLogPrefix';

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
    if ((e as NodeJS.ErrnoException).code === 'EISDIR') throw new ProjectError(say('refusal.session.isAFolderNotA', { file }));
    throw new DurableWriteError(say('refusal.storage.cannotRead', { file, text: describeFsError(e).say }), file, describeFsError(e).code);
  }
  const { events, torn } = parseSessionLogBytes(bytes, file, strictUtf8, upcasters);
  return { events, torn };
}

/**
 * The writer of events.jsonl: the session's numbering (seq) and event lines over the one append-only log (AppendLog),
 * so each append is one write and one fsync, one commit point; a failed append is cut back.
 */
export class SessionLogWriter {
  private constructor(
    private readonly log: AppendLog,
    private lastSeq: number,
    private readonly now: () => Date,
    /** the prefix of the log known checked (the note beside it), extended by every append; null: no note is kept */
    private checked: { prefix: VerifiedPrefix; file: string; behind: boolean } | null,
  ) {}

  get file(): string {
    return this.log.file;
  }

  /**
   * Opens (creating) the log for appending, repairing its tail by the logs' one rule (AppendLog): a torn last line is
   * copied to `events.jsonl.line-N.<time>.torn` and cut away; a complete last event missing only its newline gets it.
   * Any other corruption throws SessionLogError naming the line, and the file is left as it was.
   */
  static async open(
    file: string,
    options: { fs?: DurableFs; now?: () => Date; upcasters?: UpcasterRegistry } = {},
  ): Promise<{ writer: SessionLogWriter; events: SessionEvent[]; torn: TornTail | null }> {
    const now = options.now ?? (() => new Date());
    // what an earlier open found checked (a derived note, trusted only when it fits these bytes); not with other upcasters
    const trustNote = options.upcasters === undefined;
    const [note, identity] = trustNote ? await Promise.all([readCheckedPrefix(file), logFileIdentity(file)]) : [null, null];
    let checked: { prefix: VerifiedPrefix; file: string; behind: boolean } | null = null;
    const { log, records, torn } = await AppendLog.open(
      file,
      (bytes) => {
        const prefix = verifyCheckedPrefix(bytes, note, identity);
        const reading = sessionLogReading(bytes, file, options.upcasters, prefix.lines);
        // a last line missing its newline gets one now: the bytes after the prefix are no longer those read
        if (trustNote && identity !== null && !reading.missingFinalNewline)
          checked = { prefix, file: identity, behind: extendOverReading(bytes, prefix) };
        return reading;
      },
      { ...(options.fs ? { fs: options.fs } : {}), now },
    );
    const writer = new SessionLogWriter(log, records.length === 0 ? 0 : records[records.length - 1]!.seq, now, checked);
    await writer.writeNote();
    return { writer, events: records, torn };
  }

  get seq(): number {
    return this.lastSeq;
  }

  /** Appends one event at the current version and fsyncs it. */
  async append<T extends SessionEventType>(type: T, data: SessionEventData[T]): Promise<SessionEventOf<T>> {
    const [event] = await this.appendAll([{ type, data } as { type: SessionEventType; data: SessionEventData[SessionEventType] }]);
    return event as SessionEventOf<T>;
  }

  /**
   * Appends events as one write and one fsync (one commit point), all at `ts` (default: now); all of them or none are
   * kept. `dataChecked`: the caller has run checkEventData on every entry (a store's SessionFold.checkAppend), so the
   * checked-prefix note extends over them without checking them twice.
   */
  async appendAll(
    entries: ReadonlyArray<{ type: SessionEventType; data: SessionEventData[SessionEventType] }>,
    ts: string = this.now().toISOString(),
    dataChecked = false,
  ): Promise<SessionEvent[]> {
    const events = entries.map(
      (entry, i) => ({ v: EVENT_VERSIONS[entry.type], seq: this.lastSeq + 1 + i, ts, type: entry.type, data: entry.data }) as SessionEvent,
    );
    const lines = events.map(formatEventLine);
    await this.log.append(lines, () => `events up to seq ${this.lastSeq} are kept`);
    this.lastSeq += events.length;
    if (this.checked) {
      // the note extends over these lines only when each passes the check a reading would make
      if (dataChecked || events.every((event) => checkEventData(event.type, event.data) === null)) {
        extendOverAppended(this.checked.prefix, Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8'));
        this.checked.behind = true;
      } else this.checked = null;
    }
    return events;
  }

  /** Writes the note of the checked prefix when it is behind the log (never an error: it is derived). */
  private async writeNote(): Promise<void> {
    if (!this.checked?.behind || this.checked.prefix.bytes === 0) return;
    await writeCheckedPrefix(this.log.file, noteOf(this.checked.prefix, this.checked.file));
    this.checked.behind = false;
  }

  async close(): Promise<void> {
    await this.writeNote();
    return this.log.close();
  }
}

/** The events of a session log's bytes (parseSessionLogBytes: the logs' torn-tail rule, strict UTF-8, upcasting), as a JSONL reading. */
function sessionLogReading(bytes: Uint8Array, file: string, upcasters?: UpcasterRegistry, checkedLines = 0): JsonlReading<SessionEvent> {
  const { events, torn, missingFinalNewline } = parseSessionLogBytes(bytes, file, strictUtf8, upcasters, checkedLines);
  return { records: events, torn, missingFinalNewline };
}
