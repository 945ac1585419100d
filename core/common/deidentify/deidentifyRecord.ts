import type { ExportRecordV2, ExportSegmentV2 } from '../export/exportRecord';
import { commitmentUtf16Span, offsetUnitOf } from '../export/exportRecord';
import { codePointOffset } from '../text/codePoints';
import { joinSegments } from '../transcript/joinSegments';
import { foldTerm } from './deidentifyList';
import { applyEdits, PlaceholderNumbers, type EditedText } from './placeholders';
import { settleOverlaps, type SpanMatcher, type TextSpan } from './spanMatcher';

/** A span of one segment's text, as a review decision names it: never the text itself. */
export interface SpanRef {
  utterance: number;
  segment: number;
  /** the verbatim text or the reviewers' correction of it */
  layer: 'verbatim' | 'corrected';
  start: number;
  end: number;
}

/** The review decisions in force for one item and annotator (core/common/deidentify/reviewFold). */
export interface RecordDecisions {
  /** matches a reviewer said are not to be hidden (e.g. "May" the verb) */
  rejected: readonly SpanRef[];
  /** spans a reviewer added by selecting words */
  added: ReadonlyArray<SpanRef & { class: string }>;
}

export const NO_DECISIONS: RecordDecisions = { rejected: [], added: [] };

/** A stretch of the item's audio to hide, before the margin widens it. */
export interface HiddenAudioSpan {
  t0_ms: number;
  t1_ms: number;
  class: string;
}

/** Any export record of v2 or later: the texts de-identification rewrites are the same, every other field is kept. */
export type DeidentifiableRecord = Omit<ExportRecordV2, 'schema_version'> & { schema_version: number };

export interface DeidentifiedRecord<R extends DeidentifiableRecord = ExportRecordV2> {
  record: R;
  audio_spans: HiddenAudioSpan[];
  /** spans hidden per class in the record's own texts (segments, corrections, superseded transcripts, notes) */
  counts: Record<string, number>;
  /** the classes of the placeholders the record holds, sorted */
  classes: string[];
}

/** A segment's spans as the matcher found them, amended by the review decisions on that segment and layer. */
function amended(text: string, found: readonly TextSpan[], ref: Omit<SpanRef, 'start' | 'end'>, decisions: RecordDecisions): TextSpan[] {
  const same = (d: SpanRef): boolean => d.utterance === ref.utterance && d.segment === ref.segment && d.layer === ref.layer;
  const rejected = decisions.rejected.filter(same);
  const added: TextSpan[] = decisions.added
    .filter((d) => same(d) && d.start >= 0 && d.end <= text.length && d.start < d.end)
    .map((d) => ({ start: d.start, end: d.end, class: d.class, key: `added:${foldTerm(text.slice(d.start, d.end))}`, origin: 'added' }));
  const kept = found.filter((s) => !rejected.some((r) => r.start === s.start && r.end === s.end));
  // a reviewer's span wins over a match it overlaps
  return settleOverlaps([...added, ...kept.filter((s) => !added.some((a) => s.start < a.end && a.start < s.end))]);
}

/** One segment's spans in one layer, found by the matcher in that segment alone and then amended by the review decisions. */
export function segmentSpans(
  text: string,
  ref: Omit<SpanRef, 'start' | 'end'>,
  matcher: SpanMatcher,
  decisions: RecordDecisions,
): TextSpan[] {
  return amended(text, matcher.find(text), ref, decisions);
}

/**
 * Every segment's spans in one layer, found on the layer's joined text, so what is said across a pause (a name over
 * two utterances, "… with Jonas" | "Weber about it", an e-mail address or a phone number) is one match; a match is
 * cut at the segment boundaries into pieces that keep its class and key (so both pieces get the same placeholder
 * and both stretches of audio are hidden). Then each segment's review decisions.
 */
export function layerSpans(
  texts: readonly string[],
  refs: ReadonlyArray<Pick<SpanRef, 'utterance' | 'segment'>>,
  layer: SpanRef['layer'],
  matcher: SpanMatcher,
  decisions: RecordDecisions,
): TextSpan[][] {
  const joined = joinSegments(texts.map((text) => ({ text, t0_ms: 0, t1_ms: 0 })));
  const pieces: TextSpan[][] = texts.map(() => []);
  let first = 0;
  for (const span of matcher.find(joined.text)) {
    // spans come in text order: segments wholly before this one are before every later one too
    while (first < joined.spans.length && joined.spans[first]!.end <= span.start) first++;
    for (let i = first; i < joined.spans.length && joined.spans[i]!.start < span.end; i++) {
      const segment = joined.spans[i]!;
      let start = Math.max(span.start, segment.start);
      let end = Math.min(span.end, segment.end);
      // a piece never takes the space that opens or closes its segment (the pause is not part of the name)
      while (start < end && /\s/u.test(joined.text[start]!)) start++;
      while (end > start && /\s/u.test(joined.text[end - 1]!)) end--;
      if (start < end) pieces[i]!.push({ ...span, start: start - segment.start, end: end - segment.start });
    }
  }
  return pieces.map((found, i) => amended(texts[i]!, found, { ...refs[i]!, layer }, decisions));
}

/** Where each token's text sits in its segment's text; null for a token that cannot be placed. */
export function tokenOffsets(segment: ExportSegmentV2): Array<{ start: number; end: number } | null> {
  let at = 0;
  return (segment.tokens ?? []).map((t) => {
    const found = t.text === '' ? at : segment.text.indexOf(t.text, at);
    if (found < 0) return null;
    at = found + t.text.length;
    return { start: found, end: at };
  });
}

/** The audio time of a text span: the tokens it touches, else its share of the segment's time. */
export function spanTime(
  segment: ExportSegmentV2,
  offsets: ReadonlyArray<{ start: number; end: number } | null>,
  span: { start: number; end: number },
  textLength: number,
): { t0_ms: number; t1_ms: number } {
  const touched = (segment.tokens ?? []).filter((_, i) => {
    const o = offsets[i];
    return o !== null && o !== undefined && o.start < span.end && span.start < o.end;
  });
  if (touched.length > 0) return { t0_ms: Math.min(...touched.map((t) => t.t0_ms)), t1_ms: Math.max(...touched.map((t) => t.t1_ms)) };
  const duration = segment.t1_ms - segment.t0_ms;
  const share = (o: number): number => segment.t0_ms + (textLength === 0 ? 0 : (o / textLength) * duration);
  return { t0_ms: Math.floor(share(span.start)), t1_ms: Math.ceil(share(span.end)) };
}

/**
 * The record with every listed term and pattern replaced by its numbered placeholder in every text field
 * (transcript, corrected transcript, segments and their tokens, corrections, superseded transcripts, quotes,
 * notes, the model's steps), commitments' offsets moved with their quotes, labels and times untouched; and the
 * audio spans to hide. Pure: the audio and the files are the caller's.
 */
export function deidentifyRecord<R extends DeidentifiableRecord>(
  record: R,
  matcher: SpanMatcher,
  decisions: RecordDecisions = NO_DECISIONS,
): DeidentifiedRecord<R> {
  const numbers = new PlaceholderNumbers();
  const counts: Record<string, number> = {};
  const count = (spans: readonly TextSpan[]): void => {
    for (const s of spans) counts[s.class] = (counts[s.class] ?? 0) + 1;
  };
  const audioSpans: HiddenAudioSpan[] = [];
  const edit = (text: string, spans: readonly TextSpan[]): EditedText =>
    applyEdits(
      text,
      spans.map((s) => ({ start: s.start, end: s.end, replacement: numbers.placeholder(s) })),
    );
  /** a text without segment or token places: matched on its own, numbered with the rest */
  const free = (text: string): string => edit(text, matcher.find(text)).text;
  const freeCounted = (text: string): string => {
    const spans = matcher.find(text);
    count(spans);
    return edit(text, spans).text;
  };

  const correctionOf = new Map(record.corrections.map((c) => [`${c.utterance}/${c.segment}`, c.text]));
  const refs = record.segments.map((segment) => ({ utterance: segment.utterance, segment: segment.index }));
  const verbatimSpans = layerSpans(
    record.segments.map((s) => s.text),
    refs,
    'verbatim',
    matcher,
    decisions,
  );
  // the corrected layer is each segment's correction, or its verbatim text where nobody corrected it
  const correctedLayer = record.segments.map((s) => correctionOf.get(`${s.utterance}/${s.index}`) ?? s.text);
  const correctedSpans = layerSpans(correctedLayer, refs, 'corrected', matcher, decisions);
  const verbatimEdits: EditedText[] = [];
  const segmentSpansUsed: TextSpan[][] = [];
  const correctedTexts: string[] = [];
  const segments = record.segments.map((segment, i) => {
    const ref = refs[i]!;
    const corrected = correctionOf.get(`${ref.utterance}/${ref.segment}`);
    const found = verbatimSpans[i]!;
    // an uncorrected segment is one text in both layers: what the corrected layer joins across its edges (a
    // corrected neighbour completing a name) is hidden in it too
    const rejectedHere = (c: TextSpan): boolean =>
      decisions.rejected.some((r) => r.utterance === ref.utterance && r.segment === ref.segment && r.start === c.start && r.end === c.end);
    const spans =
      corrected !== undefined
        ? found
        : settleOverlaps([
            ...found,
            ...correctedSpans[i]!.filter((c) => !rejectedHere(c) && !found.some((s) => c.start < s.end && s.start < c.end)),
          ]);
    count(spans);
    const offsets = tokenOffsets(segment);
    for (const s of spans) audioSpans.push({ ...spanTime(segment, offsets, s, segment.text.length), class: s.class });
    const edited = edit(segment.text, spans);
    verbatimEdits.push(edited);
    segmentSpansUsed.push(spans);
    if (corrected !== undefined) {
      const cSpans = correctedSpans[i]!;
      count(cSpans);
      // a corrected text has no token times: its spans are timed by their share of the segment
      for (const s of cSpans) audioSpans.push({ ...spanTime({ ...segment, tokens: [] }, [], s, corrected.length), class: s.class });
      correctedTexts.push(edit(corrected, cSpans).text);
    } else correctedTexts.push(edited.text);
    return { ...segment, text: edited.text, ...(segment.tokens ? { tokens: redactTokens(segment, offsets, spans, numbers, free) } : {}) };
  });

  // the transcript is the segments joined: edited the same way, so its offsets (commitments) move with it
  const joined = joinSegments(record.segments);
  let transcript: EditedText | null = null;
  if (record.transcript !== null) {
    transcript =
      joined.text === record.transcript
        ? applyEdits(
            record.transcript,
            segmentSpansUsed.flatMap((spans, i) =>
              spans.map((s) => ({
                start: joined.spans[i]!.start + s.start,
                end: joined.spans[i]!.start + s.end,
                replacement: numbers.placeholder(s),
              })),
            ),
          )
        : edit(record.transcript, matcher.find(record.transcript));
  }
  const correctedJoined = joinSegments(
    record.segments.map((s) => ({ ...s, text: correctionOf.get(`${s.utterance}/${s.index}`) ?? s.text })),
  );
  const transcriptCorrected =
    record.transcript_corrected === null
      ? null
      : correctedJoined.text === record.transcript_corrected
        ? joinSegments(segments.map((s, i) => ({ ...s, text: correctedTexts[i]! }))).text
        : free(record.transcript_corrected);

  // the spread keeps every field of a later version (v3's reviewer on acts and corrections) as it was
  const out = {
    ...record,
    label_history: record.label_history.map((a) => ({ ...a, quote: a.quote === null ? null : free(a.quote) })),
    commitments: record.commitments.map((c) => {
      if (transcript === null) return { ...c, quote: free(c.quote) };
      // edits are in UTF-16 units; the offsets stay in the unit of the record's version
      const span = commitmentUtf16Span(record.transcript!, c, record.schema_version);
      const start = transcript.offsetOf(span.start, 'start');
      const end = transcript.offsetOf(span.end, 'end');
      const points = offsetUnitOf(record.schema_version) === 'code_point';
      return {
        ...c,
        start: points ? codePointOffset(transcript.text, start) : start,
        end: points ? codePointOffset(transcript.text, end) : end,
        quote: transcript.text.slice(start, end),
      };
    }),
    transcript: transcript?.text ?? null,
    transcript_corrected: transcriptCorrected,
    corrections: record.corrections.map((c) => {
      const i = record.segments.findIndex((s) => s.utterance === c.utterance && s.index === c.segment);
      const segment = record.segments[i];
      return {
        ...c,
        original_text: segment && segment.text === c.original_text ? verbatimEdits[i]!.text : free(c.original_text),
        text: segment && correctionOf.get(`${c.utterance}/${c.segment}`) === c.text ? correctedTexts[i]! : free(c.text),
      };
    }),
    segments,
    superseded_transcripts: record.superseded_transcripts.map((t) => ({
      ...t,
      text: freeCounted(t.text),
      corrected_text: t.corrected_text === null ? null : freeCounted(t.corrected_text),
    })),
    notes: record.notes.map((n) => ({ ...n, text: freeCounted(n.text) })),
    model_reasoning: record.model_reasoning === null ? null : { ...record.model_reasoning, steps: record.model_reasoning.steps.map(free) },
    step_judgments: record.step_judgments.map((j) => ({ ...j, quote: j.quote === null ? null : free(j.quote) })),
    // coded units hold transcript words and coders' memos: placeholders there too
    ...(record.codings
      ? {
          codings: {
            ...record.codings,
            units: record.codings.units.map((u) => ({
              ...u,
              text: free(u.text),
              codes: Object.fromEntries(
                Object.entries(u.codes).map(([coder, given]) => [
                  coder,
                  given.map((c) => ({ ...c, memo: c.memo === null ? null : free(c.memo) })),
                ]),
              ),
            })),
          },
        }
      : {}),
  };
  return { record: out as R, audio_spans: audioSpans, counts, classes: numbers.classes() };
}

/**
 * The tokens with the same spans replaced: the first token a span touches carries its placeholder (with the text
 * before the span), the last one the text after it, the ones between become empty; times are kept, so the tokens
 * still join to the segment's text.
 */
function redactTokens(
  segment: ExportSegmentV2,
  offsets: ReadonlyArray<{ start: number; end: number } | null>,
  spans: readonly TextSpan[],
  numbers: PlaceholderNumbers,
  free: (text: string) => string,
): NonNullable<ExportSegmentV2['tokens']> {
  return segment.tokens!.map((token, i) => {
    const o = offsets[i];
    if (!o) return { ...token, text: free(token.text) };
    let text = '';
    let at = o.start;
    for (const s of spans) {
      if (s.end <= o.start || s.start >= o.end) continue;
      if (s.start >= o.start) text += segment.text.slice(at, s.start) + numbers.placeholder(s);
      at = Math.min(Math.max(at, s.end), o.end);
    }
    text += segment.text.slice(Math.max(at, o.start), o.end);
    return { ...token, text };
  });
}
