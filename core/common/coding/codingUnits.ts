import type { CodingUnitKind } from '../project/projectConfig';
import type { ItemSessionState } from '../session/itemState';
import { joinSegments, timeAtOffset, timeAtOffsetByTokens } from '../transcript/joinSegments';
import type { Segment } from '../transcript/segment';
import { sentenceSpans } from '../transcript/sentences';

/**
 * A unit of coding: one utterance of a protocol as the cutter made it, or one sentence within it. Its id names the
 * utterance by the index the log gave it ("u3"; a sentence "u3.s1", sentences counted from 0 within the utterance).
 * Utterance indices are never reused — a later transcription of the same audio makes new utterances and marks the
 * old ones superseded — so an id names the same words for as long as the log exists, and corrections, which are a
 * layer over the verbatim text, never move a unit's boundaries.
 */
export interface CodingUnit {
  item_id: string;
  unit: string;
  utterance: number;
  /** the sentence within the utterance (from 0); null for utterance units */
  sentence: number | null;
  /** verbatim, white space around it left out */
  text: string;
  /** on the item's audio timeline; a sentence's times are read off token times, or interpolated within its segment */
  t0_ms: number;
  t1_ms: number;
  /** [start, end) of `text` in the item's verbatim transcript (the current segments joined) */
  start: number;
  end: number;
}

/** A segment with the utterance it belongs to (a session state's segment_refs, an export record's segments). */
export type UtteranceSegment = Segment & { utterance: number };

export function unitId(utterance: number, sentence: number | null): string {
  return sentence === null ? `u${utterance}` : `u${utterance}.s${sentence}`;
}

const UNIT_ID = /^u(0|[1-9]\d{0,8})(?:\.s(0|[1-9]\d{0,5}))?$/;

/** The utterance and sentence a unit id names, or null when it is not a unit id. */
export function parseUnitId(id: string): { utterance: number; sentence: number | null } | null {
  const m = UNIT_ID.exec(id);
  return m ? { utterance: Number(m[1]), sentence: m[2] === undefined ? null : Number(m[2]) } : null;
}

/** The units of a protocol's current transcript, in order. Empty utterances (silence transcribed as nothing) make no unit. */
export function protocolUnits(itemId: string, segments: readonly UtteranceSegment[], kind: CodingUnitKind): CodingUnit[] {
  const { text, spans } = joinSegments(segments);
  const units: CodingUnit[] = [];
  let first = 0;
  while (first < segments.length) {
    const utterance = segments[first]!.utterance;
    let last = first;
    while (last + 1 < segments.length && segments[last + 1]!.utterance === utterance) last++;
    const from = spans[first]!.start;
    const to = spans[last]!.end;
    if (kind === 'utterance') {
      const [start, end] = trimmed(text, from, to);
      if (end > start)
        units.push({
          item_id: itemId,
          unit: unitId(utterance, null),
          utterance,
          sentence: null,
          text: text.slice(start, end),
          t0_ms: round(segments[first]!.t0_ms),
          t1_ms: round(segments[last]!.t1_ms),
          start,
          end,
        });
    } else {
      sentenceSpans(text.slice(from, to)).forEach(([s, e], sentence) => {
        const start = from + s;
        const end = from + e;
        const startsSegment = spans.findIndex((span, i) => i >= first && i <= last && span.start <= start && start <= span.end);
        const t0 =
          startsSegment >= 0 && text.slice(spans[startsSegment]!.start, start).trim() === ''
            ? segments[startsSegment]!.t0_ms
            : (timeAtOffset(spans, start) ?? 0);
        const t1 = timeAtOffsetByTokens(segments, spans, end) ?? t0;
        units.push({
          item_id: itemId,
          unit: unitId(utterance, sentence),
          utterance,
          sentence,
          text: text.slice(start, end),
          t0_ms: round(t0),
          t1_ms: round(Math.max(t0, t1)),
          start,
          end,
        });
      });
    }
    first = last + 1;
  }
  return units;
}

/** The units of an annotator's item as their session holds it now. */
export function unitsOfItem(state: Pick<ItemSessionState, 'item_id' | 'segments' | 'segment_refs'>, kind: CodingUnitKind): CodingUnit[] {
  return protocolUnits(
    state.item_id,
    state.segments.map((s, i) => ({ ...s, utterance: state.segment_refs[i]?.utterance ?? 0 })),
    kind,
  );
}

/**
 * An item's unit list is fixed once its transcript is final: the annotator completed the item (completing waits for
 * every pending transcription), and something was transcribed. Before that, utterances may still land.
 */
export function isTranscriptFinal(state: Pick<ItemSessionState, 'completed_at' | 'segments'> | null): boolean {
  return state !== null && state.completed_at !== null && state.segments.length > 0;
}

function trimmed(text: string, from: number, to: number): [number, number] {
  let start = from;
  let end = to;
  while (start < end && /\s/u.test(text[start]!)) start++;
  while (end > start && /\s/u.test(text[end - 1]!)) end--;
  return [start, end];
}

const round = (ms: number): number => Math.round(ms);
