import { finalLabelDisagreements } from '../../common/agreement/agreementAnalysis';
import type { Item } from '../../common/items/item';
import { DEFAULT_MAX_MEMBERS, type RoomEventData } from '../../common/rooms/roomEvents';
import { RoomLogError, RoomRuleError } from '../../common/rooms/roomFold';
import type { LeadRoomStatus } from '../../common/rooms/roomViews';
import { projectLabelSet } from '../agreement/agreementSources';
import { HUDDLE_COUNTING } from '../../common/agreement/countingRules';
import { projectSessionSource } from '../session/projectSessions';
import type { OpenProject } from '../project/projectFolder';
import { RoomHost } from './roomHost';
import { startRoomListener } from './roomListener';
import { ServedRoom } from './servedRoom';
import { writeBackRoomVotes } from './roomWriteBack';
import { say } from '../../common/refusal/refusalMessage';

/**
 * The app's one norming room at a time: opens it over chosen items or as a huddle, serves it on its own listener
 * (127.0.0.1 unless the lead asks for the local network), and acts for the lead. Errors are RoomRuleErrors.
 */
export class RoomController {
  private readonly served: ServedRoom<RoomHost>;

  /** `onStatus`: the lead's status after every change of the served room (null once none is served), to push to her panel */
  constructor(
    private readonly project: OpenProject,
    private readonly items: readonly Item[],
    /** the open room changed (a member's act, or it closed): the app tells the lead's page */
    onChange: () => void = () => undefined,
  ) {
    // the served room calls it after every change of the room and once it is no longer served
    this.served = new ServedRoom<RoomHost>('room', onChange);
  }

  /** itemIds null: a huddle over the items whose final labels differ across the project's sessions now */
  async openRoom(itemIds: readonly string[] | null, lan: boolean): Promise<LeadRoomStatus> {
    this.served.refuseIfOpen();
    let ids: readonly string[];
    if (itemIds === null) {
      const set = await projectLabelSet(this.project, projectSessionSource, HUDDLE_COUNTING);
      ids = finalLabelDisagreements(set.records, {
        level: 'nominal',
        categories: this.project.config.schema.labels.map((l) => l.name),
        hasBlind: true,
        itemIds: set.itemIds,
      }).map((d) => d.item_id);
      if (ids.length === 0) throw new RoomRuleError(409, say('refusal.rooms.noDisagreementsToHuddleOn'));
    } else {
      ids = itemIds;
      if (ids.length === 0) throw new RoomRuleError(400, say('refusal.rooms.chooseAtLeastOneItem'));
    }
    return this.serveNew(ids, itemIds === null ? 'huddle' : 'items', lan);
  }

  /** A huddle over items the lead chose (an adjudicator sending queued items): served here, logged as a huddle. */
  async openHuddle(itemIds: readonly string[], lan: boolean): Promise<LeadRoomStatus> {
    this.served.refuseIfOpen();
    if (itemIds.length === 0) throw new RoomRuleError(400, say('refusal.rooms.chooseAtLeastOneItem'));
    return this.serveNew(itemIds, 'huddle', lan);
  }

  private async serveNew(ids: readonly string[], mode: 'huddle' | 'items', lan: boolean): Promise<LeadRoomStatus> {
    const byId = new Map(this.items.map((i) => [i.id, i]));
    const roomItems = ids.map((id) => {
      const item = byId.get(id);
      if (!item) throw new RoomRuleError(404, say('refusal.rooms.itemIsNotInThe', { id }));
      return { id, text: item.text, ...(item.context !== undefined ? { context: item.context } : {}) };
    });
    const address = ServedRoom.address(lan);
    const schema = this.project.config.schema;
    await this.served.serve(
      async () => {
        const host = await RoomHost.create(this.project.dir, {
          project: this.project.config.name,
          mode,
          items: roomItems,
          labels: schema.labels.map((l) => l.name),
          level: schema.ordered ? 'ordinal' : 'nominal',
          max_members: DEFAULT_MAX_MEMBERS,
        });
        return host;
      },
      (host) => startRoomListener(host, { address }),
    );
    return this.status()!;
  }

  status(): LeadRoomStatus | null {
    const served = this.served.status();
    if (!served) return null;
    const { host, ...where } = served;
    return { ...where, view: host.view({ role: 'lead' }) };
  }

  private require(): RoomHost {
    return this.served.require();
  }

  async reveal(itemId: string): Promise<LeadRoomStatus> {
    await this.require().reveal(itemId);
    return this.status()!;
  }

  async remove(memberId: string): Promise<LeadRoomStatus> {
    await this.require().remove(memberId);
    return this.status()!;
  }

  /**
   * Ends the meeting: logs room_closed (unless the lead's page closed it already) and releases the log. The listener
   * keeps answering with the closed room for a while, so members see "The room was closed" instead of an unreachable
   * host; nothing reaches the log any more (every rule refuses a closed room).
   */
  async closeRoom(): Promise<null> {
    await this.served.close();
    return null;
  }

  /** Final votes of a room (closed, or at least not open here) as new annotator sessions, source "room". */
  async writeBack(code: string): Promise<RoomEventData['written_back']['sessions']> {
    if (this.served.host?.code === code) throw new RoomRuleError(409, say('refusal.rooms.roomIsStillOpenClose', { code }));
    let host: RoomHost;
    try {
      host = await RoomHost.resume(this.project.dir, code);
    } catch (e) {
      if (e instanceof RoomLogError) throw new RoomRuleError(404, e.say ?? e.message);
      throw e;
    }
    try {
      if (host.snapshot().written_back) throw new RoomRuleError(409, say('refusal.rooms.roomWasWrittenBackAlready', { code }));
      const { sessions } = await writeBackRoomVotes(this.project, host.snapshot());
      await host.recordWriteBack(sessions);
      return sessions;
    } finally {
      await host.close();
    }
  }

  /** Stops serving without ending the meeting (the app quits): `aloud room resume` continues it. */
  async shutdown(): Promise<void> {
    await this.served.stop();
  }
}
