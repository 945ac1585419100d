import type { ItemSessionState } from '../session/itemState';
import { summaryOfItem } from '../session/itemSummary';
import type { SessionPatch, SessionView } from './aloudApi';

/** A call's answer about the session: the whole view (openSession, session) or what changed (every act). */
export type SessionUpdate = SessionView | SessionPatch;

export function isSessionPatch(update: SessionUpdate): update is SessionPatch {
  return 'changed_items' in update;
}

/** The view with one item's state put in its place (an item new to the view goes at the end, as the fold orders them). */
export function withItem(view: SessionView, item: ItemSessionState): SessionView {
  return withItems(view, [item]);
}

/** The view holding these items in full, and their lines in the item list in place (new ones at the end). */
function withItems(view: SessionView, changed: readonly ItemSessionState[]): SessionView {
  if (changed.length === 0) return view;
  const byId = new Map(changed.map((item) => [item.item_id, item]));
  const items = view.items.map((line) => {
    const next = byId.get(line.item_id);
    if (!next) return line;
    byId.delete(line.item_id);
    return summaryOfItem(next);
  });
  const item_states = { ...view.item_states };
  for (const item of changed) item_states[item.item_id] = item;
  return { ...view, items: byId.size === 0 ? items : [...items, ...[...byId.values()].map(summaryOfItem)], item_states };
}

/** The view after a patch: the view before it with the changed items replaced, the notes added and the session's fields set. */
export function applySessionPatch(view: SessionView, patch: SessionPatch): SessionView {
  const { changed_items, added_notes, notes_from, ...fields } = patch;
  const next = withItems(view, changed_items);
  // the notes from notes_from on are the patch's (a view read meanwhile may hold some of them already)
  const notes = added_notes.length === 0 && notes_from >= view.notes.length ? view.notes : [...view.notes.slice(0, notes_from), ...added_notes];
  return { ...next, ...fields, notes };
}

/** What the page keeps after a call's answer: a whole view replaces it, a patch is applied to it (no view yet: nothing to patch). */
export function updateSessionView(view: SessionView | null, update: SessionUpdate): SessionView | null {
  if (!isSessionPatch(update)) return update;
  return view === null ? null : applySessionPatch(view, update);
}
