import { normalizeAnnotatorName } from '../../common/names/personNames';
import { DEFAULT_MAX_MEMBERS } from '../../common/rooms/roomEvents';
import { RoomRuleError } from '../../common/rooms/roomFold';
import type { ShadowRoomStatus } from '../../common/rooms/shadowViews';
import { ShadowHost, type ShadowProject } from './shadowHost';
import { ServedRoom } from './servedRoom';
import { startShadowListener } from './shadowListener';
import { tapSession, type TappedSession } from './shadowTap';
import { say } from '../../common/refusal/refusalMessage';

/**
 * The app's shadow room (one at a time): the annotator opts in from the Label screen, trainees watch her session
 * live on the room's own listener (127.0.0.1 unless she opens it to the local network), and she keeps annotating as
 * usual. The room follows her session through a tap that only reads it; when her session closes live view ends,
 * and when another annotator's session opens the room, which was hers, closes.
 */
export class ShadowController {
  private readonly served: ServedRoom<ShadowHost>;
  /** whose session the open room shows, and the tap that feeds it (null while her session is closed) */
  private open: { annotator: string; untap: ((options?: { quietly?: boolean }) => void) | null } | null = null;
  private session: TappedSession | null = null;
  private feedProblem: string | null = null;

  constructor(
    private readonly project: ShadowProject,
    /** the open room's trainees or sharing changed, or it closed: the app tells the expert's page */
    private readonly onChange: () => void = () => undefined,
  ) {
    // not told of every change: her own live feed changes the room many times a second (onRosterChange below instead)
    this.served = new ServedRoom<ShadowHost>('shadow');
  }

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
    open.untap = this.tap(this.served.require(), session);
  }

  private tap(host: ShadowHost, session: TappedSession): (options?: { quietly?: boolean }) => void {
    return tapSession(session, 'app', (record) => {
      // a room that refuses a record (closed meanwhile) never reaches back into her session
      host.feed(record).catch((e: Error) => {
        if (this.feedProblem === e.message) return;
        this.feedProblem = e.message;
        if (!host.snapshot().closed)
          process.stderr.write(`shadow room ${host.code}: a record of the session was not shown: ${e.message}\n`);
      });
    });
  }

  async openRoom(lan: boolean): Promise<ShadowRoomStatus> {
    this.served.refuseIfOpen();
    const session = this.session;
    if (!session) throw new RoomRuleError(409, say('refusal.rooms.openYourSessionFirstA'));
    const address = ServedRoom.address(lan);
    const annotator = session.store.annotator;
    const host = await this.served.serve(
      async () => {
        const made = await ShadowHost.create(this.project, { expert: annotator, maxMembers: DEFAULT_MAX_MEMBERS });
        made.onRosterChange(this.onChange);
        return made;
      },
      (made) => startShadowListener(made, { address }),
    );
    this.feedProblem = null;
    this.open = { annotator, untap: this.tap(host, session) };
    // the room shows her item from the first answer on
    await host.idle();
    return this.status()!;
  }

  status(): ShadowRoomStatus | null {
    const served = this.served.status();
    if (!served) return null;
    const { host, ...where } = served;
    return { ...where, view: host.view({ role: 'expert' }) };
  }

  private require(): ShadowHost {
    return this.served.require();
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
   * with the closed room for a while, so trainees see "The room was closed".
   */
  async closeRoom(): Promise<null> {
    this.served.require();
    this.open?.untap?.({ quietly: true });
    this.open = null;
    await this.served.close();
    // said once the room is no longer served (her session may have closed it, not her page)
    this.onChange();
    return null;
  }

  /** The app quits or opens another project: the room closes (a shadow room is live or nothing). */
  async shutdown(): Promise<void> {
    if (this.served.host) await this.closeRoom().catch(() => undefined);
    await this.served.stop();
  }
}
