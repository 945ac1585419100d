import { finalLabelDisagreements } from '../../common/agreement/agreementAnalysis';
import type { Item } from '../../common/items/item';
import { DEFAULT_MAX_MEMBERS, type RoomEventData } from '../../common/rooms/roomEvents';
import { RoomLogError, RoomRuleError } from '../../common/rooms/roomFold';
import type { LeadRoomStatus } from '../../common/rooms/roomViews';
import { projectLabelSet } from '../agreement/agreementSources';
import { HUDDLE_COUNTING } from '../../common/agreement/countingRules';
import { projectSessionSource } from '../export/projectSessions';
import type { OpenProject } from '../project/projectFolder';
import { RoomHost } from './roomHost';
import { lanAddress, type RoomListener, servedStatus } from './roomHttp';
import { startRoomListener } from './roomListener';
import { writeBackRoomVotes } from './roomWriteBack';

/**
 * The app's one norming room at a time: opens it over chosen items or as a huddle, serves it on its own listener
 * (127.0.0.1 unless the lead asks for the local network), and acts for the lead. Errors are RoomRuleErrors.
 */
/** How long a closed room's listener keeps answering, so every member's page learns the room was closed. */
export const CLOSED_ROOM_LINGER_MS = 5 * 60_000;

export class RoomController {
  private open: { host: RoomHost; listener: RoomListener } | null = null;
  /** the listener of the room closed last: it answers with the closed room (nothing can change it) for a while */
  private closed: { listener: RoomListener; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly project: OpenProject,
    private readonly items: readonly Item[],
  ) {}

  /** itemIds null: a huddle over the items whose final labels differ across the project's sessions now */
  async openRoom(itemIds: readonly string[] | null, lan: boolean): Promise<LeadRoomStatus> {
    if (this.open) throw new RoomRuleError(409, `room ${this.open.host.code} is open; close it first`);
    await this.stopClosedListener();
    let ids: readonly string[];
    if (itemIds === null) {
      const set = await projectLabelSet(this.project, projectSessionSource, HUDDLE_COUNTING);
      ids = finalLabelDisagreements(set.records, { level: 'nominal', categories: this.project.config.schema.labels.map((l) => l.name), hasBlind: true, itemIds: set.itemIds }).map((d) => d.item_id);
      if (ids.length === 0) throw new RoomRuleError(409, 'no disagreements to huddle on: every item has one final label across annotators');
    } else {
      ids = itemIds;
      if (ids.length === 0) throw new RoomRuleError(400, 'choose at least one item');
    }
    const byId = new Map(this.items.map((i) => [i.id, i]));
    const roomItems = ids.map((id) => {
      const item = byId.get(id);
      if (!item) throw new RoomRuleError(404, `item "${id}" is not in the project's items`);
      return { id, text: item.text, ...(item.context !== undefined ? { context: item.context } : {}) };
    });
    const address = lan ? lanAddress() : '127.0.0.1';
    if (address === null) throw new RoomRuleError(409, 'this machine has no network address besides loopback: the room cannot be opened to the local network');
    const schema = this.project.config.schema;
    const host = await RoomHost.create(this.project.dir, {
      project: this.project.config.name,
      mode: itemIds === null ? 'huddle' : 'items',
      items: roomItems,
      labels: schema.labels.map((l) => l.name),
      level: schema.ordered ? 'ordinal' : 'nominal',
      max_members: DEFAULT_MAX_MEMBERS,
    });
    try {
      this.open = { host, listener: await startRoomListener(host, { address }) };
    } catch (e) {
      await host.close();
      throw e;
    }
    return this.status()!;
  }

  status(): LeadRoomStatus | null {
    if (!this.open) return null;
    const { host, listener } = this.open;
    return { ...servedStatus(host, listener), view: host.view({ role: 'lead' }) };
  }

  private require(): RoomHost {
    if (!this.open) throw new RoomRuleError(409, 'no room is open');
    return this.open.host;
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
   * keeps answering with the closed room for CLOSED_ROOM_LINGER_MS, so members see "The room was closed" instead of
   * an unreachable host; nothing reaches the log any more (every rule refuses a closed room).
   */
  async closeRoom(): Promise<null> {
    const host = this.require();
    if (!host.snapshot().closed) await host.closeRoom();
    const { listener } = this.open!;
    this.open = null;
    await host.close();
    await this.stopClosedListener();
    const timer = setTimeout(() => void this.stopClosedListener(), CLOSED_ROOM_LINGER_MS);
    timer.unref();
    this.closed = { listener, timer };
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

  /** Final votes of a room (closed, or at least not open here) as new annotator sessions, source "room". */
  async writeBack(code: string): Promise<RoomEventData['written_back']['sessions']> {
    if (this.open?.host.code === code) throw new RoomRuleError(409, `room ${code} is still open: close it first, so the votes are final`);
    let host: RoomHost;
    try {
      host = await RoomHost.resume(this.project.dir, code);
    } catch (e) {
      if (e instanceof RoomLogError) throw new RoomRuleError(404, e.message);
      throw e;
    }
    try {
      if (host.snapshot().written_back) throw new RoomRuleError(409, `room ${code} was written back already`);
      const { sessions } = await writeBackRoomVotes(this.project, host.snapshot());
      await host.recordWriteBack(sessions);
      return sessions;
    } finally {
      await host.close();
    }
  }

  /** Stops serving without ending the meeting (the app quits): `aloud room resume` continues it. */
  async shutdown(): Promise<void> {
    await this.stopClosedListener();
    const open = this.open;
    this.open = null;
    if (open) {
      await open.listener.close();
      await open.host.close();
    }
  }
}
