import type { ItemSessionState } from './itemState';
import { summaryOfItem } from './itemSummary';
import type { SessionNoteView, SessionPatch, SessionView } from './sessionApi';

/** A call's answer about the session: the whole view (openSession, session) or what changed (every act). */
export type SessionUpdate = SessionView | SessionPatch;

export function isSessionPatch(update: SessionUpdate): update is SessionPatch {
  return 'changed_items' in update;
}

/**
 * What a page applied since its view, by the host's stamps: answers and events travel on different connections and
 * can arrive out of order, so an item's state or the session's fields are kept only from something newer than what
 * set them (an older act's answer must never move the page back to an item the host has left).
 */
export interface HeldStamps {
  /** per session field (current item, recording, pending, finishing, config_changed), the stamp that set it, where newer than the view's */
  fields: Partial<Record<SessionField, number>>;
  /** per item, the stamp that set its state, where newer than the view's */
  items: Record<string, number>;
  /** the newest stamp applied */
  newest: number;
}

/** The session's own fields, which patches set and some events too. */
type SessionField = 'current_item' | 'recording_item' | 'pending_transcriptions' | 'pending_items' | 'finishing_item' | 'config_changed';
type SessionFields = Pick<SessionView, SessionField>;

/** The view a page keeps: the host's, with what it applied since (`held`, the page's own; the host never sends it). */
export type HeldSessionView = SessionView & { held?: HeldStamps };

function heldOf(view: HeldSessionView): HeldStamps {
  return view.held ?? { fields: {}, items: {}, newest: view.stamp };
}

/** The view with items whose states are newer than those held put in place (new ones at the end); older ones are dropped. */
function withItems(view: HeldSessionView, changed: readonly ItemSessionState[], stamp: number): HeldSessionView {
  const held = heldOf(view);
  const newer = changed.filter((item) => stamp > (held.items[item.item_id] ?? view.stamp));
  if (newer.length === 0) return stamp > held.newest ? { ...view, held: { ...held, newest: stamp } } : view;
  const byId = new Map(newer.map((item) => [item.item_id, item]));
  const items = view.items.map((line) => {
    const next = byId.get(line.item_id);
    if (!next) return line;
    byId.delete(line.item_id);
    return summaryOfItem(next);
  });
  const item_states = { ...view.item_states };
  const stamps = { ...held.items };
  for (const item of newer) {
    item_states[item.item_id] = item;
    stamps[item.item_id] = stamp;
  }
  return {
    ...view,
    items: byId.size === 0 ? items : [...items, ...[...byId.values()].map(summaryOfItem)],
    item_states,
    held: { ...held, items: stamps, newest: Math.max(held.newest, stamp) },
  };
}

/** An item event: the item's state put in place unless the page holds a newer one. */
export function withItem(view: HeldSessionView, item: ItemSessionState, stamp: number): HeldSessionView {
  return withItems(view, [item], stamp);
}

/**
 * Notes are append-only and never change: a patch's are put at their places (`from` on), whatever arrived before or
 * after it (a patch that overtook an earlier one leaves a gap that the earlier one fills; list renderings skip it).
 */
function withNotes(notes: readonly SessionNoteView[], from: number, added: readonly SessionNoteView[]): SessionNoteView[] | null {
  if (added.every((_, i) => notes[from + i] !== undefined)) return null;
  const next = notes.slice();
  added.forEach((note, i) => {
    next[from + i] = note;
  });
  return next;
}

/**
 * The view after a patch. A patch older than the view is in it already (the view was made later) and changes
 * nothing; otherwise each changed item newer than the one held is put in place, the notes at their places, and the
 * session's fields set unless a newer answer set them.
 */
export function applySessionPatch(view: HeldSessionView, patch: SessionPatch): HeldSessionView {
  if (patch.stamp <= view.stamp) return view;
  const { changed_items, added_notes, notes_from, stamp, ...fields } = patch;
  const next = withFields(withItems(view, changed_items, stamp), fields, stamp);
  const notes = withNotes(next.notes, notes_from, added_notes);
  return notes ? { ...next, notes } : next;
}

/**
 * Session fields a patch or an event sets, each unless something newer set it: an event about the recording or the
 * pending transcriptions says nothing of the current item, so it never holds back an older answer's current item.
 */
export function withFields(view: HeldSessionView, fields: Partial<SessionFields>, stamp: number): HeldSessionView {
  const held = heldOf(view);
  const set: Partial<SessionFields> = {};
  const stamps = { ...held.fields };
  for (const key of Object.keys(fields) as SessionField[]) {
    if (stamp <= (held.fields[key] ?? view.stamp)) continue;
    (set as Record<SessionField, unknown>)[key] = fields[key];
    stamps[key] = stamp;
  }
  if (Object.keys(set).length === 0) return stamp > held.newest ? { ...view, held: { ...held, newest: stamp } } : view;
  return { ...view, ...set, held: { ...held, fields: stamps, newest: Math.max(held.newest, stamp) } };
}

/**
 * What the page keeps after a call's answer: a whole view replaces it when it is newer than everything the page
 * applied (an older one arriving late is dropped: the page asks for the view again, see `staleView`), a patch is
 * applied to it (no view yet: nothing to patch).
 */
export function updateSessionView(view: HeldSessionView | null, update: SessionUpdate): HeldSessionView | null {
  if (!isSessionPatch(update)) return view !== null && staleView(view, update) ? view : update;
  return view === null ? null : applySessionPatch(view, update);
}

/** A whole view older than something the page already applied of the same annotator's session (it would move the page back). */
export function staleView(held: HeldSessionView, view: SessionView): boolean {
  return held.annotator === view.annotator && held.reviewer === view.reviewer && view.stamp <= heldOf(held).newest;
}
