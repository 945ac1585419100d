import { agreementAnalysis, type LabelRecord } from '../agreement/agreementAnalysis';
import type { AlphaUndefinedReason } from '../agreement/krippendorff';
import { CHAT_PAGE_SIZE, MAX_MEMBER_LOG_BYTES, MAX_ROOM_LOG_BYTES } from './roomEvents';
import { roomLogHasRoom, type RoomState } from './roomFold';

/** Votes of the revealed items as label records: blind = the vote before the reveal, final = the current vote. */
export function roomLabelRecords(state: RoomState, options: { revealedOnly: boolean } = { revealedOnly: true }): LabelRecord[] {
  const records: LabelRecord[] = [];
  for (const [itemId, item] of state.items) {
    if (options.revealedOnly && !item.revealed) continue;
    for (const [memberId, current] of item.current) {
      const member = state.members.get(memberId);
      if (!member || member.removed) continue;
      const lastChange = item.changes.filter((c) => c.member_id === memberId).at(-1);
      records.push({
        item_id: itemId,
        annotator: member.name,
        blind_label: item.blind.get(memberId) ?? null,
        final_label: current,
        ...(lastChange ? { majority_at_change: lastChange.majority_of_others } : {}),
      });
    }
  }
  return records;
}

export interface RoomMetrics {
  revealed_items: number;
  alpha_blind: number | null;
  alpha_current: number | null;
  ci95_blind: [number, number] | null;
  ci95_current: [number, number] | null;
  pairable_units: number;
  undefined_reason_blind: AlphaUndefinedReason | null;
  undefined_reason_current: AlphaUndefinedReason | null;
  /** per member, from the change log: changes after reveals and how many went to the majority of the others */
  conformity: Array<{ name: string; votes: number; changes: number; changes_toward_majority: number }>;
}

/** Live α over the revealed items, blind and current, with seeded bootstrap intervals, and the conformity log. */
export function roomMetrics(state: RoomState, resamples = 1000, seed = 1): RoomMetrics {
  const analysis = agreementAnalysis(roomLabelRecords(state), {
    level: state.level,
    categories: state.labels,
    hasBlind: true,
    resamples,
    seed,
  });
  const conformity = [...state.members.values()]
    .filter((m) => !m.removed)
    .map((m) => {
      let votes = 0;
      let changes = 0;
      let toward = 0;
      for (const item of state.items.values()) {
        if (item.current.has(m.member_id)) votes++;
        for (const c of item.changes) {
          if (c.member_id !== m.member_id || c.from === null) continue;
          changes++;
          if (c.majority_of_others !== null && c.to === c.majority_of_others) toward++;
        }
      }
      return { name: m.name, votes, changes, changes_toward_majority: toward };
    });
  return {
    revealed_items: [...state.items.values()].filter((i) => i.revealed).length,
    alpha_blind: analysis.alpha_blind,
    alpha_current: analysis.alpha_final,
    ci95_blind: analysis.ci95_blind,
    ci95_current: analysis.ci95_final,
    pairable_units: analysis.pairable_units,
    undefined_reason_blind: analysis.blind?.undefined_reason ?? null,
    undefined_reason_current: analysis.final.undefined_reason,
    conformity,
  };
}

export interface RoomItemView {
  item_id: string;
  text: string;
  context?: string;
  revealed: boolean;
  /** names of the members who have voted (never what, before the reveal) */
  voted: string[];
  /** the viewer's own vote; absent for the lead */
  my_vote?: string | null;
  /** only once revealed: name → label */
  blind_votes?: Record<string, string>;
  current_votes?: Record<string, string>;
  changes?: Array<{ seq: number; name: string; from: string | null; to: string; majority_of_others: string | null }>;
}

export interface RoomView {
  seq: number;
  code: string;
  labels: string[];
  level: string;
  closed: boolean;
  /** the viewer: a member (share_full: their share of the log is used up), or the lead */
  me: { role: 'member'; member_id: string; name: string; share_full: boolean } | { role: 'lead' };
  /** the room log's size and limit; full: no more votes, chat or members */
  log: { bytes: number; max_bytes: number; member_max_bytes: number; full: boolean };
  /** members in the room; the lead sees their ids too, to remove one */
  members: Array<{ name: string; member_id?: string }>;
  max_members: number;
  items: RoomItemView[];
  metrics: RoomMetrics;
  /**
   * chat messages after the cursor, at most CHAT_PAGE_SIZE; chat_more: more follow (ask again with chat_after).
   * role says who wrote it: the lead's messages are marked by the room, never by a name.
   */
  chat: Array<{ seq: number; ts: string; from: string; role: 'lead' | 'member'; text: string }>;
  chat_more: boolean;
}

/** The first index of `chat` with seq > after (chat is in seq order). */
function firstChatAfter(chat: RoomState['chat'], after: number): number {
  let lo = 0;
  let hi = chat.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chat[mid]!.seq > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * What one viewer may see. The only place votes leave the room state: before an item is revealed its votes are
 * reduced to who voted (the member's own vote aside), for members and the lead alike.
 */
export function roomView(
  state: RoomState,
  viewer: { role: 'member'; member_id: string } | { role: 'lead' },
  metrics: RoomMetrics,
  chatAfter = 0,
): RoomView {
  const active = [...state.members.values()].filter((m) => !m.removed);
  const nameOf = (id: string | null): string => (id === null ? 'lead' : (state.members.get(id)?.name ?? '?'));
  // in the order members joined, whoever voted first
  const byName = (votes: Map<string, string>): Record<string, string> =>
    Object.fromEntries(active.filter((m) => votes.has(m.member_id)).map((m) => [m.name, votes.get(m.member_id)!]));
  const items = [...state.items.values()].map((s): RoomItemView => {
    const view: RoomItemView = {
      item_id: s.item.id,
      text: s.item.text,
      ...(s.item.context !== undefined ? { context: s.item.context } : {}),
      revealed: s.revealed,
      voted: active.filter((m) => s.current.has(m.member_id)).map((m) => m.name),
    };
    if (viewer.role === 'member') view.my_vote = s.current.get(viewer.member_id) ?? null;
    if (s.revealed) {
      view.blind_votes = byName(s.blind);
      view.current_votes = byName(s.current);
      view.changes = s.changes.map((c) => ({
        seq: c.seq,
        name: nameOf(c.member_id),
        from: c.from,
        to: c.to,
        majority_of_others: c.majority_of_others,
      }));
    }
    return view;
  });
  const me =
    viewer.role === 'lead'
      ? { role: 'lead' as const }
      : {
          role: 'member' as const,
          member_id: viewer.member_id,
          name: nameOf(viewer.member_id),
          share_full: (state.members.get(viewer.member_id)?.log_bytes ?? 0) >= MAX_MEMBER_LOG_BYTES,
        };
  const first = firstChatAfter(state.chat, chatAfter);
  const page = state.chat.slice(first, first + CHAT_PAGE_SIZE);
  return {
    seq: state.seq,
    code: state.code,
    labels: state.labels,
    level: state.level,
    closed: state.closed,
    me,
    members: active.map((m) => (viewer.role === 'lead' ? { name: m.name, member_id: m.member_id } : { name: m.name })),
    max_members: state.max_members,
    items,
    metrics,
    log: { bytes: state.log_bytes, max_bytes: MAX_ROOM_LOG_BYTES, member_max_bytes: MAX_MEMBER_LOG_BYTES, full: !roomLogHasRoom(state) },
    chat: page.map((c) => ({
      seq: c.seq,
      ts: c.ts,
      from: nameOf(c.from),
      role: c.from === null ? ('lead' as const) : ('member' as const),
      text: c.text,
    })),
    chat_more: first + page.length < state.chat.length,
  };
}

/** What the app's lead panel shows: where members join, and the room as the lead sees it. */
export interface LeadRoomStatus {
  code: string;
  /** the address members open (then type the code) */
  url: string;
  address: string;
  lan: boolean;
  log: string;
  view: RoomView;
}
