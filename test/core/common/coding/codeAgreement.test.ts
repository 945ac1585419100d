import { describe, expect, it } from 'vitest';
import { codeAgreement, NO_CODE, type ProtocolInfo } from '../../../../core/common/coding/codeAgreement';
import { decideCodeAct, decideFinishCoding, type ProtocolFacts } from '../../../../core/common/coding/codingRules';
import { unitsOfItem } from '../../../../core/common/coding/codingUnits';
import { codebookOf, contextFor, sessionLog, talkedThrough } from './codingSupport';

/**
 * Ana's protocols: demo-01 has three units (utterances 0, 1, 2), demo-02, demo-03 and demo-04 one each. The second
 * utterance of demo-01 ends 1.4 s before the third begins (a long pause: long_pause_ms 1000 below).
 */
function anaProtocols(): { infos: ProtocolInfo[]; facts: Map<string, ProtocolFacts> } {
  const ana = sessionLog('ana');
  talkedThrough(ana, 'demo-01', [' I think so.', ' Well, maybe not.', ' I label this polite.']);
  talkedThrough(ana, 'demo-02', [' Rude, really.']);
  talkedThrough(ana, 'demo-03', [' Neutral, I guess.']);
  talkedThrough(ana, 'demo-04', [' Polite.']);
  ana.add('label_committed', {
    item_id: 'demo-01',
    label: 'Polite',
    source: 'key',
    quote: null,
    start: null,
    end: null,
    stem: null,
    audio_ms: null,
    utterance: null,
    parser_version: null,
    reviewer: null,
  });
  ana.add('label_committed', {
    item_id: 'demo-02',
    label: 'Impolite',
    source: 'key',
    quote: null,
    start: null,
    end: null,
    stem: null,
    audio_ms: null,
    utterance: null,
    parser_version: null,
    reviewer: null,
  });
  const infos: ProtocolInfo[] = [];
  const facts = new Map<string, ProtocolFacts>();
  for (const item of ['demo-01', 'demo-02', 'demo-03', 'demo-04']) {
    const state = ana.fold.itemState(item)!;
    const units = unitsOfItem(state, 'utterance');
    infos.push({ annotator: 'ana', item_id: item, units, final_label: state.final_label, blind_label: state.blind_label });
    facts.set(item, { annotator: 'ana', item_id: item, final: true, units });
  }
  return { infos, facts };
}

/** A coder codes the named units of the named protocols with Doubts, then finishes each of them. */
function coder(name: string, facts: Map<string, ProtocolFacts>, work: Record<string, string[]>, codebook = codebookOf()) {
  const log = sessionLog(name);
  const ctx = contextFor(name, {}, codebook);
  for (const [item, units] of Object.entries(work)) {
    for (const unit of units)
      log.append(decideCodeAct(log.coding, ctx, facts.get(item)!, { unit, code: 'Doubts', action: 'apply', source: 'key' }));
    log.append(decideFinishCoding(log.coding, ctx, facts.get(item)!));
  }
  return { coder: name, protocols: log.coding.codings().protocols };
}

describe('agreement on codes', () => {
  it('α per code on presence/absence reproduces a hand-computed example, and is null with a reason for a code that never varies', () => {
    const { infos, facts } = anaProtocols();
    // Doubts (1 present, 0 absent, - no value: the coder did not finish that item), coders A, B, C:
    //   demo-01 u0:  1 1 1     demo-01 u1:  0 0 1     demo-01 u2:  0 0 0
    //   demo-02 u0:  1 0 -     demo-03 u0:  - 0 0     demo-04 u0:  1 - -   (one value: not pairable)
    // Pairable units 5, values n = 3+3+3+2+2 = 13. Coincidences, each pair weighted 1/(m_u - 1):
    //   o(1,1) = 3 (demo-01 u0: 3·2/2)
    //   o(0,0) = 1 (demo-01 u1: 2·1/2) + 3 (demo-01 u2: 3·2/2) + 2 (demo-03 u0: 2·1/1) = 6
    //   o(0,1) = o(1,0) = 1 (demo-01 u1: 2·1/2) + 1 (demo-02 u0: 1·1/1) = 2
    //   n_0 = 6 + 2 = 8, n_1 = 3 + 2 = 5
    //   α = 1 − (n − 1)·(o01 + o10) / (n_0·n_1 + n_1·n_0) = 1 − 12·4 / 80 = 1 − 0.6 = 0.4
    const a = coder('A', facts, { 'demo-01': ['u0'], 'demo-02': ['u0'], 'demo-04': ['u0'] });
    const b = coder('B', facts, { 'demo-01': ['u0'], 'demo-02': [], 'demo-03': [] });
    const c = coder('C', facts, { 'demo-01': ['u0', 'u1'], 'demo-03': [] });
    const result = codeAgreement([a, b, c], infos, { codebook: codebookOf().codebook, longPauseMs: 1000 });
    const doubts = result.codes.find((x) => x.code === 'Doubts')!;
    expect(doubts.alpha).toBeCloseTo(0.4, 12);
    expect(doubts).toMatchObject({ pairable_units: 5, pairable_values: 13, undefined_reason: null, applied: 5, in_codebook: true });
    expect(doubts.ci95![0]).toBeLessThanOrEqual(0.4);
    expect(doubts.ci95![1]).toBeGreaterThanOrEqual(0.4);
    // Rereads: nobody gave it, so every value is 0 — no variation, agreement cannot be told from chance
    expect(result.codes.find((x) => x.code === 'Rereads')).toMatchObject({
      alpha: null,
      ci95: null,
      undefined_reason: 'no_variation',
      pairable_units: 5,
    });
    expect(result.codes.map((x) => x.code)).toEqual(['Doubts', 'Cites the guideline', 'Rereads']);
    expect(result.overall).toBeNull();
    expect(result.pairable_units).toBe(5);

    // the units they disagree on most, with their words
    expect(result.disagreements.map((d) => [d.item_id, d.unit, d.text, d.disagreeing_pairs, d.codes])).toEqual([
      ['demo-01', 'u1', 'Well, maybe not.', 2, { A: [], B: [], C: ['Doubts'] }],
      ['demo-02', 'u0', 'Rude, really.', 1, { A: ['Doubts'], B: [] }],
    ]);
    // in blind coding the page gets units of finished items only
    expect(
      codeAgreement([a, b, c], infos, {
        codebook: codebookOf().codebook,
        longPauseMs: 1000,
        detailsVisible: (_a, item) => item !== 'demo-01',
      }).disagreements.map((d) => d.item_id),
    ).toEqual(['demo-02']);

    // codes beside labels: Doubts occurs 4 times in demo-01 (final Polite: A, B, C on u0, C on u1), once in demo-02 (Impolite)
    expect(result.codes_by_label.final).toEqual([
      { label: 'Impolite', protocols: 1, codes: { Doubts: 1, 'Cites the guideline': 0, Rereads: 0 } },
      { label: 'Polite', protocols: 1, codes: { Doubts: 4, 'Cites the guideline': 0, Rereads: 0 } },
    ]);
    // codes by hesitation over the coded protocols (demo-01, -02, -04: 5 units); their units are 0.6 s apart, no long pause
    expect(result.codes_by_hesitation).toMatchObject({ units: 5, units_before_long_pause: 0 });
  });

  it('an exclusive codebook also has an overall nominal α over the codes, "(no code)" a category of its own', () => {
    const { infos, facts } = anaProtocols();
    const exclusive = codebookOf(
      'exclusive: true\ncodes:\n  - {name: Doubts, definition: unsure}\n  - {name: Rereads, definition: again}\n',
    );
    const a = coder('A', facts, { 'demo-01': ['u0', 'u1'] }, exclusive);
    const b = coder('B', facts, { 'demo-01': ['u0'] }, exclusive);
    // demo-01 u0: Doubts, Doubts · u1: Doubts, (no code) · u2: (no code), (no code)
    // o(D,D) = 2, o(N,N) = 2, o(D,N) = o(N,D) = 1; n_D = 3, n_N = 3, n = 6: α = 1 − 5·2/(2·3·3) = 1 − 10/18 = 4/9
    const result = codeAgreement([a, b], infos, { codebook: exclusive.codebook, longPauseMs: 1000 });
    expect(result.overall).toMatchObject({ categories: ['Doubts', 'Rereads', NO_CODE], pairable_units: 3, multi_coded: 0 });
    expect(result.overall!.alpha).toBeCloseTo(4 / 9, 12);
    expect(result.codes[0]!.alpha).toBeCloseTo(4 / 9, 12);
  });

  it("in blind coding α counts the codes each coder gave before the others' were shown; changes after finishing are counted apart", () => {
    const { infos, facts } = anaProtocols();
    const protocol = facts.get('demo-01')!;
    const a = coder('A', facts, { 'demo-01': ['u0'] });
    // B finishes with Doubts on u1, sees A's codes, then moves Doubts to u0
    const log = sessionLog('B');
    const ctx = contextFor('B', { blind: true });
    log.append(decideCodeAct(log.coding, ctx, protocol, { unit: 'u1', code: 'Doubts', action: 'apply', source: 'key' }));
    log.append(decideFinishCoding(log.coding, ctx, protocol));
    log.append(decideCodeAct(log.coding, ctx, protocol, { unit: 'u1', code: 'Doubts', action: 'remove', source: 'click' }));
    log.append(decideCodeAct(log.coding, ctx, protocol, { unit: 'u0', code: 'Doubts', action: 'apply', source: 'click' }));
    expect(log.coding.protocolCoding('ana', 'demo-01')!.first_finished_codes).toEqual({ u0: [], u1: ['Doubts'], u2: [] });
    const b = { coder: 'B', protocols: log.coding.codings().protocols };
    const options = { codebook: codebookOf().codebook, longPauseMs: 1000 };

    // as they stand now, A and B agree on every unit: u0 1 1, u1 0 0, u2 0 0
    const current = codeAgreement([a, b], infos, options);
    expect(current).toMatchObject({ basis: 'current', changed_after_finished: 2 });
    expect(current.codes[0]!.alpha).toBe(1);
    // blind (as given before finishing): u0 1 0, u1 0 1, u2 0 0; n = 6, o(0,0) = 2, o(0,1) = o(1,0) = 2, n_0 = 4, n_1 = 2:
    //   α = 1 − (n − 1)·(o01 + o10) / (n_0·n_1 + n_1·n_0) = 1 − 5·4/16 = −0.25
    const blind = codeAgreement([a, b], infos, { ...options, basis: 'blind' });
    expect(blind).toMatchObject({ basis: 'blind', changed_after_finished: 2 });
    expect(blind.codes[0]!.alpha).toBeCloseTo(-0.25, 12);
    expect(blind.disagreements.map((d) => [d.unit, d.codes])).toEqual([
      ['u0', { A: ['Doubts'], B: [] }],
      ['u1', { A: [], B: ['Doubts'] }],
    ]);
  });

  it('a protocol coded but not finished counts nowhere in α, and is said', () => {
    const { infos, facts } = anaProtocols();
    const log = sessionLog('D');
    log.append(
      decideCodeAct(log.coding, contextFor('D'), facts.get('demo-01')!, {
        unit: 'u0',
        code: 'Doubts',
        action: 'apply',
        source: 'key',
      }),
    );
    const a = coder('A', facts, { 'demo-01': ['u0'] });
    const result = codeAgreement([a, { coder: 'D', protocols: log.coding.codings().protocols }], infos, {
      codebook: codebookOf().codebook,
      longPauseMs: 1000,
    });
    expect(result.unfinished).toBe(1);
    expect(result.codes[0]).toMatchObject({ alpha: null, undefined_reason: 'fewer_than_two_pairable_units', pairable_units: 0 });
  });

  it('codes by hesitation count codes on units followed by a long pause', () => {
    const ana = sessionLog('ana');
    talkedThrough(ana, 'demo-05', [[{ t0_ms: 0, t1_ms: 1000, text: ' Hmm.' }], [{ t0_ms: 3000, t1_ms: 4000, text: ' Polite.' }]]);
    const units = unitsOfItem(ana.fold.itemState('demo-05')!, 'utterance');
    const facts = new Map([['demo-05', { annotator: 'ana', item_id: 'demo-05', final: true, units }]]);
    const a = coder('A', facts, { 'demo-05': ['u0', 'u1'] });
    const result = codeAgreement([a], [{ annotator: 'ana', item_id: 'demo-05', units, final_label: null, blind_label: null }], {
      codebook: codebookOf().codebook,
      longPauseMs: 1000,
    });
    expect(result.codes_by_hesitation).toEqual({
      units: 2,
      units_before_long_pause: 1,
      long_pause_ms: 1000,
      per_code: [
        { code: 'Doubts', codings: 2, before_long_pause: 1, share_before_long_pause: 0.5 },
        { code: 'Cites the guideline', codings: 0, before_long_pause: 0, share_before_long_pause: null },
        { code: 'Rereads', codings: 0, before_long_pause: 0, share_before_long_pause: null },
      ],
    });
  });
});
