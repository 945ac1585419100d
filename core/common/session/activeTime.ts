/**
 * Active time on item: the time a person was evidently working on an item, as a fold of the acts her log holds.
 *
 * An act is something she did, with the wall-clock span it took: a key, click or navigation (an instant), a spoken
 * utterance (its audio span, placed on the clock through its recording's start), a playback of the recording (from
 * when it started playing to when it stopped). Within one sitting (from a session_started or session_resumed to the
 * next), the acts are laid out in time; a gap between the end of what she had done so far and her next act counts
 * for the item of the act that ended last (she was reading, thinking or listening about it) when it is at most the
 * idle gap bound, and counts as nothing when it is longer: a gap over the bound cannot be told apart into thought
 * and coffee break, so none of it is claimed. An item's active time is the union of its acts' spans and the gaps
 * counted for it. Nothing before a sitting's first act or after its last counts (nothing says when the app closed).
 */

/** One act of the person, on the wall clock (ms since the epoch); an instant has start_ms === end_ms. */
export interface ActivitySpan {
  item_id: string;
  /** which sitting of the log it belongs to: gaps are never bridged across two */
  sitting: number;
  start_ms: number;
  end_ms: number;
}

/** Each item's active time, ms, from the acts of one person's log and the idle gap bound (ms). */
export function activeTimeByItem(acts: readonly ActivitySpan[], idleGapMs: number): Map<string, number> {
  // a log's acts come nearly always in order: one pass says so, and a sort is paid only when they do not
  let inOrder = true;
  for (let k = 1; k < acts.length && inOrder; k++) inOrder = byTime(acts[k - 1]!, acts[k]!) <= 0;
  const sorted = inOrder ? acts : [...acts].sort(byTime);
  const unions = new Map<string, ItemUnion>();
  const add = (itemId: string, from: number, to: number) => {
    const union = unions.get(itemId);
    if (union) addToUnion(union, from, to);
    else unions.set(itemId, { closed: [], from, to });
  };
  let sitting: number | null = null;
  // the end of what she had done so far in this sitting, and the item of the act that reached it
  let frontier = 0;
  let frontierItem: string | null = null;
  for (const act of sorted) {
    const end = Math.max(act.start_ms, act.end_ms);
    if (act.sitting !== sitting) {
      sitting = act.sitting;
      frontierItem = null;
    } else if (frontierItem !== null && act.start_ms > frontier && act.start_ms - frontier <= idleGapMs) {
      add(frontierItem, frontier, act.start_ms);
    }
    add(act.item_id, act.start_ms, end);
    if (frontierItem === null || end >= frontier) {
      frontier = end;
      frontierItem = act.item_id;
    }
  }
  const active = new Map<string, number>();
  for (const [itemId, union] of unions) active.set(itemId, unionLength([...union.closed, [union.from, union.to]]));
  return active;
}

/**
 * An item's spans so far, merged as they come (they come in order of start within a sitting): the disjoint spans
 * closed so far and the one still open to overlaps; a span that starts earlier is kept as it is, for unionLength.
 */
interface ItemUnion {
  closed: Array<[number, number]>;
  from: number;
  to: number;
}

function addToUnion(union: ItemUnion, from: number, to: number): void {
  if (from < union.from) union.closed.push([from, to]);
  else if (from > union.to) {
    union.closed.push([union.from, union.to]);
    union.from = from;
    union.to = to;
  } else if (to > union.to) union.to = to;
}

function byTime(a: ActivitySpan, b: ActivitySpan): number {
  return a.sitting - b.sitting || a.start_ms - b.start_ms || a.end_ms - b.end_ms;
}

/** The length of a union of intervals (overlaps counted once). */
function unionLength(intervals: Array<[number, number]>): number {
  let inOrder = true;
  for (let k = 1; k < intervals.length && inOrder; k++) inOrder = intervals[k - 1]![0] <= intervals[k]![0];
  if (!inOrder) intervals.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const [start, end] of intervals) {
    if (start > to) {
      if (to > from) total += to - from;
      from = start;
      to = end;
    } else if (end > to) to = end;
  }
  if (to > from) total += to - from;
  return Math.round(total);
}
