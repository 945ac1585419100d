import type { ExportSegmentV2 } from '../export/exportRecord';
import { settleOverlaps, type SpanMatcher, type TextSpan } from './spanMatcher';
import { spanTime, tokenOffsets, type SpanRef } from './deidentifyRecord';
import type { ReviewDecisionData, ReviewDecisionKind } from './reviewDecisions';

/** One text a reviewer reads: a segment's verbatim text, or its correction. */
export interface ReviewSegmentView {
  utterance: number;
  segment: number;
  layer: SpanRef['layer'];
  text: string;
  t0_ms: number;
  t1_ms: number;
}

/** A span the export would hide (or a match a reviewer rejected), with its audio time and the decision in force. */
export interface ReviewSpanView {
  span: SpanRef;
  class: string;
  /** the words themselves: shown to the reviewer on this machine, never written to an export or the review log */
  text: string;
  origin: TextSpan['origin'];
  decision: ReviewDecisionKind | null;
  t0_ms: number;
  t1_ms: number;
}

export interface DeidentifyReviewView {
  item_id: string;
  /** the project's list (null: no deidentify.yaml, nothing to review) */
  list: { version: string; terms: number; classes: string[] } | null;
  segments: ReviewSegmentView[];
  spans: ReviewSpanView[];
}

const sameSpan = (a: SpanRef, b: SpanRef): boolean =>
  a.utterance === b.utterance && a.segment === b.segment && a.layer === b.layer && a.start === b.start && a.end === b.end;

/**
 * What Review shows for one item: every segment text (verbatim and corrected), every match of the list in them and
 * every span a reviewer added, each with the decision in force (decisions made on the current texts only).
 */
export function buildReviewView(
  itemId: string,
  segments: readonly ExportSegmentV2[],
  corrections: ReadonlyArray<{ utterance: number; segment: number; text: string }>,
  matcher: SpanMatcher | null,
  list: DeidentifyReviewView['list'],
  decisions: readonly ReviewDecisionData[],
): DeidentifyReviewView {
  const texts: Array<{ view: ReviewSegmentView; source: ExportSegmentV2 }> = [];
  for (const s of segments) {
    texts.push({
      view: { utterance: s.utterance, segment: s.index, layer: 'verbatim', text: s.text, t0_ms: s.t0_ms, t1_ms: s.t1_ms },
      source: s,
    });
    const c = corrections.find((x) => x.utterance === s.utterance && x.segment === s.index);
    if (c)
      texts.push({
        view: { utterance: s.utterance, segment: s.index, layer: 'corrected', text: c.text, t0_ms: s.t0_ms, t1_ms: s.t1_ms },
        source: { ...s, tokens: [] },
      });
  }
  const spans: ReviewSpanView[] = [];
  if (matcher) {
    for (const { view, source } of texts) {
      const ref = { utterance: view.utterance, segment: view.segment, layer: view.layer };
      const mine = decisions.filter(
        (d) => d.span.utterance === ref.utterance && d.span.segment === ref.segment && d.span.layer === ref.layer,
      );
      const added: TextSpan[] = mine
        .filter((d) => d.decision === 'add')
        .map((d) => ({ start: d.span.start, end: d.span.end, class: d.class, key: '', origin: 'added' }));
      const found = settleOverlaps([
        ...added,
        ...matcher.find(view.text).filter((m) => !added.some((a) => m.start < a.end && a.start < m.end)),
      ]);
      const offsets = tokenOffsets(source);
      for (const m of found) {
        const span = { ...ref, start: m.start, end: m.end };
        spans.push({
          span,
          class: m.class,
          text: view.text.slice(m.start, m.end),
          origin: m.origin,
          decision: mine.find((d) => sameSpan(d.span, span))?.decision ?? null,
          ...spanTime(source, offsets, m, view.text.length),
        });
      }
    }
  }
  return { item_id: itemId, list, segments: texts.map((t) => t.view), spans };
}
