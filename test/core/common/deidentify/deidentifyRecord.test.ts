import { describe, expect, it } from 'vitest';
import type { ExportRecordV2, ExportSegmentV2 } from '../../../../core/common/export/exportRecord';
import { parseDeidentifyList } from '../../../../core/common/deidentify/deidentifyList';
import { deidentifyRecord } from '../../../../core/common/deidentify/deidentifyRecord';
import { SpanMatcher } from '../../../../core/common/deidentify/spanMatcher';
import { joinSegments } from '../../../../core/common/transcript/joinSegments';
import { NO_REASONING } from '../../../../core/common/export/reasoningExport';

const matcher = new SpanMatcher(
  parseDeidentifyList('terms:\n  - {text: Sarah, class: PERSON}\n  - {text: Tom, class: PERSON}\n  - {text: Leipzig, class: PLACE}\n'),
);

/** A segment whose tokens are the given pieces, 100 ms each from t0. */
function segment(utterance: number, pieces: string[], t0: number): ExportSegmentV2 {
  return {
    utterance,
    index: 0,
    t0_ms: t0,
    t1_ms: t0 + pieces.length * 100,
    text: pieces.join(''),
    tokens: pieces.map((text, i) => ({ t0_ms: t0 + i * 100, t1_ms: t0 + (i + 1) * 100, text })),
  };
}

function record(segments: ExportSegmentV2[], extra: Partial<ExportRecordV2> = {}): ExportRecordV2 {
  const transcript = joinSegments(segments).text;
  return {
    schema_version: 2,
    project: 'p',
    annotator: 'bob',
    item_id: 'i1',
    item_text_sha256: 'a'.repeat(64),
    item_context_sha256: null,
    final_label: 'Polite',
    label_source: 'voice',
    blind_label: 'Polite',
    label_history: [{ label: 'Polite', source: 'voice', at: '2026-01-01T00:00:00.000Z', audio_ms: 1500, quote: 'polite, Sarah' }],
    commitments: [],
    transcript,
    transcript_corrected: null,
    corrections: [],
    segments,
    superseded_transcripts: [],
    signals: null,
    audio: { path: 'sessions/bob/audio/i1.wav', sha256: 'b'.repeat(64), duration_ms: 3000 },
    model: null,
    notes: [{ text: 'Sarah again, call 555-1234', at: '2026-01-01T00:00:00.000Z' }],
    keep_talking_cues: [],
    parser_version: null,
    config_changed: false,
    labels_not_in_schema: [],
    changed_after_completion: false,
    ...NO_REASONING,
    app_version: '0',
    config_sha256: 'c'.repeat(64),
    started_at: null,
    completed_at: null,
    exported_at: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('deidentifyRecord', () => {
  it('replaces a name split over whisper tokens in the segment, its tokens and the transcript, and times its audio by the tokens', () => {
    const r = record([segment(0, [' This', ' sounds', ' like', ' Sar', 'ah', '.'], 0)]);
    const { record: out, audio_spans, counts } = deidentifyRecord(r, matcher);
    expect(out.segments[0]!.text).toBe(' This sounds like [PERSON-1].');
    expect(out.segments[0]!.tokens!.map((t) => t.text)).toEqual([' This', ' sounds', ' like', ' [PERSON-1]', '', '.']);
    expect(out.segments[0]!.tokens!.map((t) => t.t0_ms)).toEqual([0, 100, 200, 300, 400, 500]);
    expect(out.transcript).toBe(' This sounds like [PERSON-1].');
    expect(audio_spans).toEqual([{ t0_ms: 300, t1_ms: 500, class: 'PERSON' }]);
    expect(counts).toEqual({ PERSON: 2, PHONE: 1 });
    expect(out.notes[0]!.text).toBe('[PERSON-1] again, call [PHONE-1]');
    expect(out.label_history[0]!.quote).toBe('polite, [PERSON-1]');
  });

  it('numbers placeholders consistently across utterances: the same person keeps the number, another gets the next', () => {
    const r = record([segment(0, [' Sarah', ' said'], 0), segment(1, [' Tom', ' and', ' SARAH', ' in', ' Leipzig'], 1000)]);
    const { record: out } = deidentifyRecord(r, matcher);
    expect(out.transcript).toBe(' [PERSON-1] said [PERSON-2] and [PERSON-1] in [PLACE-1]');
    expect(out.segments.map((s) => s.text)).toEqual([' [PERSON-1] said', ' [PERSON-2] and [PERSON-1] in [PLACE-1]']);
  });

  it('moves commitment offsets with their quotes, which carry the placeholders', () => {
    const segs = [segment(0, [' Sarah', ' is', ' nice.', ' I', ' label', ' this', ' polite,', ' Tom.'], 0)];
    const transcript = joinSegments(segs).text;
    const quoteText = 'I label this polite, Tom';
    const start = transcript.indexOf(quoteText);
    const r = record(segs, {
      commitments: [{ label: 'Polite', quote: quoteText, start, end: start + quoteText.length, t_ms: 700, stem: 'i label this' }],
    });
    const { record: out } = deidentifyRecord(r, matcher);
    const c = out.commitments[0]!;
    expect(c.quote).toBe('I label this polite, [PERSON-2]');
    expect(out.transcript!.slice(c.start, c.end)).toBe(c.quote);
    expect([c.label, c.t_ms]).toEqual(['Polite', 700]);
  });

  it('matches the corrected text too, and times its spans by their share of the segment', () => {
    const segs = [segment(0, [' call', ' Zara', ' now', ' ok'], 0)];
    const r = record(segs, {
      transcript_corrected: ' call Sarah now ok',
      corrections: [
        {
          utterance: 0,
          segment: 0,
          original_text: ' call Zara now ok',
          text: ' call Sarah now ok',
          annotator: 'rev',
          at: '2026-01-01T00:00:00.000Z',
        },
      ],
    });
    const { record: out, audio_spans } = deidentifyRecord(r, matcher);
    expect(out.transcript).toBe(' call Zara now ok');
    expect(out.transcript_corrected).toBe(' call [PERSON-1] now ok');
    expect(out.corrections[0]!.text).toBe(' call [PERSON-1] now ok');
    expect(audio_spans).toHaveLength(1);
    expect(audio_spans[0]!.t0_ms).toBeGreaterThanOrEqual(100);
    expect(audio_spans[0]!.t1_ms).toBeLessThanOrEqual(300);
  });

  it('applies review decisions: a rejected match stays, an added span is hidden with its class', () => {
    const segs = [segment(0, [' Tom', ' met', ' Sarah', ' at', ' the', ' Ritz'], 0)];
    const text = segs[0]!.text;
    const r = record(segs, { notes: [], label_history: [] });
    const ritz = text.indexOf('Ritz');
    const tom = text.indexOf('Tom');
    const { record: out, audio_spans } = deidentifyRecord(r, matcher, {
      rejected: [{ utterance: 0, segment: 0, layer: 'verbatim', start: tom, end: tom + 3 }],
      added: [{ utterance: 0, segment: 0, layer: 'verbatim', start: ritz, end: ritz + 4, class: 'ORG' }],
    });
    expect(out.transcript).toBe(' Tom met [PERSON-1] at the [ORG-1]');
    expect(audio_spans.map((s) => [s.t0_ms, s.class])).toEqual([
      [200, 'PERSON'],
      [500, 'ORG'],
    ]);
  });

  it('hides a full name said across a pause (two utterances), in both segments, the transcript, tokens and both stretches of audio', () => {
    const jonas = new SpanMatcher(parseDeidentifyList('terms:\n  - {text: Jonas Weber, class: PERSON}\npatterns: []\n'));
    const r = record([segment(0, [' Uh,', ' I', ' spoke', ' with', ' Jonas'], 0), segment(1, [' Weber', ' about', ' it'], 2000)], {
      notes: [],
      label_history: [],
    });
    const { record: out, audio_spans } = deidentifyRecord(r, jonas);
    expect(out.segments.map((s) => s.text)).toEqual([' Uh, I spoke with [PERSON-1]', ' [PERSON-1] about it']);
    expect(out.segments.flatMap((s) => s.tokens!.map((t) => t.text)).join('')).not.toMatch(/Jonas|Weber/u);
    expect(out.transcript).toBe(' Uh, I spoke with [PERSON-1] [PERSON-1] about it');
    expect(audio_spans).toEqual([
      { t0_ms: 400, t1_ms: 500, class: 'PERSON' },
      { t0_ms: 2000, t1_ms: 2100, class: 'PERSON' },
    ]);
  });

  it('hides a name the corrected text completes across a segment edge in the uncorrected neighbour too', () => {
    const jonas = new SpanMatcher(parseDeidentifyList('terms:\n  - {text: Jonas Weber, class: PERSON}\npatterns: []\n'));
    const segs = [segment(0, [' I', ' spoke', ' with', ' Jonas'], 0), segment(1, [' Webber', ' about', ' it'], 2000)];
    const r = record(segs, {
      notes: [],
      label_history: [],
      transcript_corrected: ' I spoke with Jonas Weber about it',
      corrections: [
        {
          utterance: 1,
          segment: 0,
          text: ' Weber about it',
          original_text: ' Webber about it',
          at: '2026-01-01T00:00:00.000Z',
        } as ExportRecordV2['corrections'][number],
      ],
    });
    const { record: out, audio_spans } = deidentifyRecord(r, jonas);
    expect(out.segments[0]!.text).toBe(' I spoke with [PERSON-1]');
    expect(out.transcript_corrected).toBe(' I spoke with [PERSON-1] [PERSON-1] about it');
    expect(out.corrections[0]!.text).toBe(' [PERSON-1] about it');
    // the corrected piece has no token times: timed by its share of the segment
    expect(audio_spans.map((s) => s.t0_ms)).toEqual([300, 2020]);
  });
});
