import { describe, expect, it } from 'vitest';
import type { SessionPatch, SessionView } from '../../../../core/common/contract/aloudApi';
import { applySessionPatch, isSessionPatch, updateSessionView, withItem } from '../../../../core/common/contract/sessionPatch';
import type { ItemSessionState } from '../../../../core/common/session/itemState';

const item = (item_id: string, final_label: string | null) => ({ item_id, final_label }) as unknown as ItemSessionState;
const view: SessionView = {
  annotator: 'ana',
  current_item: 'i1',
  recording_item: null,
  items: [item('i1', null), item('i2', 'Polite')],
  pending_transcriptions: 0,
  pending_items: {},
  recovered: 'a torn line was set aside',
  finishing_item: null,
  config_changed: false,
  notes: [{ item_id: 'i1', text: 'first', ts: '2026-01-01T00:00:00.000Z' }],
  reviewer: null,
  kind: 'annotator',
};
const patch = (over: Partial<SessionPatch>): SessionPatch => ({
  changed_items: [],
  added_notes: [],
  current_item: 'i1',
  recording_item: null,
  pending_transcriptions: 0,
  pending_items: {},
  finishing_item: null,
  config_changed: false,
  ...over,
});

describe('applying a session patch', () => {
  it('replaces the changed items in place, adds new ones at the end, appends the notes and sets the fields', () => {
    const after = applySessionPatch(
      view,
      patch({
        changed_items: [item('i3', null), item('i1', 'Neutral')],
        added_notes: [{ item_id: 'i3', text: 'second', ts: '2026-01-01T00:01:00.000Z' }],
        current_item: 'i3',
        pending_transcriptions: 2,
        pending_items: { i3: 2 },
        config_changed: true,
      }),
    );
    expect(after.items.map((i) => [i.item_id, i.final_label])).toEqual([
      ['i1', 'Neutral'],
      ['i2', 'Polite'],
      ['i3', null],
    ]);
    expect(after.notes.map((n) => n.text)).toEqual(['first', 'second']);
    expect(after).toMatchObject({ annotator: 'ana', current_item: 'i3', pending_transcriptions: 2, config_changed: true, recovered: 'a torn line was set aside' });
    // the view before is left as it was (the store keeps views immutable)
    expect(view.items[0]!.final_label).toBeNull();
    expect(view.notes).toHaveLength(1);
  });

  it('keeps the unchanged items and notes as the same objects (nothing to re-render)', () => {
    const after = applySessionPatch(view, patch({ changed_items: [item('i2', 'Impolite')] }));
    expect(after.items[0]).toBe(view.items[0]);
    expect(after.notes).toBe(view.notes);
  });

  it('a whole view replaces the one kept; a patch without a view changes nothing', () => {
    expect(isSessionPatch(view)).toBe(false);
    expect(isSessionPatch(patch({}))).toBe(true);
    expect(updateSessionView(null, view)).toBe(view);
    expect(updateSessionView(view, { ...view, annotator: 'ben' })?.annotator).toBe('ben');
    expect(updateSessionView(null, patch({ current_item: 'i2' }))).toBeNull();
    expect(updateSessionView(view, patch({ current_item: 'i2' }))?.current_item).toBe('i2');
    expect(withItem(view, item('i2', null)).items[1]!.final_label).toBeNull();
  });
});
