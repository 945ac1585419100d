import { describe, expect, it } from 'vitest';
import type { LabelRecord } from '../../../../core/common/agreement/agreementAnalysis';
import type { AdjudicationEvent, AdjudicationPayload } from '../../../../core/common/adjudication/adjudicationEvents';
import { ADJUDICATION_EVENT_VERSIONS } from '../../../../core/common/adjudication/adjudicationEvents';
import {
  assignedItems,
  assignedItemsFirst,
  currentDecision,
  emptyAdjudicationState,
  foldAdjudicationLog,
  type AdjudicationState,
} from '../../../../core/common/adjudication/adjudicationFold';
import { adjudicationQueue, pairwiseAgreement, shownAnnotators } from '../../../../core/common/adjudication/adjudicationQueue';
import { AdjudicationRefusal, decideAdjudication, type AdjudicationCommand } from '../../../../core/common/adjudication/adjudicationRules';
import { defaultAdjudication, type AdjudicationConfig } from '../../../../core/common/project/projectConfig';

const LABELS = ['Polite', 'Impolite', 'Neutral'];
const rec = (item_id: string, annotator: string, final: string, blind = final): LabelRecord => ({
  item_id,
  annotator,
  blind_label: blind,
  final_label: final,
});

// i1: 3 different (agreement 0), i2: 2–1 (1/3), i3: unanimous, i4: one label only, i5: 1–1 (0), i6: nobody
const records: LabelRecord[] = [
  rec('i1', 'ana', 'Polite'),
  rec('i1', 'ben', 'Impolite'),
  rec('i1', 'cleo', 'Neutral'),
  rec('i2', 'ana', 'Polite'),
  rec('i2', 'ben', 'Polite', 'Neutral'),
  rec('i2', 'cleo', 'Impolite'),
  rec('i3', 'ana', 'Neutral'),
  rec('i3', 'ben', 'Neutral'),
  rec('i3', 'cleo', 'Neutral'),
  rec('i4', 'ana', 'Polite'),
  rec('i5', 'ana', 'Polite'),
  rec('i5', 'cleo', 'Impolite'),
];
const ITEMS = ['i2', 'i1', 'i3', 'i4', 'i5', 'i6'];

/** A log as the node writer would make it, from payloads the rules returned. */
function logOf(adjudicator: string, payloads: AdjudicationPayload[], start = '2026-01-01T00:00:00.000Z'): AdjudicationEvent[] {
  const t0 = Date.parse(start);
  return [{ type: 'adjudication_started' as const, data: { adjudicator, project: 'p' } }, ...payloads].map(
    (p, i) =>
      ({
        v: ADJUDICATION_EVENT_VERSIONS[p.type],
        seq: i + 1,
        ts: new Date(t0 + i * 1000).toISOString(),
        type: p.type,
        data: p.data,
      }) as AdjudicationEvent,
  );
}

/** Runs commands one after another the way the host does: queue, decide, append, fold again. */
function run(
  commands: AdjudicationCommand[],
  config: AdjudicationConfig = defaultAdjudication(),
  seen: Record<string, string[]> = {},
): { state: AdjudicationState; payloads: AdjudicationPayload[] } {
  const payloads: AdjudicationPayload[] = [];
  let state = emptyAdjudicationState();
  for (const command of commands) {
    const queue = adjudicationQueue(ITEMS, records, config, state);
    payloads.push(
      ...decideAdjudication(
        state,
        { adjudicator: 'lead', labels: LABELS, config, queue, hasSeen: (a, i) => (seen[a] ?? []).includes(i) },
        command,
      ),
    );
    state = foldAdjudicationLog(emptyAdjudicationState(), logOf('lead', payloads), 'lead.jsonl');
  }
  return { state, payloads };
}

const decide = (
  item_id: string,
  label: string,
  more: Partial<Extract<AdjudicationCommand, { kind: 'decide' }>> = {},
): AdjudicationCommand => ({ kind: 'decide', item_id, label, confidence: 'high', causes: ['edge case'], ...more });

describe('adjudication queue', () => {
  it('pairwise agreement: unanimous 1, a 2–1 split 1/3, all different 0, one label none', () => {
    expect([
      pairwiseAgreement(['a', 'a', 'a']),
      pairwiseAgreement(['a', 'a', 'b']),
      pairwiseAgreement(['a', 'b', 'c']),
      pairwiseAgreement(['a']),
    ]).toEqual([1, 1 / 3, 0, null]);
  });

  it('queues disagreements lowest agreement first (equal: item order), accepts unanimous items, lists too few apart', () => {
    const q = adjudicationQueue(ITEMS, records, defaultAdjudication(), emptyAdjudicationState());
    expect(q.queue.map((s) => [s.item_id, s.agreement])).toEqual([
      ['i1', 0],
      ['i5', 0],
      ['i2', 1 / 3],
    ]);
    expect(q.accepted.map((s) => [s.item_id, s.gold_label, s.gold_source])).toEqual([['i3', 'Neutral', 'unanimous']]);
    expect(q.too_few.map((s) => s.item_id)).toEqual(['i4']);
    expect(q.items.get('i6')!.status).toBe('unlabelled');
    expect(q.counts).toEqual({ items: 6, unanimous: 1, majority: 0, decided: 0, unresolved: 5, queued: 3, too_few: 1, unlabelled: 1 });
    expect(q.queue[2]!.blind_labels).toContainEqual({ annotator: 'ben', label: 'Neutral' });
  });

  it('accept_unanimous off queues unanimous items; min_annotators 3 sets 1–1 items apart; a threshold of 1/3 accepts the 2–1 majority', () => {
    const strict = adjudicationQueue(
      ITEMS,
      records,
      { ...defaultAdjudication(), accept_unanimous: false, min_annotators: 3 },
      emptyAdjudicationState(),
    );
    expect(strict.queue.map((s) => s.item_id)).toEqual(['i1', 'i2', 'i3']);
    expect(strict.too_few.map((s) => s.item_id)).toEqual(['i4', 'i5']);
    const lenient = adjudicationQueue(
      ['i2'],
      records.filter((r) => r.item_id === 'i2'),
      { ...defaultAdjudication(), threshold: 0.3 },
      emptyAdjudicationState(),
    );
    expect(lenient.accepted.map((s) => [s.item_id, s.gold_label, s.gold_source])).toEqual([['i2', 'Polite', 'majority']]);
  });
});

describe('queue order by uncertainty', () => {
  // A: 1–1 (agreement 0, vote shares ½ ½ 0); B: 2–1–1 of four (agreement 1/6, shares ½ ¼ ¼); C: unanimous
  const study: LabelRecord[] = [
    rec('A', 'ana', 'Polite'),
    rec('A', 'ben', 'Impolite'),
    rec('B', 'ana', 'Polite'),
    rec('B', 'ben', 'Polite'),
    rec('B', 'cleo', 'Impolite'),
    rec('B', 'dan', 'Neutral'),
    rec('C', 'ana', 'Neutral'),
    rec('C', 'ben', 'Neutral'),
  ];
  const entropy = (...p: number[]) => -p.reduce((h, x) => h + x * Math.log(x), 0) / Math.log(3);
  const queueOf = (order: 'agreement' | 'uncertainty') =>
    adjudicationQueue(
      ['A', 'B', 'C', 'D'],
      study,
      { ...defaultAdjudication(), order, label_model: 'majority' },
      emptyAdjudicationState(),
      LABELS,
    );

  it("gives each labelled item the model's posterior entropy over the labels (majority vote: its vote shares), none to an unlabelled one", () => {
    const q = queueOf('agreement');
    expect(q.items.get('A')!.uncertainty).toMatchObject({ model: 'majority', label: 'Polite', probability: 0.5 });
    expect(q.items.get('A')!.uncertainty!.entropy).toBeCloseTo(entropy(0.5, 0.5), 3);
    expect(q.items.get('B')!.uncertainty!.entropy).toBeCloseTo(entropy(0.5, 0.25, 0.25), 3);
    expect(q.items.get('C')!.uncertainty!.entropy).toBe(0);
    expect(q.items.get('D')!.uncertainty).toBeNull();
    // without the schema's labels no model is fitted
    expect(adjudicationQueue(['A'], study, defaultAdjudication(), emptyAdjudicationState()).items.get('A')!.uncertainty).toBeNull();
  });

  it('order agreement: lowest agreement first; order uncertainty: least certain first', () => {
    expect(queueOf('agreement').queue.map((s) => s.item_id)).toEqual(['A', 'B']);
    expect(queueOf('uncertainty').queue.map((s) => s.item_id)).toEqual(['B', 'A']);
  });

  it('under order agreement, equal agreement puts the less certain item first (the item order would put it second)', () => {
    // E: 2–2 of four (agreement 1/3, shares ½ ½), F: 2–1 (agreement 1/3, shares ⅔ ⅓): F comes first in item order
    const tied: LabelRecord[] = [
      rec('F', 'ana', 'Polite'),
      rec('F', 'ben', 'Polite'),
      rec('F', 'cleo', 'Impolite'),
      rec('E', 'ana', 'Polite'),
      rec('E', 'ben', 'Polite'),
      rec('E', 'cleo', 'Impolite'),
      rec('E', 'dan', 'Impolite'),
    ];
    const q = adjudicationQueue(['F', 'E'], tied, { ...defaultAdjudication(), label_model: 'majority' }, emptyAdjudicationState(), LABELS);
    expect(q.queue.map((s) => [s.item_id, s.agreement])).toEqual([
      ['E', 1 / 3],
      ['F', 1 / 3],
    ]);
  });
});

describe('adjudication decisions', () => {
  it('logs the gold label, the annotators it adopts, confidence, causes (configured spelling), rationale and flag', () => {
    const { payloads, state } = run([
      decide('i2', 'polite', {
        causes: ['Guideline gap', 'edge case'],
        rationale: ' ben changed his mind ',
        guideline_flag: 'say what a hedge is',
      }),
    ]);
    expect(payloads).toEqual([
      {
        type: 'decision_recorded',
        data: {
          item_id: 'i2',
          label: 'Polite',
          adopted: ['ana', 'ben'],
          confidence: 'high',
          causes: ['guideline gap', 'edge case'],
          rationale: { kind: 'typed', text: 'ben changed his mind' },
          guideline_flag: 'say what a hedge is',
          room: null,
          revises: null,
          labels_seen: [
            { annotator: 'ana', label: 'Polite' },
            { annotator: 'ben', label: 'Polite' },
            { annotator: 'cleo', label: 'Impolite' },
          ],
        },
      },
    ]);
    const q = adjudicationQueue(ITEMS, records, defaultAdjudication(), state);
    expect(q.queue.map((s) => s.item_id)).toEqual(['i1', 'i5']);
    expect(q.decided.map((s) => [s.item_id, s.gold_label, s.gold_source])).toEqual([['i2', 'Polite', 'adjudicated']]);
  });

  it('an override adopts nobody', () => {
    const { payloads } = run([decide('i1', 'Neutral'), decide('i5', 'Neutral')]);
    expect(payloads.map((p) => (p.type === 'decision_recorded' ? p.data.adopted : null))).toEqual([['cleo'], []]);
  });

  it('a revision is a new decision naming the one it replaces; the history keeps both; the same decision again logs nothing', () => {
    const { state, payloads } = run([
      decide('i1', 'Polite'),
      decide('i1', 'Polite'),
      decide('i1', 'Impolite', { confidence: 'low' }),
      decide('i1', 'Impolite', { confidence: 'low' }),
    ]);
    expect(payloads).toHaveLength(2);
    const history = state.decisions.get('i1')!;
    expect(history.map((d) => [d.label, d.confidence, d.seq, d.revises])).toEqual([
      ['Polite', 'high', 2, null],
      ['Impolite', 'low', 3, { adjudicator: 'lead', seq: 2 }],
    ]);
    expect(currentDecision(state, 'i1')!.label).toBe('Impolite');
  });

  it('refuses an unknown label, confidence or cause, no cause, and items not in the queue, each in one line', () => {
    const refusal = (command: AdjudicationCommand): string => {
      try {
        run([command]);
      } catch (e) {
        expect(e).toBeInstanceOf(AdjudicationRefusal);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal(decide('i1', 'Rude'))).toBe('"Rude" is not one of the labels (Polite, Impolite, Neutral)');
    expect(refusal(decide('i1', 'Polite', { confidence: 'sure' }))).toBe('confidence "sure" is not one of high, medium, low');
    expect(refusal(decide('i1', 'Polite', { causes: ['sarcasm'] }))).toMatch(
      /^cause "sarcasm" is not one of the causes \(ambiguous text, /,
    );
    expect(refusal(decide('i1', 'Polite', { causes: [] }))).toMatch(/^give at least one cause/);
    expect(refusal(decide('i3', 'Polite'))).toBe('item "i3" is not in the adjudication queue: accepted as "Neutral" (unanimous)');
    expect(refusal(decide('i4', 'Polite'))).toBe(
      'item "i4" is not in the adjudication queue: 1 completed label, adjudication needs at least 2 (adjudication.min_annotators)',
    );
    expect(refusal(decide('nope', 'Polite'))).toMatch(/^item "nope" is not in the adjudication queue/);
    expect(refusal(decide('i1', 'Polite', { rationale: 'a\u0007b' }))).toBe('the rationale contains a control character');
    for (const message of [refusal(decide('i1', 'Rude')), refusal(decide('nope', 'Polite'))]) expect(message).not.toContain('\n');
  });
});

describe('spoken rationale', () => {
  const spoken = {
    kind: 'spoken' as const,
    text: ' ben changed his mind twice, so I weigh ana and cleo',
    audio: 'adjudication/lead/rationales/' + 'a'.repeat(64) + '.wav',
    audio_sha256: 'a'.repeat(64),
    audio_ms: 4200,
    model: { name: 'scripted', sha256: 'scripted:' + 'b'.repeat(64) },
  };

  it('logs the recording and its verbatim transcript with the decision; the same again logs nothing; another recording revises', () => {
    const { state, payloads } = run([
      decide('i2', 'Polite', { spoken_rationale: spoken }),
      decide('i2', 'Polite', { spoken_rationale: spoken }),
    ]);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]!.data).toMatchObject({ rationale: spoken });
    expect(currentDecision(state, 'i2')!.rationale).toEqual(spoken);
    const again = run([
      decide('i2', 'Polite', { spoken_rationale: spoken }),
      decide('i2', 'Polite', {
        spoken_rationale: { ...spoken, audio_sha256: 'c'.repeat(64), audio: spoken.audio.replace(/a{64}/, 'c'.repeat(64)) },
      }),
    ]);
    expect(again.payloads).toHaveLength(2);
    expect(again.payloads[1]!.data).toMatchObject({ revises: { adjudicator: 'lead', seq: 2 } });
  });

  it('refuses a typed and a spoken rationale together, and a recording that transcribes to nothing', () => {
    expect(() => run([decide('i2', 'Polite', { spoken_rationale: spoken, rationale: 'typed too' })])).toThrow(/typed or spoken, not both/);
    expect(() => run([decide('i2', 'Polite', { spoken_rationale: { ...spoken, text: '  ' } })])).toThrow(/transcribes to no words/);
  });

  it('reads a version-1 decision (typed rationales only) as it was, and refuses a version it does not know', async () => {
    const { upcastAdjudicationData } = await import('../../../../core/common/adjudication/adjudicationEvents');
    const v1 = { item_id: 'i2', label: 'Polite', rationale: { kind: 'typed', text: 'cue' } };
    expect(upcastAdjudicationData('decision_recorded', 1, v1)).toEqual({ data: v1 });
    expect(upcastAdjudicationData('decision_recorded', 3, v1)).toEqual({
      problem: 'decision_recorded version 3 is not known to this version of Aloud',
    });
    expect(ADJUDICATION_EVENT_VERSIONS.decision_recorded).toBe(2);
  });
});

describe('adjudication routing', () => {
  it('assigns a queued item to an annotator who has not seen it; she finds it first', () => {
    const { state, payloads } = run([
      { kind: 'assign', item_id: 'i5', annotator: 'ben' },
      { kind: 'assign', item_id: 'i5', annotator: 'ben' },
      { kind: 'assign', item_id: 'i4', annotator: 'dora' },
    ]);
    expect(payloads).toEqual([
      { type: 'item_assigned', data: { item_id: 'i5', annotator: 'ben' } },
      { type: 'item_assigned', data: { item_id: 'i4', annotator: 'dora' } },
    ]);
    expect(assignedItems(state, 'ben')).toEqual(['i5']);
    expect(
      assignedItemsFirst(
        ITEMS.map((id) => ({ id })),
        new Set(assignedItems(state, 'ben')),
      ).map((i) => i.id),
    ).toEqual(['i5', 'i2', 'i1', 'i3', 'i4', 'i6']);
    expect(adjudicationQueue(ITEMS, records, defaultAdjudication(), state).items.get('i5')!.assigned_to).toEqual(['ben']);
  });

  it('refuses to assign an item to someone who has seen it, a decided item, or an accepted one', () => {
    expect(() => run([{ kind: 'assign', item_id: 'i5', annotator: 'ana' }], defaultAdjudication(), { ana: ['i5'] })).toThrow(
      '"ana" has seen item "i5" already',
    );
    expect(() => run([decide('i5', 'Polite'), { kind: 'assign', item_id: 'i5', annotator: 'ben' }])).toThrow(
      'item "i5" is decided already ("Polite")',
    );
    expect(() => run([{ kind: 'assign', item_id: 'i3', annotator: 'dora' }])).toThrow('accepted as "Neutral"');
  });

  it('sends queued items to a huddle, and a decision from it names the room', () => {
    const { payloads } = run([
      { kind: 'send_to_huddle', item_ids: ['i1', 'i2'], room: 'ABC234' },
      decide('i1', 'Polite', { room: 'ABC234' }),
    ]);
    expect(payloads[0]).toEqual({ type: 'items_sent_to_huddle', data: { item_ids: ['i1', 'i2'], room: 'ABC234' } });
    expect(payloads[1]!.type === 'decision_recorded' && payloads[1]!.data.room).toBe('ABC234');
    expect(() => run([{ kind: 'send_to_huddle', item_ids: ['i3'], room: 'ABC234' }])).toThrow('not in the adjudication queue');
  });
});

describe('blind names', () => {
  it("shows Annotator 1…n, in an order of each item's own, and never a name", () => {
    const names = ['ana', 'ben', 'cleo'];
    const orders = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const shown = shownAnnotators(`item-${i}`, names, true);
      expect(shown.map((s) => s.shown)).toEqual(['Annotator 1', 'Annotator 2', 'Annotator 3']);
      expect(shown.map((s) => s.annotator).sort()).toEqual(names);
      orders.add(shown.map((s) => s.annotator).join());
      expect(shownAnnotators(`item-${i}`, names, true)).toEqual(shown); // stable for the item
    }
    expect(orders.size).toBeGreaterThan(3); // the position does not follow one person across items
    expect(shownAnnotators('x', names, false).map((s) => s.shown)).toEqual(names);
  });
});

describe('adjudication fold', () => {
  it('refuses a log with a missing line, and a second log of the same adjudicator', () => {
    const log = logOf('lead', [
      { type: 'item_assigned', data: { item_id: 'i5', annotator: 'ben' } },
      { type: 'item_assigned', data: { item_id: 'i1', annotator: 'ben' } },
    ]);
    expect(() => foldAdjudicationLog(emptyAdjudicationState(), [log[0]!, log[2]!], 'lead.jsonl')).toThrow('lead.jsonl:2: seq 3 after 1');
    const state = foldAdjudicationLog(emptyAdjudicationState(), log, 'a.jsonl');
    expect(() => foldAdjudicationLog(state, log, 'b.jsonl')).toThrow('a second log for adjudicator "lead"');
  });

  it('decisions of two adjudicators interleave by time: the later one stands', () => {
    const first = decideAdjudication(
      emptyAdjudicationState(),
      {
        adjudicator: 'a',
        labels: LABELS,
        config: defaultAdjudication(),
        queue: adjudicationQueue(ITEMS, records, defaultAdjudication(), emptyAdjudicationState()),
        hasSeen: () => false,
      },
      decide('i1', 'Polite'),
    );
    const state = emptyAdjudicationState();
    foldAdjudicationLog(
      state,
      logOf(
        'zoe',
        [{ ...first[0]!, data: { ...(first[0]!.data as object), label: 'Neutral' } } as AdjudicationPayload],
        '2026-01-02T00:00:00.000Z',
      ),
      'zoe.jsonl',
    );
    foldAdjudicationLog(state, logOf('amy', first, '2026-01-01T00:00:00.000Z'), 'amy.jsonl');
    expect(state.decisions.get('i1')!.map((d) => d.adjudicator)).toEqual(['amy', 'zoe']);
    expect(currentDecision(state, 'i1')!.label).toBe('Neutral');
  });
});

describe('gold against annotators', () => {
  it('Wilson interval: inside [0, 1], 1/2 of 2 wide, all matches reach 1', async () => {
    const { wilsonInterval } = await import('../../../../core/common/adjudication/goldAgreement');
    expect(wilsonInterval(0, 0)).toBeNull();
    const [lo, hi] = wilsonInterval(10, 10)!;
    expect(hi).toBe(1);
    expect(lo).toBeCloseTo(0.7225, 3);
    const [l2, h2] = wilsonInterval(1, 2)!;
    expect(l2).toBeCloseTo(0.0945, 3);
    expect(h2).toBeCloseTo(0.9055, 3);
  });

  it('model labels fill unresolved items only, each naming its model, probability and interval', async () => {
    const { goldRecords } = await import('../../../../core/common/adjudication/goldRecord');
    const q = adjudicationQueue(ITEMS, records, defaultAdjudication(), emptyAdjudicationState());
    const model = (label: string) => ({ label, model: 'dawid-skene', probability: 0.8, ci95: [0.6, 0.9] as [number, number] });
    const gold = goldRecords(
      'p',
      q,
      new Map([
        ['i1', model('Polite')],
        ['i3', model('Impolite')],
      ]),
    );
    expect(gold.map((g) => [g.item_id, g.gold_label, g.gold_source])).toEqual([
      ['i2', null, 'unresolved'],
      ['i1', 'Polite', 'model'],
      ['i3', 'Neutral', 'unanimous'],
      ['i4', null, 'unresolved'],
      ['i5', null, 'unresolved'],
      ['i6', null, 'unresolved'],
    ]);
    expect(gold[1]!.label_model).toEqual({ model: 'dawid-skene', probability: 0.8, ci95: [0.6, 0.9] });
    expect(gold[2]!.label_model).toBeNull();
  });
});

describe('side-by-side view', () => {
  it('gives each protocol its commit phrase, acts, fast mark and codes, under shown names only when blind', async () => {
    const { adjudicationItemView } = await import('../../../../core/common/adjudication/adjudicationViews');
    const q = adjudicationQueue(ITEMS, records, { ...defaultAdjudication(), blind_names: true }, emptyAdjudicationState());
    const stateOf = (annotator: string, label: string, seconds: number) =>
      ({
        item_id: 'i5',
        transcript: `so I label this ${label.toLowerCase()}`,
        final_label: label,
        blind_label: label,
        audio_ms: 1000,
        commitments: [
          { label, quote: `I label this ${label.toLowerCase()}`, start: 3, end: 16 + label.length, t_ms: 900, stem: 'i label this' },
        ],
        label_history: [{ label, source: 'voice', at: '2026-01-01T00:00:01.000Z', audio_ms: 900, quote: null, reviewer: null }],
        started_at: '2026-01-01T00:00:00.000Z',
        completed_at: new Date(Date.parse('2026-01-01T00:00:00.000Z') + seconds * 1000).toISOString(),
        signals: { pauses: { count: 2, total_ms: 800, longest_ms: 500, long_count: 0 }, filled_pause_count: 1, hedge_count: 0 },
        annotator,
      }) as never;
    const states = new Map([
      ['ana', stateOf('ana', 'Polite', 1)],
      ['cleo', stateOf('cleo', 'Impolite', 20)],
    ]);
    const coding = {
      annotator: 'cleo',
      item_id: 'i5',
      units: [
        { unit: 'u0', unit_text: 'so I label this impolite', t0_ms: 0, t1_ms: 1000, codes: [{ code: 'Doubts' }, { code: 'Reasons' }] },
      ],
      finished: null,
    };
    const view = adjudicationItemView(q.items.get('i5')!, [], 'the text', states, { ...defaultAdjudication(), blind_names: true }, [
      coding as never,
    ]);
    expect(view.protocols.map((p) => p.shown).sort()).toEqual(['Annotator 1', 'Annotator 2']);
    expect(JSON.stringify(view)).not.toMatch(/ana|cleo/);
    const impolite = view.protocols.find((p) => p.final_label === 'Impolite')!;
    expect(impolite).toMatchObject({
      fast: false,
      seconds_on_item: 20,
      codes: [{ unit_text: 'so I label this impolite', codes: ['Doubts', 'Reasons'] }],
      pauses: { count: 2, long_count: 0, total_ms: 800 },
      filled_pauses: 1,
    });
    expect(impolite.transcript.slice(impolite.commit!.start, impolite.commit!.end)).toBe('I label this impolite');
    expect(view.protocols.find((p) => p.final_label === 'Polite')!).toMatchObject({ fast: true, codes: [] });
  });
});
