import { normalizeAnnotatorName } from '../../common/names/nameRules';
import { DEFAULT_MAX_MEMBERS } from '../../common/rooms/roomEvents';
import { RoomRuleError } from '../../common/rooms/roomFold';
import type { ShadowRoomStatus } from '../../common/rooms/shadowViews';
import { CLOSED_ROOM_LINGER_MS } from './roomController';
import { lanAddress, type RoomListener, servedStatus } from './roomHttp';
import { ShadowHost, type ShadowProject } from './shadowHost';
import { startShadowListener } from './shadowListener';
import { tapSession, type TappedSession } from './shadowTap';

/**
 * The app's shadow room (one at a time): the annotator opts in from the Label screen, trainees watch her session
 * live on the room's own listener (127.0.0.1 unless she opens it to the local network), and she keeps annotating as
 * usual. The room follows her session through a tap that only reads it; when her session closes live view ends,
 * and when another annotator's session opens the room, which was hers, closes.
 */
export class ShadowController {
  private open: { host: ShadowHost; listener: RoomListener; annotator: string; untap: ((options?: { quietly?: boolean }) => void) | null } | null = null;
  /** the listener of the room closed last: it answers with the closed room for a while, so pages learn it closed */
  private closed: { listener: RoomListener; timer: ReturnType<typeof setTimeout> } | null = null;
  private session: TappedSession | null = null;
  private feedProblem: string | null = null;

  constructor(private readonly project: ShadowProject) {}

  /** The app's session opened (or closed: null); the open room follows its expert. */
  async follow(session: TappedSession | null): Promise<void> {
    this.session = session;
    const open = this.open;
    if (!open) return;
    open.untap?.();
    open.untap = null;
    if (session === null) return;
    if (normalizeAnnotatorName(session.store.annotator) !== normalizeAnnotatorName(open.annotator)) {
      await this.closeRoom();
      return;
    }
    open.untap = this.tap(open.host, session);
  }

  private tap(host: ShadowHost, session: TappedSession): (options?: { quietly?: boolean }) => void {
    return tapSession(session, 'app', (record) => {
      // a room that refuses a record (closed meanwhile) never reaches back into her session
      host.feed(record).catch((e: Error) => {
        if (this.feedProblem === e.message) return;
        this.feedProblem = e.message;
        if (!host.snapshot().closed) process.stderr.write(`shadow room ${host.code}: a record of the session was not shown: ${e.message}\n`);
      });
    });
  }

  async openRoom(lan: boolean): Promise<ShadowRoomStatus> {
    if (this.open) throw new RoomRuleError(409, `shadow room ${this.open.host.code} is open; close it first`);
    const session = this.session;
    if (!session) throw new RoomRuleError(409, 'open your session first: a shadow room shows your annotating');
    await this.stopClosedListener();
    const address = lan ? lanAddress() : '127.0.0.1';
    if (address === null) throw new RoomRuleError(409, 'this machine has no network address besides loopback: the room cannot be opened to the local network');
    const annotator = session.store.annotator;
    const host = await ShadowHost.create(this.project, { expert: annotator, maxMembers: DEFAULT_MAX_MEMBERS });
    let listener: RoomListener;
    try {
      listener = await startShadowListener(host, { address });
    } catch (e) {
      await host.close();
      throw e;
    }
    this.feedProblem = null;
    this.open = { host, listener, annotator, untap: this.tap(host, session) };
    // the room shows her item from the first answer on
    await host.idle();
    return this.status()!;
  }

  status(): ShadowRoomStatus | null {
    if (!this.open) return null;
    const { host, listener } = this.open;
    return { ...servedStatus(host, listener), view: host.view({ role: 'expert' }) };
  }

  private require(): ShadowHost {
    if (!this.open) throw new RoomRuleError(409, 'no shadow room is open');
    return this.open.host;
  }

  async shareAudio(on: boolean): Promise<ShadowRoomStatus> {
    await this.require().shareAudio(on);
    return this.status()!;
  }

  async remove(memberId: string): Promise<ShadowRoomStatus> {
    await this.require().remove(memberId);
    return this.status()!;
  }

  /**
   * Ends the room: live view of her item ends, room_closed is logged, the log released. The listener keeps answering
   * with the closed room for CLOSED_ROOM_LINGER_MS, so trainees see "The room was closed".
   */
  async closeRoom(): Promise<null> {
    const host = this.require();
    const open = this.open!;
    open.untap?.({ quietly: true });
    this.open = null;
    if (!host.snapshot().closed) await host.closeRoom();
    await host.close();
    await this.stopClosedListener();
    const timer = setTimeout(() => void this.stopClosedListener(), CLOSED_ROOM_LINGER_MS);
    timer.unref();
    this.closed = { listener: open.listener, timer };
    return null;
  }

  private async stopClosedListener(): Promise<void> {
    const closed = this.closed;
    this.closed = null;
    if (closed) {
      clearTimeout(closed.timer);
      await closed.listener.close();
    }
  }

  /** The app quits or opens another project: the room closes (a shadow room is live or nothing). */
  async shutdown(): Promise<void> {
    if (this.open) await this.closeRoom().catch(() => undefined);
    await this.stopClosedListener();
  }
}
