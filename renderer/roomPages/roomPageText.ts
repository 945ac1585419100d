import type { AlphaUndefinedReason } from '../../core/common/agreement/krippendorff';
import type { RoomItemView, RoomView } from '../../core/common/rooms/roomViews';
import { fixed, t } from './roomLanguage';

/** The norming room page's words and rules, apart from the DOM. */

export function formatAlpha(x: number | null | undefined): string {
  return x === null || x === undefined ? '—' : fixed(x, 3);
}

export function formatInterval(c: readonly [number, number] | null): string {
  return c ? t('room.alpha.interval', { low: fixed(c[0], 2), high: fixed(c[1], 2) }) : '';
}

/** Why α is not shown yet, in words. */
export function whyNoAlpha(reason: AlphaUndefinedReason | null): string {
  if (reason === 'fewer_than_two_pairable_units') return t('room.alpha.noData');
  if (reason === 'no_variation') return t('room.alpha.noVariation');
  return '';
}

/** The two α rows of the metrics: blind and current, each with its interval or why it is missing. */
export function alphaRows(m: RoomView['metrics']): Array<{ title: string; value: string; note: string }> {
  const rows: Array<['room.alpha.blind' | 'room.alpha.current', number | null, [number, number] | null, AlphaUndefinedReason | null]> = [
    ['room.alpha.blind', m.alpha_blind, m.ci95_blind, m.undefined_reason_blind],
    ['room.alpha.current', m.alpha_current, m.ci95_current, m.undefined_reason_current],
  ];
  return rows.map(([title, alpha, ci, reason]) => ({
    title: t(title, { revealed: m.revealed_items }),
    value: formatAlpha(alpha),
    note: alpha === null ? whyNoAlpha(reason) : formatInterval(ci),
  }));
}

/** Votes and chat are open: the room is not closed and the log (and this member's share of it) not full. */
export function canWrite(view: Pick<RoomView, 'closed' | 'log' | 'me'>): boolean {
  return !view.closed && !view.log.full && !(view.me.role === 'member' && view.me.share_full);
}

export function roomStatus(view: Pick<RoomView, 'closed' | 'log' | 'me'>): string {
  if (view.closed) return t('room.status.closed');
  if (view.log.full) return t('room.status.full');
  if (view.me.role === 'member' && view.me.share_full) return t('room.status.shareFull');
  return t('room.status.open');
}

export function whoLine(view: Pick<RoomView, 'me'>): string {
  return view.me.role === 'lead' ? t('room.who.lead') : t('room.who.member', { name: view.me.name });
}

export function itemHeading(item: Pick<RoomItemView, 'item_id' | 'revealed'>): string {
  return t(item.revealed ? 'room.item.revealed' : 'room.item.blind', { item: item.item_id });
}

export function votedLine(item: Pick<RoomItemView, 'voted'>): string {
  return item.voted.length ? t('room.item.voted', { names: item.voted.join(', ') }) : t('room.item.votedNobody');
}

/** One vote change after a reveal, as the change log shows it. */
export function changeLine(c: NonNullable<RoomItemView['changes']>[number]): string {
  return t('room.item.changeLine', {
    name: c.name,
    from: c.from ?? t('room.item.firstVote'),
    to: c.to,
    majority: c.majority_of_others ?? t('room.item.none'),
  });
}

/** The state request after the view and chat seen so far. */
export function roomStatePath(after: number, chatAfter: number): string {
  return `/api/state?after=${after}&chat_after=${chatAfter}&wait=1`;
}
