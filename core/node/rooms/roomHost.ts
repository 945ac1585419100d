import { RoomChanges } from './roomChanges';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { roomCodeFromBytes } from '../../common/rooms/roomCode';
import { type RoomEvent, type RoomEventData, type RoomEventType } from '../../common/rooms/roomEvents';
import {
  applyRoomEvent,
  decideChat,
  decideJoin,
  decideRemove,
  decideReveal,
  decideVote,
  foldRoom,
  RoomLogError,
  RoomRuleError,
  type RoomState,
} from '../../common/rooms/roomFold';
import { type RoomMetrics, roomMetrics, type RoomView, roomView } from '../../common/rooms/roomViews';
import { SerialQueue } from '../../common/concurrency/serialQueue';
import { lockRoom, newRoomEvent, RoomLogWriter, roomPaths } from './roomLogFile';
import { say } from '../../common/refusal/refusalMessage';

export type RoomViewer = { role: 'member'; member_id: string } | { role: 'lead' };

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

export function newRoomCode(): string {
  for (;;) {
    const code = roomCodeFromBytes(randomBytes(16));
    if (code) return code;
  }
}

/**
 * One open norming room: its state is the fold of its log, every decision is logged (and fsynced) before it is
 * applied, so a host that restarts from the log continues exactly where the meeting was. The lead's token lives
 * only in this process: a restarted host gives the lead a new one; members' tokens are checked by their hashes in the log.
 */
export class RoomHost {
  /** requests run one at a time: each decision sees the state the previous one left */
  private readonly requests = new SerialQueue(() => new RoomRuleError(409, say('refusal.rooms.theRoomIsNoLonger')));
  private metricsCache: { seq: number; metrics: RoomMetrics } | null = null;
  readonly leadToken = randomBytes(24).toString('base64url');
  private readonly tokenIndex = new Map<string, string>();
  private readonly changes = new RoomChanges();

  private constructor(
    readonly projectDir: string,
    private readonly writer: RoomLogWriter,
    private state: RoomState,
    private readonly unlock: () => Promise<void>,
    readonly repaired: boolean,
  ) {
    for (const m of state.members.values()) this.tokenIndex.set(m.token_sha256, m.member_id);
  }

  static async create(projectDir: string, opened: Omit<RoomEventData['room_opened'], 'code'> & { code?: string }): Promise<RoomHost> {
    const code = opened.code ?? newRoomCode();
    const data: RoomEventData['room_opened'] = { ...opened, code };
    const events: RoomEvent[] = [newRoomEvent(1, 'room_opened', data)];
    const writer = await RoomLogWriter.create(projectDir, code, events[0]!);
    const unlock = await lockRoom(roomPaths(projectDir, code).lock);
    return new RoomHost(projectDir, writer, foldRoom(events), unlock, false);
  }

  /** Opens an existing room again from its log (after a restart or a crash). */
  static async resume(projectDir: string, code: string): Promise<RoomHost> {
    const paths = roomPaths(projectDir, code);
    const exists = await stat(paths.events).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) throw new RoomLogError(say('refusal.rooms.noRoomInThisProject', { events: paths.events, code }));
    const unlock = await lockRoom(paths.lock);
    try {
      const { writer, events, repaired } = await RoomLogWriter.reopen(paths.events);
      return new RoomHost(projectDir, writer, foldRoom(events, paths.events), unlock, repaired);
    } catch (e) {
      await unlock();
      throw e;
    }
  }

  get code(): string {
    return this.state.code;
  }

  get logFile(): string {
    return this.writer.file;
  }

  get seq(): number {
    return this.state.seq;
  }

  /** read-only access for callers that report on the room (export, write-back) */
  snapshot(): RoomState {
    return this.state;
  }

  private async log<T extends RoomEventType>(type: T, data: RoomEventData[T]): Promise<void> {
    const event = newRoomEvent(this.state.seq + 1, type, data);
    await this.writer.append(event);
    this.state = applyRoomEvent(this.state, event, this.writer.file);
    this.changes.wake();
  }

  /** The viewer a token belongs to, or null (an unknown token, or a removed member). */
  authenticate(token: string): RoomViewer | null {
    if (token.length === 0) return null;
    const a = Buffer.from(token);
    const b = Buffer.from(this.leadToken);
    if (a.length === b.length && timingSafeEqual(a, b)) return { role: 'lead' };
    const id = this.tokenIndex.get(sha256(token));
    if (id === undefined || this.state.members.get(id)?.removed !== false) return null;
    return { role: 'member', member_id: id };
  }

  join(name: string): Promise<{ member_id: string; name: string; token: string }> {
    return this.requests.run(async () => {
      const token = randomBytes(24).toString('base64url');
      const memberId = `m${randomBytes(6).toString('hex')}`;
      const data = decideJoin(this.state, name, memberId, sha256(token));
      await this.log('member_joined', data);
      this.tokenIndex.set(data.token_sha256, memberId);
      return { member_id: memberId, name: data.name, token };
    });
  }

  vote(memberId: string, itemId: string, label: string): Promise<void> {
    return this.requests.run(async () => {
      const data = decideVote(this.state, memberId, itemId, label);
      if (data) await this.log('vote_cast', data);
    });
  }

  reveal(itemId: string): Promise<void> {
    return this.requests.run(() => this.log('item_revealed', decideReveal(this.state, itemId)));
  }

  remove(memberId: string): Promise<void> {
    return this.requests.run(() => this.log('member_removed', decideRemove(this.state, memberId)));
  }

  chat(from: string | null, text: string): Promise<void> {
    return this.requests.run(() => this.log('chat', decideChat(this.state, from, text)));
  }

  closeRoom(): Promise<void> {
    return this.requests.run(async () => {
      if (this.state.closed) throw new RoomRuleError(409, say('refusal.rooms.theRoomIsClosedAlready'));
      await this.log('room_closed', {});
    });
  }

  recordWriteBack(sessions: RoomEventData['written_back']['sessions']): Promise<void> {
    return this.requests.run(() => this.log('written_back', { sessions }));
  }

  metrics(): RoomMetrics {
    if (this.metricsCache?.seq !== this.state.seq) this.metricsCache = { seq: this.state.seq, metrics: roomMetrics(this.state) };
    return this.metricsCache.metrics;
  }

  /** Calls `listener` after every change of the room until the returned function is called. */
  onChange(listener: () => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** Resolves when the room has changed past `after`, after `ms` at most, when `signal` aborts, or when the room stops. */
  waitForChange(after: number, ms: number, signal?: AbortSignal): Promise<void> {
    return this.changes.wait(() => this.state.seq > after || this.requests.closed, ms, signal);
  }

  /** Whether a viewer is still in the room (a member removed meanwhile is not). */
  admits(viewer: RoomViewer): boolean {
    return viewer.role === 'lead' || this.state.members.get(viewer.member_id)?.removed === false;
  }

  view(viewer: RoomViewer, chatAfter = 0): RoomView {
    return roomView(this.state, viewer, this.metrics(), chatAfter);
  }

  /** Stops writing; the log stays as it is (a room can be resumed later). */
  async close(): Promise<void> {
    await this.requests.close();
    this.changes.wake();
    await this.writer.close();
    await this.unlock();
  }
}
