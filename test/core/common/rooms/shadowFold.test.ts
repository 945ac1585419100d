import { describe, expect, it } from 'vitest';
import { computeAudioSignals, energyPauseSpans } from '../../../../core/common/signals/audioSignals';
import { LivePauseWatch } from '../../../../core/common/rooms/livePauses';
import { RoomRuleError } from '../../../../core/common/rooms/roomFold';
import { checkShadowFeed, type ShadowFeed } from '../../../../core/common/rooms/shadowFeed';
import { SHADOW_EVENT_VERSIONS, type ShadowEntry, type ShadowEvent } from '../../../../core/common/rooms/shadowEvents';
import {
  applyShadowEvent,
  decideAudioShared,
  decideCloseShadow,
  decideExpertGone,
  decideFeed,
  decidePause,
  decidePractice,
  decideTraineeJoin,
  foldShadowRoom,
  type ShadowContext,
  type ShadowState,
} from '../../../../core/common/rooms/shadowFold';
import { shadowMetrics, shadowView, type ShadowPiece, type ShadowViewer } from '../../../../core/common/rooms/shadowViews';

const LABELS = ['Polite', 'Impolite', 'Neutral'];
const ITEMS = new Map([
  ['i1', { text: 'Thanks a lot, that helps!' }],
  ['i2', { text: 'Whatever.', context: 'Can you help me?' }],
  ['i3', { text: 'Fine, I guess.' }],
]);
const context: ShadowContext = {
  items: ITEMS,
  // the commit-phrase finder, reduced to what the tests say
  commitSpans: (text) => [...text.matchAll(/I label this \w+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length })),
};

/** A shadow room in memory with a clock: `write` logs what a rule returned, one second after the event before. */
function room(expert: string | null = 'ana') {
  let state: ShadowState | null = null;
  const events: ShadowEvent[] = [];
  let seq = 0;
  const clock = () => Date.UTC(2025, 0, 1, 10, 0, seq);
  const write = (entries: readonly ShadowEntry[]): ShadowEvent[] =>
    entries.map((entry) => {
      seq++;
      const event = {
        v: SHADOW_EVENT_VERSIONS[entry.type],
        seq,
        ts: new Date(clock()).toISOString(),
        type: entry.type,
        data: entry.data,
      } as ShadowEvent;
      state = applyShadowEvent(state, event);
      events.push(event);
      return event;
    });
  write([{ type: 'shadow_opened', data: { code: 'K7QX3M', project: 'demo', expert, labels: LABELS, level: 'nominal', max_members: 12 } }]);
  const s = () => state!;
  const feed = (f: Exclude<ShadowFeed, { kind: 'audio' }>) => write(decideFeed(s(), f, context));
  const join = (name: string) => {
    const id = `m-${name}`;
    write([{ type: 'trainee_joined', data: decideTraineeJoin(s(), name, id, 'f'.repeat(64)) }]);
    return id;
  };
  const practise = (id: string, itemId: string, label: string | null) =>
    write([{ type: 'practice_vote', data: decidePractice(s(), id, itemId, label, clock() + 1000) }]);
  const show = (itemId: string, extra: Partial<Extract<ShadowFeed, { kind: 'item' }>> = {}) =>
    feed({
      kind: 'item',
      item_id: itemId,
      prior: null,
      utterances: [],
      commitments: [],
      diagnostics: [],
      selection: null,
      reasoning: null,
      recording: false,
      completed: false,
      ...extra,
    });
  const label = (itemId: string, labelName: string, blind: string, source: 'voice' | 'key' = 'voice') =>
    feed({
      kind: 'label',
      item_id: itemId,
      label: labelName,
      source,
      quote: source === 'voice' ? `I label this ${labelName.toLowerCase()}` : null,
      audio_ms: 1200,
      blind_label: blind,
      final_label: labelName,
    });
  const view = (viewer: ShadowViewer) => shadowView(s(), viewer, shadowMetrics(s(), 200), ['um']);
  return { s, events, write, feed, join, practise, show, label, view };
}

const text = (pieces: readonly ShadowPiece[] | null | undefined) =>
  (pieces ?? []).map((p) => (p.kind === 'hidden' ? '▮' : p.text)).join('');

describe('shadow room rules (pure)', () => {
  it("shows what the expert's feed says, on the item she is on; another annotator's feed is refused", () => {
    const r = room();
    expect(() => r.show('i1')).toThrow(/must name the expert's session first/);
    expect(() => decideFeed(r.s(), { kind: 'expert', annotator: 'ben', via: 'ingest' }, context)).toThrow(/shadows ana, not ben/);
    r.feed({ kind: 'expert', annotator: 'Ana', via: 'ingest' });
    expect(() => decideFeed(r.s(), { kind: 'expert', annotator: 'ana', via: 'app' }, context)).toThrow(/fed by Ana's session already/);
    expect(() => r.show('nope')).toThrow(/not in the project's items/);
    // the text comes from the project's items, never from the feed
    r.show('i2', { selection: { start: 0, end: 8, quote: 'Whatever' }, recording: true });
    expect(r.events.slice(-3).map((e) => e.type)).toEqual(['item_shown', 'text_selected', 'recording']);
    expect(r.s().items.get('i2')).toMatchObject({ text: 'Whatever.', context: 'Can you help me?', recording: true });
    // the same item again shows nothing new; a selection that changes nothing logs nothing
    expect(
      decideFeed(
        r.s(),
        {
          kind: 'item',
          item_id: 'i2',
          prior: null,
          utterances: [],
          commitments: [],
          diagnostics: [],
          selection: null,
          reasoning: null,
          recording: true,
          completed: false,
        },
        context,
      ),
    ).toEqual([]);
    expect(decideFeed(r.s(), { kind: 'selection', item_id: 'i2', span: { start: 0, end: 8, quote: 'Whatever' } }, context)).toEqual([]);
    r.feed({ kind: 'partial', item_id: 'i2', utterance: 0, text: ' Hmm, rude. I label this impolite' });
    expect(r.s().items.get('i2')!.partial!.hidden).toEqual([{ start: 12, end: 33 }]);
    r.feed({
      kind: 'utterance',
      item_id: 'i2',
      utterance: 0,
      segments: [{ t0_ms: 0, t1_ms: 900, text: ' Hmm, rude.' }],
      commitments: [],
      diagnostics: [],
    });
    expect(r.s().items.get('i2')!.partial).toBeNull();
    // opening another item ends live view of the one before
    r.show('i1');
    expect(r.events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ['item_left', { item_id: 'i2', reason: 'item_changed' }],
      ['item_shown', { item_id: 'i1', text: 'Thanks a lot, that helps!', context: null, prior: null }],
    ]);
    // a final landing on the item she left is logged to it; a partial of it is not shown
    r.feed({
      kind: 'utterance',
      item_id: 'i2',
      utterance: 1,
      segments: [{ t0_ms: 900, t1_ms: 1500, text: ' Really.' }],
      commitments: [],
      diagnostics: [],
    });
    expect(r.s().items.get('i2')!.utterances.size).toBe(2);
    expect(decideFeed(r.s(), { kind: 'partial', item_id: 'i2', utterance: 2, text: 'x' }, context)).toEqual([]);
  });

  it("a trainee's practice label hides the expert's labels until given; it is once per item and only while the item is on view", () => {
    const r = room();
    r.feed({ kind: 'expert', annotator: 'ana', via: 'app' });
    const ben = r.join('ben');
    const cy = r.join('cy');
    r.show('i1');
    r.feed({ kind: 'partial', item_id: 'i1', utterance: 0, text: ' Nice. I label this polite' });
    r.feed({
      kind: 'utterance',
      item_id: 'i1',
      utterance: 0,
      segments: [{ t0_ms: 0, t1_ms: 1800, text: ' Um, nice. I label this polite.' }],
      commitments: [{ start: 11, end: 30, label: 'Polite' }],
      diagnostics: [],
    });
    r.label('i1', 'Polite', 'Polite');
    const before = r.view({ role: 'trainee', member_id: ben });
    expect(before.current!.expert).toEqual({ shown: false, has_labelled: true });
    expect(text(before.current!.transcript)).toBe(' Um, nice. ▮.');
    expect(before.current!.transcript.some((p) => p.kind === 'filler')).toBe(true);
    expect(JSON.stringify(before.current)).not.toMatch(/Polite|final_label|"acts"/);
    expect(JSON.stringify(before)).not.toMatch(/label this polite/i);
    // the expert sees herself
    expect(r.view({ role: 'expert' }).current!.expert).toMatchObject({ shown: true, final_label: 'Polite' });

    expect(() => decidePractice(r.s(), ben, 'i1', 'Rude', Date.now())).toThrow(/not one of the labels/);
    r.practise(ben, 'i1', 'Impolite');
    expect(() => decidePractice(r.s(), ben, 'i1', 'Polite', Date.now())).toThrow(/is given; it is final/);
    const after = r.view({ role: 'trainee', member_id: ben });
    expect(after.current!.expert).toMatchObject({
      shown: true,
      blind_label: 'Polite',
      final_label: 'Polite',
      acts: [{ label: 'Polite', source: 'voice', quote: 'I label this polite' }],
    });
    expect(text(after.current!.transcript)).toBe(' Um, nice. I label this polite.');
    // shown at 10:00:05, answered at 10:00:09
    expect(after.current!.practice.mine).toEqual({ label: 'Impolite', ms: 4000 });
    expect(r.events.at(-1)!.data).toMatchObject({ member_id: ben, item_id: 'i1', label: 'Impolite', expert_had_labelled: true });
    // cy sees that ben answered, never what; the expert neither, while the item is on view
    const cyView = r.view({ role: 'trainee', member_id: cy });
    expect(cyView.current!.practice).toEqual({ mine: null, answered: ['ben'] });
    expect(JSON.stringify({ ...cyView, labels: [] })).not.toContain('Impolite');
    expect(r.view({ role: 'expert' }).current!.practice).toEqual({ answered: ['ben'] });
    // a skip also shows her label, and counts as no label
    r.practise(cy, 'i1', null);
    expect(r.view({ role: 'trainee', member_id: cy }).current!.expert.shown).toBe(true);

    // she moves on: i1's practice is over, everyone's answers are shown
    r.show('i2');
    expect(() => decidePractice(r.s(), ben, 'i1', 'Polite', Date.now())).toThrow(/has left "i1": its practice is over/);
    expect(() => decidePractice(r.s(), ben, 'i9', 'Polite', Date.now())).toThrow(/has not shown an item "i9"/);
  });

  it('agreement of each trainee with the expert: per item, α over the session with intervals, and the items where trainees diverged most', () => {
    const r = room();
    r.feed({ kind: 'expert', annotator: 'ana', via: 'ingest' });
    const ben = r.join('ben');
    const cy = r.join('cy');
    const plan: Array<[string, string, string, string | null, string | null]> = [
      // item, expert blind, expert final, ben, cy
      ['i1', 'Polite', 'Polite', 'Polite', 'Impolite'],
      ['i2', 'Neutral', 'Impolite', 'Impolite', 'Neutral'],
      ['i3', 'Neutral', 'Neutral', 'Neutral', null],
    ];
    for (const [item, blind, final, b, c] of plan) {
      r.show(item);
      r.practise(ben, item, b);
      r.label(item, blind, blind, 'key');
      if (final !== blind) r.label(item, final, blind, 'voice');
      r.practise(cy, item, c);
    }
    // the item on view is not counted before its practice is over
    expect(shadowMetrics(r.s(), 200).items).toBe(2);
    r.feed({ kind: 'left' });
    expect(r.events.slice(-2).map((e) => e.type)).toEqual(['item_left', 'expert_left']);
    const m = shadowMetrics(r.s(), 500, 3);
    expect(m.items).toBe(3);
    const benRow = m.trainees.find((t) => t.name === 'ben')!;
    expect(benRow).toMatchObject({ answered: 3, skipped: 0, agree_final: 3, agree_blind: 2, alpha_final: 1 });
    expect(benRow.alpha_blind).toBeLessThan(1);
    expect(benRow.ci95_final).toEqual([1, 1]);
    const cyRow = m.trainees.find((t) => t.name === 'cy')!;
    expect(cyRow).toMatchObject({ answered: 2, skipped: 1, agree_final: 0, agree_blind: 1 });
    expect(m.per_item.find((p) => p.item_id === 'i2')).toEqual({
      item_id: 'i2',
      expert_blind: 'Neutral',
      expert_final: 'Impolite',
      answers: { ben: 'Impolite', cy: 'Neutral' },
      answered: 2,
      agree: 1,
      diverged: 1,
    });
    expect(m.diverged_most.map((d) => [d.item_id, d.share])).toEqual([
      ['i1', 0.5],
      ['i2', 0.5],
    ]);
    // once over, the last item's answers are shown to every trainee
    expect(r.view({ role: 'trainee', member_id: cy }).current!.practice.answers).toEqual({ ben: 'Neutral', cy: null });
    // the log folds back to the same state
    expect(shadowMetrics(foldShadowRoom(r.events), 500, 3)).toEqual(m);
  });

  it('the agreement is recomputed only when what it counts changes: not for her label or an answer on the live item', () => {
    const r = room();
    r.feed({ kind: 'expert', annotator: 'ana', via: 'ingest' });
    const ben = r.join('ben');
    const cy = r.join('cy');
    for (const [item, label] of [
      ['i1', 'Polite'],
      ['i2', 'Impolite'],
      ['i3', 'Neutral'],
    ] as const) {
      r.show(item);
      r.practise(ben, item, label);
      r.label(item, label, label, 'key');
      r.practise(cy, item, 'Polite');
    }
    // she goes back to i1 and changes her label: their answers stand, hers is new
    r.show('i1');
    r.label('i1', 'Neutral', 'Polite', 'voice');
    r.feed({ kind: 'left' });
    let before = foldShadowRoom(r.events.slice(0, 1));
    for (let k = 2; k <= r.events.length; k++) {
      const after = foldShadowRoom(r.events.slice(0, k));
      const event = r.events[k - 1]!;
      // the cache keyed by the version never goes stale
      if (after.metrics_version === before.metrics_version)
        expect(shadowMetrics(after, 50), `${event.seq} ${event.type}`).toEqual(shadowMetrics(before, 50));
      if (event.type === 'label_act' || event.type === 'practice_vote')
        expect(after.metrics_version, `${event.seq} ${event.type}`).toBe(before.metrics_version);
      before = after;
    }
  });

  it('names: the norming rules, and nobody passes for the expert', () => {
    const r = room('Ana');
    expect(() => decideTraineeJoin(r.s(), 'Аna', 'x', 'f'.repeat(64))).toThrow(/looks like, the expert's name/);
    expect(() => decideTraineeJoin(r.s(), 'EXPERT', 'x', 'f'.repeat(64))).toThrow(/reads as "expert"/);
    expect(() => decideTraineeJoin(r.s(), 'Lead', 'x', 'f'.repeat(64))).toThrow(/reads as "lead"/);
    expect(() => decideTraineeJoin(r.s(), 'be\u202en', 'x', 'f'.repeat(64))).toThrow(/invisible or text-direction/);
    r.join('ben');
    expect(() => decideTraineeJoin(r.s(), 'Bеn', 'x', 'f'.repeat(64))).toThrow(RoomRuleError);
  });

  it('closing ends live view first; a closed room refuses everything; audio sharing is logged only when it changes', () => {
    const r = room();
    r.feed({ kind: 'expert', annotator: 'ana', via: 'app' });
    r.show('i1');
    expect(decideAudioShared(r.s(), false)).toBeNull();
    r.write([{ type: 'audio_shared', data: decideAudioShared(r.s(), true)! }]);
    expect(r.s().audio_shared).toBe(true);
    r.write(decideCloseShadow(r.s()));
    expect(r.events.slice(-2).map((e) => e.data)).toEqual([{ item_id: 'i1', reason: 'room_closed' }, {}]);
    expect(r.s().audio_shared).toBe(false);
    expect(() => r.show('i2')).toThrow(/the room is closed/);
    expect(() => decideTraineeJoin(r.s(), 'ben', 'x', 'f'.repeat(64))).toThrow(/closed/);
    expect(() => decideCloseShadow(r.s())).toThrow(/closed already/);
    expect(decideExpertGone(r.s(), 'feed_lost')).toEqual([]);
    expect(decidePause(r.s(), 'i1', { start_ms: 0, ms: 300, ended: false })).toEqual([]);
  });

  it('a lost feed ends live view; a pause is shown on the item on view and told again while it goes on', () => {
    const r = room(null);
    r.feed({ kind: 'expert', annotator: 'ana', via: 'ingest' });
    expect(r.s().expert).toBe('ana');
    r.show('i1');
    r.write(decidePause(r.s(), 'i1', { start_ms: 1000, ms: 300, ended: false }));
    r.write(decidePause(r.s(), 'i1', { start_ms: 1000, ms: 1300, ended: false }));
    r.write(decidePause(r.s(), 'i1', { start_ms: 1000, ms: 1720, ended: true }));
    expect(r.s().items.get('i1')!.pauses).toEqual([{ start_ms: 1000, ms: 1720, ended: true }]);
    expect(decidePause(r.s(), 'i2', { start_ms: 0, ms: 300, ended: false })).toEqual([]);
    // a silence still going on when the recording stops is not a pause
    r.feed({ kind: 'recording', item_id: 'i1', on: true });
    r.write(decidePause(r.s(), 'i1', { start_ms: 4000, ms: 300, ended: false }));
    expect(r.s().items.get('i1')!.pauses).toHaveLength(2);
    r.feed({ kind: 'recording', item_id: 'i1', on: false });
    expect(r.s().items.get('i1')!.pauses).toEqual([{ start_ms: 1000, ms: 1720, ended: true }]);
    // the same partial text again shows nothing new
    r.feed({ kind: 'partial', item_id: 'i1', utterance: 3, text: ' so' });
    expect(decideFeed(r.s(), { kind: 'partial', item_id: 'i1', utterance: 3, text: ' so' }, context)).toEqual([]);
    r.write(decideExpertGone(r.s(), 'feed_lost'));
    expect(r.events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ['item_left', { item_id: 'i1', reason: 'expert_left' }],
      ['expert_left', { reason: 'feed_lost' }],
    ]);
    expect(r.view({ role: 'expert' }).expert).toEqual({ name: 'ana', present: false });
  });

  it('a feed record from another process is checked field by field', () => {
    const pcm = () => new Float32Array(0);
    // every kind of record crosses the wire as it was sent
    const records: ShadowFeed[] = [
      { kind: 'expert', annotator: 'ana', via: 'ingest' },
      {
        kind: 'item',
        item_id: 'i1',
        prior: { blind_label: 'Neutral', final_label: 'Polite', label_source: 'key' },
        utterances: [{ utterance: 0, segments: [{ t0_ms: 0, t1_ms: 900, text: ' Hi.' }] }],
        commitments: [{ start: 1, end: 3, label: 'Polite' }],
        diagnostics: [{ start: 0, end: 2, kind: 'negated', message: 'not' }],
        selection: { start: 0, end: 6, quote: 'Thanks' },
        reasoning: { steps: ['a', 'b'], model_label: null },
        recording: true,
        completed: false,
      },
      { kind: 'recording', item_id: 'i1', on: false },
      { kind: 'partial', item_id: 'i1', utterance: 2, text: ' so' },
      { kind: 'utterance', item_id: 'i1', utterance: 2, segments: [], commitments: [], diagnostics: [] },
      {
        kind: 'label',
        item_id: 'i1',
        label: 'Polite',
        source: 'click',
        quote: null,
        audio_ms: null,
        blind_label: 'Neutral',
        final_label: 'Polite',
      },
      { kind: 'selection', item_id: 'i1', span: { start: 0, end: 6, quote: 'Thanks' } },
      { kind: 'reasoning', item_id: 'i1', steps: ['x'], model_label: 'Polite' },
      { kind: 'completed', item_id: 'i1' },
      { kind: 'left' },
    ];
    for (const record of records) expect(checkShadowFeed(JSON.parse(JSON.stringify(record)), pcm), record.kind).toEqual(record);
    expect(checkShadowFeed({ kind: 'partial', item_id: 'i1', utterance: 0, text: 'hi' }, pcm)).toEqual({
      kind: 'partial',
      item_id: 'i1',
      utterance: 0,
      text: 'hi',
    });
    expect(() => checkShadowFeed({ kind: 'partial', item_id: 'i1', utterance: -1, text: 'hi' }, pcm)).toThrow(
      /utterance must be a whole number/,
    );
    expect(() =>
      checkShadowFeed(
        {
          kind: 'label',
          item_id: 'i1',
          label: 'Polite',
          source: 'trainee',
          quote: null,
          audio_ms: null,
          blind_label: 'Polite',
          final_label: 'Polite',
        },
        pcm,
      ),
    ).toThrow(/source must be one of/);
    expect(() => checkShadowFeed({ kind: 'write_label' }, pcm)).toThrow(/kind "write_label" is not a feed record/);
    expect(() => checkShadowFeed([], pcm)).toThrow(/must be a JSON object/);
    expect(checkShadowFeed({ kind: 'selection', item_id: 'i1', span: null }, pcm)).toEqual({
      kind: 'selection',
      item_id: 'i1',
      span: null,
    });
  });
});

describe('live pauses', () => {
  const options = { chunk_seconds: 1, silence_threshold_dbfs: -40, min_pause_ms: 300, long_pause_ms: 2000 };
  /** speech (a 0.3-amplitude tone) and silence, in ms */
  function audio(parts: Array<[boolean, number]>): Float32Array {
    const out = new Float32Array(parts.reduce((n, [, ms]) => n + ms * 16, 0));
    let at = 0;
    for (const [speech, ms] of parts) {
      for (let i = 0; i < ms * 16; i++) out[at + i] = speech ? 0.3 * Math.sin((2 * Math.PI * 220 * i) / 16000) : 0;
      at += ms * 16;
    }
    return out;
  }

  it('ends exactly the pauses the energy signals count, telling each as it goes on', () => {
    const pcm = audio([
      [false, 400],
      [true, 600],
      [false, 2500],
      [true, 400],
      [false, 200],
      [true, 300],
      [false, 700],
      [true, 200],
      [false, 900],
    ]);
    const watch = new LivePauseWatch({ sampleRate: 16000, silenceThresholdDbfs: -40, minPauseMs: 300 }, 16000);
    const told = [];
    for (let i = 0; i < pcm.length; i += 800) told.push(...watch.push(pcm.subarray(i, i + 800)));
    const ended = told.filter((p) => p.ended);
    // on the item's audio: this recording began at 1 s
    expect(ended.map((p) => ({ t0_ms: p.start_ms - 1000, t1_ms: p.start_ms - 1000 + p.ms }))).toEqual(
      energyPauseSpans(pcm, 16000, options),
    );
    expect(ended.length).toBe(computeAudioSignals(pcm, 16000, options).pauses.count);
    // the 2.5 s pause was told at 300 ms, 1300 ms and 2300 ms, then with its length
    expect(told.filter((p) => p.start_ms === 2000).map((p) => [p.ms, p.ended])).toEqual([
      [300, false],
      [1300, false],
      [2300, false],
      [2500, true],
    ]);
    // trailing silence is not a pause: the last 900 ms was told going on, never ended
    expect(told.at(-1)).toEqual({ start_ms: 1000 + 5300, ms: 300, ended: false });
    expect(watch.nextSample).toBe(16000 + pcm.length);
  });
});
