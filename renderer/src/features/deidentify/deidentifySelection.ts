import type { SpanRef } from '../../../../core/common/deidentify/deidentifyRecord';
import type { ReviewSegmentView } from '../../../../core/common/deidentify/reviewView';

/** Words of a segment text a reviewer can select: letters and digits, joined by an inner apostrophe or hyphen. */
export function selectableWords(text: string): Array<{ text: string; start: number; end: number }> {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The words selected in one segment (by index in the review's list of texts), first to last in either order. */
export interface WordSelection {
  segment: number;
  first: number;
  last: number;
}

/** The span a word selection names: from the first selected word's start to the last one's end. */
export function wordSelectionSpan(segments: readonly ReviewSegmentView[], selection: WordSelection): SpanRef | null {
  const segment = segments[selection.segment];
  if (!segment) return null;
  const words = selectableWords(segment.text);
  const a = words[Math.min(selection.first, selection.last)];
  const b = words[Math.max(selection.first, selection.last)];
  if (!a || !b) return null;
  return { utterance: segment.utterance, segment: segment.segment, layer: segment.layer, start: a.start, end: b.end };
}
