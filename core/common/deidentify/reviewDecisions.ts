import { Refusal } from '../refusal/refusal';
import { CLASS_PATTERN } from './deidentifyList';
import type { RecordDecisions, SpanRef } from './deidentifyRecord';
import type { SpanMatcher } from './spanMatcher';
import { say } from '../refusal/refusalMessage';

/**
 * The review of what an export will hide, as events in the annotator's own de-identification log
 * (sessions/<annotator>/deidentify.jsonl, beside the session's events.jsonl): who decided, when, which span of
 * which segment and which class. Never the hidden text: a span is named by its offsets and the sha256 of the
 * segment's text it was decided on (so a decision on a text that changed since no longer applies).
 */
export type ReviewDecisionKind = 'accept' | 'reject' | 'add';
export const REVIEW_DECISION_KINDS: readonly ReviewDecisionKind[] = ['accept', 'reject', 'add'];

export interface ReviewDecisionData {
  item_id: string;
  decision: ReviewDecisionKind;
  span: SpanRef;
  class: string;
  /** sha256 of the segment's text (verbatim or corrected, as the span's layer says) the decision was made on */
  text_sha256: string;
  reviewer: string;
}

export const REVIEW_EVENT_TYPE = 'deidentify_decided';
export const REVIEW_EVENT_VERSION = 1;

export interface ReviewEvent {
  v: number;
  seq: number;
  ts: string;
  type: typeof REVIEW_EVENT_TYPE;
  data: ReviewDecisionData;
}

/** What a reviewer asks for: a decision on a span of one segment of an item. */
export interface ReviewCommand {
  item_id: string;
  decision: ReviewDecisionKind;
  span: SpanRef;
  /** the class an added span gets; for accept and reject, the match's own class (checked) */
  class: string;
}

/** The segment a command names, as the reviewer sees it now. */
export interface ReviewedText {
  text: string;
  sha256: string;
}

const spanId = (itemId: string, s: SpanRef): string => `${itemId}\u0000${s.utterance}/${s.segment}/${s.layer}/${s.start}-${s.end}`;

/**
 * Decides one review command: refused (bad_request) for a span outside its text, an unknown class, an accept or
 * reject of something the list does not match there (nor a reviewer added), an added span that does not start and end on word edges, or
 * no reviewer; else the event to append. Pure: the host appends it.
 */
export function decideReview(
  command: ReviewCommand,
  reviewed: ReviewedText | null,
  matcher: SpanMatcher,
  reviewer: string,
  addedHere = false,
): ReviewDecisionData {
  const { span } = command;
  if (reviewer.trim() === '') throw new Refusal('bad_request', say('refusal.deidentify.aReviewDecisionNeedsA'));
  if (!reviewed)
    throw new Refusal(
      'not_found',
      say('refusal.deidentify.hasNoTextAtUtterance', {
        itemId: command.item_id,
        layer: span.layer,
        utterance: span.utterance,
        segment: span.segment,
      }),
    );
  const { text } = reviewed;
  if (!Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < 0 || span.end > text.length || span.start >= span.end) {
    throw new Refusal(
      'bad_request',
      say('refusal.deidentify.spanIsNotInsideThe', { start: span.start, end: span.end, length: text.length }),
    );
  }
  if (!new RegExp(CLASS_PATTERN, 'u').test(command.class))
    throw new Refusal('bad_request', say('refusal.deidentify.classMustBeCapitalsDigits', { class: command.class }));
  if (command.decision === 'add') {
    const word = /[\p{L}\p{N}]/u;
    const edge = (i: number): boolean => i <= 0 || i >= text.length || !word.test(text[i - 1]!) || !word.test(text[i]!);
    if (!edge(span.start) || !edge(span.end) || !word.test(text.slice(span.start, span.end)))
      throw new Refusal('bad_request', say('refusal.deidentify.anAddedSpanIsWhole'));
  } else {
    const match = matcher.find(text).find((m) => m.start === span.start && m.end === span.end);
    if (!match && !addedHere && command.decision === 'reject')
      throw new Refusal('bad_request', say('refusal.deidentify.nothingTheListHidesStarts', { start: span.start, end: span.end }));
    if (match && match.class !== command.class)
      throw new Refusal(
        'bad_request',
        say('refusal.deidentify.theMatchAtIsNot', { start: span.start, end: span.end, class: match.class, class2: command.class }),
      );
  }
  return {
    item_id: command.item_id,
    decision: command.decision,
    span: { ...span },
    class: command.class,
    text_sha256: reviewed.sha256,
    reviewer,
  };
}

/** The decisions in force per item: the last decision on each span wins (a reject after an add takes the add back). */
export class ReviewFold {
  private readonly last = new Map<string, ReviewDecisionData>();

  apply(event: ReviewDecisionData): void {
    this.last.set(spanId(event.item_id, event.span), event);
  }

  /** One item's decisions that still apply: those made on the texts the item has now. */
  decisionsOf(itemId: string, currentSha256: (span: SpanRef) => string | null): RecordDecisions & { accepted: number } {
    const rejected: SpanRef[] = [];
    const added: Array<SpanRef & { class: string }> = [];
    let accepted = 0;
    for (const d of this.last.values()) {
      if (d.item_id !== itemId || currentSha256(d.span) !== d.text_sha256) continue;
      if (d.decision === 'reject') rejected.push(d.span);
      else if (d.decision === 'add') added.push({ ...d.span, class: d.class });
      else accepted++;
    }
    return { rejected, added, accepted };
  }

  /** Every decision in force of one item, for the review screen. */
  itemDecisions(itemId: string): ReviewDecisionData[] {
    return [...this.last.values()].filter((d) => d.item_id === itemId);
  }
}
