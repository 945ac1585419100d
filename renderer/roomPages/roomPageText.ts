import type { AlphaUndefinedReason } from '../../core/common/agreement/krippendorff';
import type { RoomItemView, RoomView } from '../../core/common/rooms/roomViews';

/** The norming room page's words and rules, apart from the DOM. */

export function formatAlpha(x: number | null | undefined): string {
  return x === null || x === undefined ? '—' : x.toFixed(3);
}

export function formatInterval(c: readonly [number, number] | null): string {
  return c ? `[${c[0].toFixed(2)}, ${c[1].toFixed(2)}]` : '';
}

/** Why α is not shown yet, in words. */
export function whyNoAlpha(reason: AlphaUndefinedReason | null): string {
  if (reason === 'fewer_than_two_pairable_units') return 'not enough data yet (needs two revealed items with two votes)';
  if (reason === 'no_variation') return 'not enough data: every vote is the same';
  return '';
}

/** The two α rows of the metrics: blind and current, each with its interval or why it is missing. */
export function alphaRows(m: RoomView['metrics']): Array<{ title: string; value: string; note: string }> {
  const rows: Array<[string, number | null, [number, number] | null, AlphaUndefinedReason | null]> = [
    ['Blind α', m.alpha_blind, m.ci95_blind, m.undefined_reason_blind],
    ['Current α', m.alpha_current, m.ci95_current, m.undefined_reason_current],
  ];
  return rows.map(([title, alpha, ci, reason]) => ({
    title: `${title} (${m.revealed_items} revealed)`,
    value: formatAlpha(alpha),
    note: alpha === null ? whyNoAlpha(reason) : `95% ${formatInterval(ci)}`,
  }));
}

/** Votes and chat are open: the room is not closed and the log (and this member's share of it) not full. */
export function canWrite(view: Pick<RoomView, 'closed' | 'log' | 'me'>): boolean {
  return !view.closed && !view.log.full && !(view.me.role === 'member' && view.me.share_full);
}

export function roomStatus(view: Pick<RoomView, 'closed' | 'log' | 'me'>): string {
  if (view.closed) return 'The room was closed. Thank you for taking part.';
  if (view.log.full) return 'The room log is full: no more votes or chat. The lead can still reveal items and close the room.';
  if (view.me.role === 'member' && view.me.share_full)
    return 'Your share of the room log is full: no more votes or chat from you. The lead can still reveal items.';
  return 'Vote on each item; votes stay hidden until the lead reveals the item.';
}

export function whoLine(view: Pick<RoomView, 'me'>): string {
  return view.me.role === 'lead' ? 'You lead this room' : `You are ${view.me.name}`;
}

export function itemHeading(item: Pick<RoomItemView, 'item_id' | 'revealed'>): string {
  return item.item_id + (item.revealed ? ' · revealed' : ' · blind');
}

export function votedLine(item: Pick<RoomItemView, 'voted'>): string {
  return `Voted: ${item.voted.length ? item.voted.join(', ') : 'nobody yet'}`;
}

/** One vote change after a reveal, as the change log shows it. */
export function changeLine(c: NonNullable<RoomItemView['changes']>[number]): string {
  return `${c.name}: ${c.from === null ? 'first vote' : c.from} → ${c.to} (others’ majority: ${c.majority_of_others === null ? 'none' : c.majority_of_others})`;
}

/** The state request after the view and chat seen so far. */
export function roomStatePath(after: number, chatAfter: number): string {
  return `/api/state?after=${after}&chat_after=${chatAfter}&wait=1`;
}
