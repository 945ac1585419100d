import { mkdir, open, readFile, truncate, type FileHandle } from 'node:fs/promises';
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
import { isHeld, tryAcquirePidLock } from '../process/pidFileLock';

/** rooms/<code>/ inside the project; the code is checked first, so it can never be a path. */
export function roomPaths(projectDir: string, code: string): { dir: string; events: string; lock: string } {
  const normal = normalizeRoomCode(code);
  if (normal === null) throw new RoomLogError(`"${code}" is not a room code (six characters from ${'23456789ABCDEFGHJKMNPQRSTUVWXYZ'})`);
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
    throw new RoomLogError(`${file}:${line}: not a room event`);
  }
  if (e.v !== ROOM_EVENT_VERSIONS[e.type])
    throw new RoomLogError(`${file}:${line}: ${e.type} version ${String(e.v)} is not known to this version of Aloud`);
  return e as RoomEvent;
}

/**
 * Reads a room log. A last line without its newline that does not parse is a write cut by a crash: it is left out
 * and reported; any other bad line throws (the log is an audit trail, it is never silently skipped).
 */
export async function readRoomLog<E = RoomEvent>(
  file: string,
  check: RoomEventCheck<E> = checkRoomEvent as RoomEventCheck<E>,
): Promise<{ events: E[]; torn: { line: number; bytes: number } | null }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new RoomLogError(`${file}: no room log here`);
    throw e;
  }
  const lines = text.split('\n');
  const last = lines.pop()!; // "" when the file ends with a newline
  const events: E[] = [];
  lines.forEach((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new RoomLogError(`${file}:${i + 1}: not JSON`);
    }
    events.push(check(value, file, i + 1));
  });
  let torn = null;
  if (last !== '') {
    try {
      events.push(check(JSON.parse(last), file, lines.length + 1));
    } catch {
      torn = { line: lines.length + 1, bytes: Buffer.byteLength(last) };
    }
  }
  return { events, torn };
}

/** Appends events, each made durable (fdatasync) before the caller acts on it: the log never misses a decision. */
export class RoomLogWriter<E extends object = RoomEvent> {
  private constructor(
    private readonly handle: FileHandle,
    readonly file: string,
  ) {}

  /** A new room: the folder must not exist yet (a code is never reused); `first` is its opening event. */
  static async create<E extends object>(projectDir: string, code: string, first: E): Promise<RoomLogWriter<E>> {
    const paths = roomPaths(projectDir, code);
    await mkdir(path.dirname(paths.dir), { recursive: true });
    try {
      await mkdir(paths.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new RoomLogError(`${paths.dir}: a room with code ${code} exists already`);
      throw e;
    }
    const handle = await open(paths.events, 'wx');
    const writer = new RoomLogWriter<E>(handle, paths.events);
    await writer.append(first);
    await syncFolder(paths.dir);
    return writer;
  }

  /** An existing room after a restart: a torn last line is cut (kept beside the log as events.jsonl.torn-<n>). */
  static async reopen<E extends object = RoomEvent>(
    file: string,
    check: RoomEventCheck<E> = checkRoomEvent as unknown as RoomEventCheck<E>,
  ): Promise<{ writer: RoomLogWriter<E>; events: E[]; repaired: boolean }> {
    const { events, torn } = await readRoomLog(file, check);
    if (torn) {
      const text = await readFile(file);
      const keep = text.length - torn.bytes;
      const handle = await open(`${file}.torn-${Date.now()}`, 'wx');
      await handle.writeFile(text.subarray(keep));
      await handle.sync();
      await handle.close();
      await truncate(file, keep);
    }
    return { writer: new RoomLogWriter<E>(await open(file, 'a'), file), events, repaired: torn !== null };
  }

  async append(event: E): Promise<void> {
    await this.appendAll([event]);
  }

  /** Appends the events of one decision with one write and one fdatasync: they become durable together. */
  async appendAll(events: readonly E[]): Promise<void> {
    await this.handle.write(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await this.handle.datasync();
  }

  close(): Promise<void> {
    return this.handle.close();
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
      if (result.owner.pid === process.pid) throw new RoomLogError(`${lockFile}: the room is open already in this process`);
      throw new RoomLogError(`${lockFile}: the room is open in another process (pid ${result.owner.pid})`);
    case 'other-host':
      throw new RoomLogError(`${lockFile}: the room is open on another computer (${result.owner.host}, pid ${result.owner.pid})`);
    case 'unreadable':
      throw new RoomLogError(`${lockFile}: the room lock is unreadable; if no Aloud is running on this room, delete that file`);
    case 'contended':
      throw new RoomLogError(`${lockFile}: could not take the room lock`);
  }
}
