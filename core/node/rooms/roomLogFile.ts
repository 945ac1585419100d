import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { normalizeRoomCode } from '../../common/rooms/roomCode';
import {
  isRoomEventType,
  ROOM_EVENT_VERSIONS,
  type RoomEvent,
  type RoomEventData,
  type RoomEventType,
} from '../../common/rooms/roomEvents';
import { RoomLogError } from '../../common/rooms/roomFold';
import { syncFolder } from '../fs/atomicFile';
import type { JsonlReading } from '../../common/io/jsonlLog';
import { AppendLog, readJsonlLog, readLogBytes } from '../log/appendLog';
import { isHeld, tryAcquirePidLock } from '../process/pidFileLock';
import { say } from '../../common/refusal/refusalMessage';

/** rooms/<code>/ inside the project; the code is checked first, so it can never be a path. */
export function roomPaths(projectDir: string, code: string): { dir: string; events: string; lock: string } {
  const normal = normalizeRoomCode(code);
  if (normal === null) throw new RoomLogError(say('refusal.rooms.isNotARoomCode', { code, value: '23456789ABCDEFGHJKMNPQRSTUVWXYZ' }));
  const dir = path.join(path.resolve(projectDir), 'rooms', normal);
  return { dir, events: path.join(dir, 'events.jsonl'), lock: path.join(dir, '.lock') };
}

/** Checks one parsed line of a log: an event of its kind at a version this Aloud knows (throws RoomLogError naming the line). */
export type RoomEventCheck<E> = (value: unknown, file: string, line: number) => E;

export function checkRoomEvent(value: unknown, file: string, line: number): RoomEvent {
  const e = value as Partial<RoomEvent> | null;
  if (
    typeof e !== 'object' ||
    e === null ||
    !isRoomEventType(e.type) ||
    typeof e.seq !== 'number' ||
    typeof e.ts !== 'string' ||
    typeof e.data !== 'object' ||
    e.data === null
  ) {
    throw new RoomLogError(say('refusal.rooms.notARoomEvent', { file, line }));
  }
  if (e.v !== ROOM_EVENT_VERSIONS[e.type])
    throw new RoomLogError(say('refusal.rooms.versionIsNotKnownTo', { file, line, type: e.type, String: String(e.v) }));
  return e as RoomEvent;
}

/** A room's (or an adjudicator's) log records by the logs' one torn-tail rule (readJsonlLog), each line checked by `check`. */
export function roomLogReading<E>(bytes: Uint8Array, file: string, check: RoomEventCheck<E>): JsonlReading<E> {
  return readJsonlLog(
    bytes,
    (raw, line) => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        throw new RoomLogError(say('refusal.rooms.notJson', { file, line }));
      }
      return check(value, file, line);
    },
    (line, problem) => new RoomLogError(say('refusal.rooms.message', { file, line, problem })),
  );
}

/**
 * Reads a room log without changing it. Its last line, without its newline and not valid JSON, is a write cut by a
 * crash (the logs' one torn-tail rule): left out and reported; any other bad line throws (the log is an audit trail,
 * it is never silently skipped).
 */
export async function readRoomLog<E = RoomEvent>(
  file: string,
  check: RoomEventCheck<E> = checkRoomEvent as RoomEventCheck<E>,
): Promise<{ events: E[]; torn: { line: number; bytes: number } | null }> {
  const bytes = await readLogBytes(file);
  if (bytes === null) throw new RoomLogError(say('refusal.rooms.noRoomLogHere', { file }));
  const { records, torn } = roomLogReading(bytes, file, check);
  return { events: records, torn: torn ? { line: torn.line, bytes: bytes.length - (bytes.lastIndexOf(0x0a) + 1) } : null };
}

/** Appends a room's events over the one append-only log (AppendLog): each decision durable (fsynced) before the caller acts on it. */
export class RoomLogWriter<E extends object = RoomEvent> {
  private constructor(private readonly log: AppendLog) {}

  get file(): string {
    return this.log.file;
  }

  /** A new room: the folder must not exist yet (a code is never reused); `first` is its opening event. */
  static async create<E extends object>(projectDir: string, code: string, first: E): Promise<RoomLogWriter<E>> {
    const paths = roomPaths(projectDir, code);
    await mkdir(path.dirname(paths.dir), { recursive: true });
    try {
      await mkdir(paths.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST')
        throw new RoomLogError(say('refusal.rooms.aRoomWithCodeExists', { dir: paths.dir, code }));
      throw e;
    }
    const { log } = await AppendLog.open(paths.events, () => ({ records: [], torn: null, missingFinalNewline: false }), { create: 'new' });
    const writer = new RoomLogWriter<E>(log);
    await writer.append(first);
    await syncFolder(paths.dir);
    return writer;
  }

  /** An existing room after a restart: a torn tail is cut (kept beside the log as events.jsonl.line-<n>.<ms>.torn). */
  static async reopen<E extends object = RoomEvent>(
    file: string,
    check: RoomEventCheck<E> = checkRoomEvent as unknown as RoomEventCheck<E>,
  ): Promise<{ writer: RoomLogWriter<E>; events: E[]; repaired: boolean }> {
    await access(file).catch((e: NodeJS.ErrnoException) => {
      throw e.code === 'ENOENT' ? new RoomLogError(say('refusal.rooms.noRoomLogHere', { file })) : e;
    });
    const { log, records, torn } = await AppendLog.open(file, (bytes) => roomLogReading(bytes, file, check));
    return { writer: new RoomLogWriter<E>(log), events: records, repaired: torn !== null };
  }

  async append(event: E): Promise<void> {
    await this.appendAll([event]);
  }

  /** Appends the events of one decision with one write and one fsync: they become durable together. */
  async appendAll(events: readonly E[]): Promise<void> {
    await this.log.append(
      events.map((e) => JSON.stringify(e)),
      () => 'the events before are kept',
    );
  }

  close(): Promise<void> {
    return this.log.close();
  }
}

export function newRoomEvent<T extends RoomEventType>(seq: number, type: T, data: RoomEventData[T], now = new Date()): RoomEvent {
  return { v: ROOM_EVENT_VERSIONS[type], seq, ts: now.toISOString(), type, data } as RoomEvent;
}

/** An exclusive lock on a room folder: one host at a time writes its log. A lock left by a dead process is taken over. */
export async function lockRoom(lockFile: string): Promise<() => Promise<void>> {
  const result = await tryAcquirePidLock(lockFile);
  if (isHeld(result)) return result.release;
  switch (result.reason) {
    case 'alive':
      if (result.owner.pid === process.pid) throw new RoomLogError(say('refusal.rooms.theRoomIsOpenAlready', { lockFile }));
      throw new RoomLogError(say('refusal.rooms.theRoomIsOpenIn', { lockFile, pid: result.owner.pid }));
    case 'other-host':
      throw new RoomLogError(say('refusal.rooms.theRoomIsOpenOn', { lockFile, host: result.owner.host, pid: result.owner.pid }));
    case 'unreadable':
      throw new RoomLogError(say('refusal.rooms.theRoomLockIsUnreadable', { lockFile }));
    case 'contended':
      throw new RoomLogError(say('refusal.rooms.couldNotTakeTheRoom', { lockFile }));
  }
}
