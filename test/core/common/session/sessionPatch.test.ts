import { describe, expect, it } from 'vitest';
import type { SessionPatch, SessionView } from '../../../../core/common/session/sessionApi';
import {
  applySessionPatch,
  isSessionPatch,
  staleView,
  updateSessionView,
  withFields,
  withItem,
} from '../../../../core/common/session/sessionPatch';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { summaryOfItem } from '../../../../core/common/session/itemSummary';

const item = (item_id: string, final_label: string | null): ItemSessionState =>
  ({
    item_id,
    final_label,
    label_source: null,
    completed_at: null,
    audio_ms: 0,
    segments: [],
    transcript: ' ',
    signals: null,
    changed_after_completion: false,
  }) as unknown as ItemSessionState;
const view: SessionView = {
  annotator: 'ana',
  current_item: 'i1',
  recording_item: null,
  items: [summaryOfItem(item('i1', null)), summaryOfItem(item('i2', 'Polite'))],
  item_states: { i1: item('i1', null) },
  pending_transcriptions: 0,
  pending_items: {},
  recovered: 'a torn line was set aside',
  finishing_item: null,
  config_changed: false,
  notes: [{ item_id: 'i1', text: 'first', ts: '2026-01-01T00:00:00.000Z' }],
  reviewer: null,
  kind: 'annotator',
  stamp: 10,
};
const patch = (over: Partial<SessionPatch>): SessionPatch => ({
  changed_items: [],
  notes_from: 1,
  added_notes: [],
  current_item: 'i1',
  recording_item: null,
  pending_transcriptions: 0,
  pending_items: {},
  finishing_item: null,
  config_changed: false,
  stamp: 11,
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
    // the changed items are held in full (a later screen shows them without asking), the others as they were
    expect(Object.keys(after.item_states).sort()).toEqual(['i1', 'i3']);
    expect(after.item_states.i1!.final_label).toBe('Neutral');
    expect(after.items[2]).toEqual({
      item_id: 'i3',
      final_label: null,
      label_source: null,
      completed_at: null,
      audio_ms: 0,
      segments: 0,
      has_words: false,
      longest_pause_ms: null,
      changed_after_completion: false,
    });
    expect(after.notes.map((n) => n.text)).toEqual(['first', 'second']);
    expect(after).toMatchObject({
      annotator: 'ana',
      current_item: 'i3',
      pending_transcriptions: 2,
      config_changed: true,
      recovered: 'a torn line was set aside',
    });
    // the view before is left as it was (the store keeps views immutable)
    expect(view.items[0]!.final_label).toBeNull();
    expect(view.item_states.i1!.final_label).toBeNull();
    expect(view.notes).toHaveLength(1);
  });

  it('keeps the unchanged items and notes as the same objects (nothing to re-render)', () => {
    const after = applySessionPatch(view, patch({ changed_items: [item('i2', 'Impolite')] }));
    expect(after.items[0]).toBe(view.items[0]);
    expect(after.item_states.i1).toBe(view.item_states.i1);
    expect(after.notes).toBe(view.notes);
  });

  it('notes a patch carries replace those the page already holds from a view read meanwhile (never twice)', () => {
    const second = { item_id: 'i2', text: 'second', ts: '2026-01-01T00:01:00.000Z' };
    const third = { item_id: 'i2', text: 'third', ts: '2026-01-01T00:02:00.000Z' };
    // the page reloaded the view (first, second) before the patch that adds second and third arrived
    const reloaded = { ...view, notes: [...view.notes, second] };
    expect(applySessionPatch(reloaded, patch({ notes_from: 1, added_notes: [second, third] })).notes.map((n) => n.text)).toEqual([
      'first',
      'second',
      'third',
    ]);
    expect(applySessionPatch(reloaded, patch({ notes_from: 2, added_notes: [] })).notes).toBe(reloaded.notes);
  });

  it('a whole view replaces the one kept; a patch without a view changes nothing', () => {
    expect(isSessionPatch(view)).toBe(false);
    expect(isSessionPatch(patch({}))).toBe(true);
    expect(updateSessionView(null, view)).toBe(view);
    expect(updateSessionView(view, { ...view, annotator: 'ben' })?.annotator).toBe('ben');
    expect(updateSessionView(null, patch({ current_item: 'i2' }))).toBeNull();
    expect(updateSessionView(view, patch({ current_item: 'i2' }))?.current_item).toBe('i2');
    expect(withItem(view, item('i2', null), 11).items[1]!.final_label).toBeNull();
  });

  it('answers that arrive out of order: nothing older than what set an item or the fields wins, nothing is lost', () => {
    const second = { item_id: 'i2', text: 'second', ts: '2026-01-01T00:01:00.000Z' };
    const third = { item_id: 'i3', text: 'third', ts: '2026-01-01T00:02:00.000Z' };
    // the act answered 13 (moved to i3, i1 Neutral, a note) overtook the act answered 12 (on i2: i1 Impolite, i2 Neutral, a note)
    const newer = patch({
      stamp: 13,
      current_item: 'i3',
      changed_items: [item('i1', 'Neutral'), item('i3', null)],
      notes_from: 2,
      added_notes: [third],
    });
    const older = patch({
      stamp: 12,
      current_item: 'i2',
      changed_items: [item('i1', 'Impolite'), item('i2', 'Neutral')],
      notes_from: 1,
      added_notes: [second],
    });
    const after = applySessionPatch(applySessionPatch(view, newer), older);
    expect(after.current_item).toBe('i3');
    expect(after.items.map((i) => [i.item_id, i.final_label])).toEqual([
      ['i1', 'Neutral'],
      ['i2', 'Neutral'],
      ['i3', null],
    ]);
    expect(after.item_states.i1!.final_label).toBe('Neutral');
    expect(after.notes.map((n) => n.text)).toEqual(['first', 'second', 'third']);
    // in order, the same
    const inOrder = applySessionPatch(applySessionPatch(view, older), newer);
    expect({ ...inOrder, held: null }).toEqual({ ...after, held: null });
    // an item event older than the state held of its item changes nothing; a newer one does
    expect(withItem(after, item('i1', 'Polite'), 12).item_states.i1!.final_label).toBe('Neutral');
    expect(withItem(after, item('i1', 'Polite'), 14).item_states.i1!.final_label).toBe('Polite');
    // a patch made before the view is in the view already
    expect(applySessionPatch(view, patch({ stamp: 9, current_item: 'i2', changed_items: [item('i1', 'Impolite')] }))).toBe(view);
  });

  it("an event about the pending transcriptions that overtook an act's answer holds back only its own fields", () => {
    // the act (answer 11) moved to i3; a transcription event made after it (12) arrived first
    const evented = withFields(view, { pending_transcriptions: 1, pending_items: { i1: 1 } }, 12);
    const after = applySessionPatch(evented, patch({ stamp: 11, current_item: 'i3', pending_transcriptions: 0, pending_items: {} }));
    expect(after.current_item).toBe('i3');
    expect(after.pending_transcriptions).toBe(1);
    expect(after.pending_items).toEqual({ i1: 1 });
  });

  it('a whole view older than what the page applied is dropped (the page asks again); a newer one, or another session, replaces it', () => {
    const moved = applySessionPatch(view, patch({ stamp: 12, current_item: 'i2' }));
    const late = { ...view, stamp: 11, current_item: 'i1' };
    expect(staleView(moved, late)).toBe(true);
    expect(updateSessionView(moved, late)).toBe(moved);
    const fresh = { ...view, stamp: 13, current_item: 'i2' };
    expect(updateSessionView(moved, fresh)).toBe(fresh);
    // another annotator's (or reviewer's) session is never stale against this one
    const ben = { ...view, annotator: 'ben', stamp: 5 };
    expect(staleView(moved, ben)).toBe(false);
    expect(updateSessionView(moved, ben)).toBe(ben);
  });
});
