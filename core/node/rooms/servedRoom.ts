import { RoomRuleError } from '../../common/rooms/roomFold';
import { lanAddress, type RoomListener, servedStatus } from './roomHttp';
import { say } from '../../common/refusal/refusalMessage';

/** How long a closed room's listener keeps answering, so every member's page learns the room was closed. */
export const CLOSED_ROOM_LINGER_MS = 5 * 60_000;

/** What serving needs of a room's host (a norming room's or a shadow room's). */
export interface ServableHost {
  readonly code: string;
  readonly logFile: string;
  snapshot(): { closed: unknown };
  onChange(listener: () => void): () => void;
  closeRoom(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app's one served room of a kind: its host and the listener that serves it, and the listener of the room closed
 * last, which keeps answering with the closed room for CLOSED_ROOM_LINGER_MS so members' pages learn it closed
 * instead of finding the host gone. Nothing reaches a closed room's log (every rule refuses a closed room).
 */
export class ServedRoom<H extends ServableHost> {
  private current: { host: H; listener: RoomListener; unfollow: () => void } | null = null;
  private closed: { listener: RoomListener; timer: ReturnType<typeof setTimeout> } | null = null;

  /**
   * `kind` names the room in refusals ("room", "shadow room", each in the person's language). `changed` is called after every change of the served
   * room and once it is no longer served, so the app can push the lead's panel the new status instead of being polled.
   */
  constructor(
    private readonly kind: 'room' | 'shadow',
    private readonly changed: () => void = () => undefined,
  ) {}

  get host(): H | null {
    return this.current?.host ?? null;
  }

  /** Refuses when a room of this kind is open already. */
  refuseIfOpen(): void {
    if (this.current)
      throw new RoomRuleError(409, say('refusal.rooms.isOpenCloseItFirst', { what: this.kind, code: this.current.host.code }));
  }

  /** Where a room listens: 127.0.0.1, or the machine's first address on a network (refused in words when it has none). */
  static address(lan: boolean): string {
    const address = lan ? lanAddress() : '127.0.0.1';
    if (address === null) throw new RoomRuleError(409, say('refusal.rooms.thisMachineHasNoNetwork'));
    return address;
  }

  /**
   * Serves a host made for this room: the closed room's lingering listener stops first; when the listener cannot
   * start, the host is closed and the error goes on.
   */
  async serve(makeHost: () => Promise<H>, listen: (host: H) => Promise<RoomListener>): Promise<H> {
    this.refuseIfOpen();
    await this.stopClosedListener();
    const host = await makeHost();
    try {
      this.current = { host, listener: await listen(host), unfollow: host.onChange(() => this.changed()) };
    } catch (e) {
      await host.close();
      throw e;
    }
    return host;
  }

  /** The open room's host, or a refusal: no room of this kind is open. */
  require(): H {
    if (!this.current) throw new RoomRuleError(409, say('refusal.rooms.noIsOpen', { what: this.kind }));
    return this.current.host;
  }

  /** The code, address and log of the open room, or null. */
  status(): (ReturnType<typeof servedStatus> & { host: H }) | null {
    if (!this.current) return null;
    return { ...servedStatus(this.current.host, this.current.listener), host: this.current.host };
  }

  /** Ends the open room: room_closed is logged (unless its page closed it already), the log released, the listener lingers. */
  async close(): Promise<void> {
    const host = this.require();
    if (!host.snapshot().closed) await host.closeRoom();
    const { listener, unfollow } = this.current!;
    unfollow();
    this.current = null;
    this.changed();
    await host.close();
    await this.stopClosedListener();
    const timer = setTimeout(() => void this.stopClosedListener(), CLOSED_ROOM_LINGER_MS);
    timer.unref();
    this.closed = { listener, timer };
  }

  /** Stops serving now: the lingering listener, and the open room's listener and host without logging its close. */
  async stop(): Promise<void> {
    await this.stopClosedListener();
    const open = this.current;
    this.current = null;
    if (open) {
      open.unfollow();
      this.changed();
      await open.listener.close();
      await open.host.close();
    }
  }

  async stopClosedListener(): Promise<void> {
    const closed = this.closed;
    this.closed = null;
    if (closed) {
      clearTimeout(closed.timer);
      await closed.listener.close();
    }
  }
}
