import { describe, expect, it } from 'vitest';
import type { ProjectView } from '../../../core/common/project/projectApi';
import type { SessionView } from '../../../core/common/session/sessionApi';
import type { ItemSessionState } from '../../../core/common/session/itemState';
import { summaryOfItem } from '../../../core/common/session/itemSummary';
import { appReducer, initialAppState, type AppState } from '../../../renderer/src/app/appState';

const project = { name: 'p', schema: { name: 's', ordered: false, labels: [] }, thinkaloud: {}, items: [] } as unknown as ProjectView;
const item = (item_id: string, final_label: string | null): ItemSessionState =>
  ({
    item_id,
    final_label,
    label_source: null,
    completed_at: null,
    audio_ms: 0,
    segments: [],
    transcript: '',
    signals: null,
    changed_after_completion: false,
  }) as unknown as ItemSessionState;
const session: SessionView = {
  annotator: 'ana',
  current_item: 'i1',
  recording_item: null,
  items: [summaryOfItem(item('i1', null))],
  item_states: { i1: item('i1', null) },
  pending_transcriptions: 0,
  pending_items: {},
  recovered: null,
  finishing_item: null,
  config_changed: false,
  notes: [],
  reviewer: null,
  kind: 'annotator',
  stamp: 1,
};

function reduce(state: AppState, ...actions: Parameters<typeof appReducer>[1][]): AppState {
  return actions.reduce(appReducer, state);
}

describe('the app store', () => {
  const start = initialAppState({ deviceId: null, keepTalkingSeconds: 10 });

  it('a reopened session replaces the view of the same annotator; a page without a session, or with another annotator, keeps its own', () => {
    const opened = reduce(start, { type: 'session', session });
    const view = { ...session, items: [], item_states: {}, config_changed: true, stamp: 5 };
    expect(reduce(opened, { type: 'event', event: { type: 'session_reopened', view } }).session).toBe(view);
    // a reopened view older than an answer the page applied is dropped (the store asks for the view again)
    const moved = reduce(opened, {
      type: 'session',
      session: {
        changed_items: [],
        notes_from: 0,
        added_notes: [],
        current_item: 'i2',
        recording_item: null,
        pending_transcriptions: 0,
        pending_items: {},
        finishing_item: null,
        config_changed: false,
        stamp: 6,
      },
    });
    const dropped = reduce(moved, { type: 'event', event: { type: 'session_reopened', view } });
    expect(dropped.session).toBe(moved.session);
    expect(dropped.staleViews).toBe(moved.staleViews + 1);
    // so is a late whole answer; a fresh one replaces the view
    expect(reduce(moved, { type: 'session', session: view }).staleViews).toBe(moved.staleViews + 1);
    const fresh = { ...view, stamp: 7 };
    expect(reduce(moved, { type: 'session', session: fresh }).session).toBe(fresh);
    expect(reduce(start, { type: 'event', event: { type: 'session_reopened', view } })).toBe(start);
    expect(reduce(opened, { type: 'event', event: { type: 'session_reopened', view: { ...view, annotator: 'ben' } } }).session).toBe(
      opened.session,
    );
  });

  it("folds the host's events into the session view: an item replaced or added, recording, pending transcriptions, the item finishing", () => {
    const s = reduce(
      start,
      { type: 'session', session },
      { type: 'event', event: { type: 'item', item: item('i1', 'Polite'), stamp: 2 } },
      { type: 'event', event: { type: 'item', item: item('i2', null), stamp: 3 } },
      { type: 'event', event: { type: 'recording', item_id: 'i2', stamp: 4 } },
      { type: 'event', event: { type: 'transcription', pending: 2, items: { i2: 2 }, stamp: 5 } },
      { type: 'event', event: { type: 'finishing', item_id: 'i2', stamp: 6 } },
      // an event older than what set the fields changes nothing
      { type: 'event', event: { type: 'recording', item_id: null, stamp: 3 } },
    );
    expect(s.session).toMatchObject({
      items: [{ item_id: 'i1', final_label: 'Polite' }, { item_id: 'i2' }],
      recording_item: 'i2',
      pending_transcriptions: 2,
      pending_items: { i2: 2 },
      finishing_item: 'i2',
    });
  });

  it('session events before a session is open change nothing; an error event reaches the banner; export progress the export', () => {
    expect(reduce(start, { type: 'event', event: { type: 'item', item: item('i1', 'x'), stamp: 2 } })).toBe(start);
    expect(reduce(start, { type: 'event', event: { type: 'error', message: 'disk full' } }).error).toBe('disk full');
    expect(
      reduce(start, { type: 'exportStarted' }, { type: 'event', event: { type: 'export_progress', done: 3, total: 9 } }).exporting,
    ).toMatchObject({ busy: true, progress: { done: 3, total: 9 } });
    expect(reduce(start, { type: 'event', event: { type: 'partial', item_id: 'i1', utterance: 0, text: 'x', speculative: false } })).toBe(
      start,
    );
  });

  it('another project starts again from the start screen: no session, no export summary, the Label tab, no error', () => {
    const busy = reduce(
      start,
      { type: 'session', session },
      { type: 'tab', tab: 'settings' },
      { type: 'error', message: 'x' },
      { type: 'exportFinished', summary: { file: 'f' } as never },
    );
    const s = reduce(busy, { type: 'projectOpened', project });
    expect(s).toMatchObject({ project, session: null, tab: 'label', error: null, choosingProject: false, exporting: { done: null } });
    expect(s.keepTalkingSeconds).toBe(10);
  });
});
