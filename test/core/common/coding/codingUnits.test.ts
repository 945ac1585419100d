import { describe, expect, it } from 'vitest';
import { decideCodeAct } from '../../../../core/common/coding/codingRules';
import { isTranscriptFinal, parseUnitId, protocolUnits, unitsOfItem } from '../../../../core/common/coding/codingUnits';
import { codingItemView } from '../../../../core/common/coding/codingViews';
import { contextFor, sessionLog, sha256, talkedThrough } from './codingSupport';

describe('units of a protocol', () => {
  it('one unit per utterance, verbatim and trimmed, with its times; an empty utterance makes none', () => {
    const units = protocolUnits(
      'demo-01',
      [
        { utterance: 0, t0_ms: 100, t1_ms: 900, text: ' Hmm, well.' },
        { utterance: 0, t0_ms: 900, t1_ms: 2400, text: ' This reply is, um, kind of polite.' },
        { utterance: 1, t0_ms: 3000, t1_ms: 3200, text: ' ' },
        { utterance: 2, t0_ms: 4000, t1_ms: 5000, text: ' I label this polite.' },
      ],
      'utterance',
    );
    expect(units.map(({ unit, text, t0_ms, t1_ms }) => ({ unit, text, t0_ms, t1_ms }))).toEqual([
      { unit: 'u0', text: 'Hmm, well. This reply is, um, kind of polite.', t0_ms: 100, t1_ms: 2400 },
      { unit: 'u2', text: 'I label this polite.', t0_ms: 4000, t1_ms: 5000 },
    ]);
  });

  it('sentence units within an utterance: ids u<utterance>.s<sentence>, times within its segments', () => {
    const units = protocolUnits(
      'demo-01',
      [
        { utterance: 3, t0_ms: 1000, t1_ms: 2000, text: ' Hmm, well. It says thanks, e.g. twice.' },
        { utterance: 3, t0_ms: 2000, t1_ms: 3000, text: ' I label this polite.' },
      ],
      'sentence',
    );
    expect(units.map((u) => [u.unit, u.text])).toEqual([
      ['u3.s0', 'Hmm, well.'],
      ['u3.s1', 'It says thanks, e.g. twice.'],
      ['u3.s2', 'I label this polite.'],
    ]);
    expect(units[0]!.t0_ms).toBe(1000);
    expect(units[2]).toMatchObject({ t0_ms: 2000, t1_ms: 3000 });
    expect(units[1]!.t0_ms).toBeGreaterThan(1000);
    expect(units[1]!.t1_ms).toBeLessThanOrEqual(2000);
    expect(parseUnitId('u3.s1')).toEqual({ utterance: 3, sentence: 1 });
    expect(parseUnitId('u03')).toBeNull();
    expect(parseUnitId('x1')).toBeNull();
  });

  it('a correction changes no unit: boundaries, ids and words stay the verbatim ones', () => {
    const ana = sessionLog('ana');
    talkedThrough(ana, 'demo-01', [' Hmm, this is kind of polar. Well.', ' I label this polite.']);
    for (const kind of ['utterance', 'sentence'] as const) {
      const before = unitsOfItem(ana.fold.itemState('demo-01')!, kind);
      ana.add('transcript_corrected', {
        item_id: 'demo-01',
        utterance: 0,
        segment: 0,
        original_sha256: sha256(' Hmm, this is kind of polar. Well.'),
        text: ' Hmm, this is kind of polite and. Well. Okay.',
        annotator: 'lead',
        reviewer: null,
      });
      const after = unitsOfItem(ana.fold.itemState('demo-01')!, kind);
      expect(ana.fold.itemState('demo-01')!.transcript_corrected).toContain('polite and');
      expect(after).toEqual(before);
    }
  });

  it('units are fixed once the transcript is final; a re-transcription is a new unit set and the old codings stay with the old words', () => {
    const ana = sessionLog('ana');
    talkedThrough(ana, 'demo-01', [' I think it is rude.'], { complete: false });
    expect(isTranscriptFinal(ana.fold.itemState('demo-01'))).toBe(false);
    ana.add('item_completed', { item_id: 'demo-01' });
    expect(isTranscriptFinal(ana.fold.itemState('demo-01'))).toBe(true);

    const bob = sessionLog('bob');
    const protocol = () => ({
      annotator: 'ana',
      item_id: 'demo-01',
      final: true,
      units: unitsOfItem(ana.fold.itemState('demo-01')!, 'utterance'),
    });
    bob.append(decideCodeAct(bob.coding, contextFor('bob'), protocol(), { unit: 'u0', code: 'Doubts', action: 'apply', source: 'key' }));

    // transcribed again (another model): utterance 0 is superseded, the new words are utterance 1
    ana.add('transcripts_superseded', { item_id: 'demo-01', utterances: [0], reason: 'transcribed again' });
    ana.add('utterance_transcribed', {
      item_id: 'demo-01',
      utterance: 1,
      request_id: 'r1',
      start_sample: 0,
      end_sample: 0,
      segments: [{ t0_ms: 100, t1_ms: 1500, text: ' I think it is rather rude.' }],
      model: { name: 'base.en', sha256: 'def', whisper_cpp: null, vad: null },
    });
    expect(protocol().units.map((u) => [u.unit, u.text])).toEqual([['u1', 'I think it is rather rude.']]);

    const view = codingItemView(contextFor('bob'), { ...protocol(), item_text: 'x' }, bob.coding.protocolCoding('ana', 'demo-01'), []);
    // nothing moved onto the new unit; the coding is kept with the words it was given to
    expect(view.mine).toEqual({});
    expect(view.stale).toEqual([{ unit: 'u0', unit_text: 'I think it is rude.', codes: ['Doubts'] }]);
  });
});
