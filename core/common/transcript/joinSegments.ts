import type { Segment } from './segment';

/** Where one segment's text sits in the joined transcript ([start, end) in UTF-16 offsets) and when it was said. */
export interface SegmentSpan {
  start: number;
  end: number;
  t0_ms: number;
  t1_ms: number;
}

export interface JoinedTranscript {
  text: string;
  /** one span per segment, in order */
  spans: SegmentSpan[];
}

const startsWithSpace = /^\s/u;
const endsWithSpace = /\s$/u;

/**
 * The item transcript: the engine's segment texts concatenated in order, verbatim. A single " " goes between two
 * texts only where the text so far does not end with whitespace and the next does not start with it (whisper
 * texts usually start with a space, so usually nothing is inserted). Empty segment texts add nothing and never
 * cause a separator, so ["a", "", "b"] joins to "a b".
 */
export function joinSegments(segments: readonly Segment[]): JoinedTranscript {
  let text = '';
  const spans: SegmentSpan[] = [];
  for (const segment of segments) {
    const piece = segment.text;
    if (text.length > 0 && piece.length > 0 && !endsWithSpace.test(text) && !startsWithSpace.test(piece)) text += ' ';
    spans.push({ start: text.length, end: text.length + piece.length, t0_ms: segment.t0_ms, t1_ms: segment.t1_ms });
    text += piece;
  }
  return { text, spans };
}

/**
 * Time (ms on the item timeline) at a transcript offset: linear interpolation of t0..t1 across the span holding
 * the offset, so offset `span.end` gives t1. At an offset where one span ends and the next begins, the earlier
 * span wins: an offset read as "the end of the text before it" is the moment that text was complete. An offset
 * on an inserted separator (between spans) takes the end time of the span before it. Null without spans.
 */
export function timeAtOffset(spans: readonly SegmentSpan[], offset: number): number | null {
  if (spans.length === 0) return null;
  const last = spans[spans.length - 1]!;
  if (!Number.isInteger(offset) || offset < 0 || offset > last.end) {
    throw new RangeError(`offset ${offset} is outside the transcript (0..${last.end})`);
  }
  // binary search for the first span whose end is at or after the offset
  let lo = 0;
  let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.end >= offset) hi = mid;
    else lo = mid + 1;
  }
  const span = spans[lo]!;
  if (offset < span.start) {
    // on a separator: the previous span has finished (the first span always starts at 0)
    return lo > 0 ? spans[lo - 1]!.t1_ms : span.t0_ms;
  }
  const length = span.end - span.start;
  if (length === 0) return span.t1_ms;
  return span.t0_ms + ((offset - span.start) / length) * (span.t1_ms - span.t0_ms);
}

/**
 * Time (ms) at a transcript offset, read off token times where the segment holding it has tokens whose texts
 * join to exactly its text (whisper.cpp's per-token timestamps): the end of the token that holds the offset.
 * Elsewhere, and when the tokens do not spell the segment, the linear interpolation of `timeAtOffset`.
 */
export function timeAtOffsetByTokens(segments: readonly Segment[], spans: readonly SegmentSpan[], offset: number): number | null {
  const fallback = timeAtOffset(spans, offset);
  const index = spans.findIndex((span) => span.end >= offset && span.start <= offset);
  const segment = index >= 0 ? segments[index] : undefined;
  const tokens = segment?.tokens;
  if (!segment || !tokens || tokens.length === 0 || tokens.map((t) => t.text).join('') !== segment.text) return fallback;
  const within = offset - spans[index]!.start;
  let at = 0;
  for (const token of tokens) {
    at += token.text.length;
    if (at >= within) return token.t1_ms;
  }
  return fallback;
}
