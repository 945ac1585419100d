import { Refusal } from '../refusal/refusal';
import type { AdjudicationEvent, AdjudicationEventData, DecisionShown } from './adjudicationEvents';
import { say, type RefusalMessage } from '../refusal/refusalMessage';

/** One decision on an item as logged, with whose log and which line holds it. */
export interface DecisionRevision extends Omit<AdjudicationEventData['decision_recorded'], 'item_id'> {
  item_id: string;
  adjudicator: string;
  seq: number;
  decided_at: string;
}

export interface Assignment {
  item_id: string;
  annotator: string;
  adjudicator: string;
  assigned_at: string;
}

export interface HuddleSending {
  room: string;
  item_ids: string[];
  adjudicator: string;
  sent_at: string;
}

/** Every adjudicator's log folded together: decisions per item in time order (the last stands), assignments, huddles. */
export interface AdjudicationState {
  adjudicators: string[];
  /** item id → every decision on it, oldest first: a revision never erases the one before */
  decisions: Map<string, DecisionRevision[]>;
  assignments: Assignment[];
  huddles: HuddleSending[];
  /** adjudicator → last seq of her log */
  lastSeq: Map<string, number>;
}

/** An adjudication log that cannot be read (damaged, from a newer Aloud). */
export class AdjudicationLogError extends Refusal {
  override name = 'AdjudicationLogError';
  constructor(message: string | RefusalMessage) {
    super('conflict', message);
  }
}

export function emptyAdjudicationState(): AdjudicationState {
  return { adjudicators: [], decisions: new Map(), assignments: [], huddles: [], lastSeq: new Map() };
}

/** Folds one adjudicator's log into the state (logs of several adjudicators fold one after another). */
export function foldAdjudicationLog(state: AdjudicationState, events: readonly AdjudicationEvent[], file: string): AdjudicationState {
  const first = events[0];
  if (!first) return state;
  if (first.type !== 'adjudication_started')
    throw new AdjudicationLogError(say('refusal.adjudication.anAdjudicationLogStartsWith', { file }));
  const adjudicator = first.data.adjudicator;
  if (state.adjudicators.includes(adjudicator))
    throw new AdjudicationLogError(say('refusal.adjudication.aSecondLogForAdjudicator', { file, adjudicator }));
  state.adjudicators.push(adjudicator);
  let seq = 0;
  events.forEach((event, i) => {
    if (event.seq !== seq + 1)
      throw new AdjudicationLogError(say('refusal.adjudication.seqAfterALineIs', { file, value: i + 1, seq: event.seq, seq2: seq }));
    seq = event.seq;
    if (event.type === 'decision_recorded') {
      const list = state.decisions.get(event.data.item_id) ?? [];
      list.push({ ...event.data, adjudicator, seq: event.seq, decided_at: event.ts });
      // several adjudicators' logs interleave by time; the same instant keeps the fold order
      list.sort((a, b) => (a.decided_at < b.decided_at ? -1 : a.decided_at > b.decided_at ? 1 : 0));
      state.decisions.set(event.data.item_id, list);
    } else if (event.type === 'item_assigned') {
      state.assignments.push({ ...event.data, adjudicator, assigned_at: event.ts });
    } else if (event.type === 'items_sent_to_huddle') {
      state.huddles.push({ ...event.data, adjudicator, sent_at: event.ts });
    }
  });
  state.lastSeq.set(adjudicator, seq);
  return state;
}

/** The decision that stands for an item: the last one made; null when none. */
export function currentDecision(state: AdjudicationState, itemId: string): DecisionRevision | null {
  const list = state.decisions.get(itemId);
  return list && list.length > 0 ? list[list.length - 1]! : null;
}

/** The items assigned to an annotator, in the order they were assigned (each once). */
export function assignedItems(state: AdjudicationState, annotator: string): string[] {
  const ids: string[] = [];
  for (const a of state.assignments) if (a.annotator === annotator && !ids.includes(a.item_id)) ids.push(a.item_id);
  return ids;
}

/** Her items with the ones assigned to her first (in the items' own order), then the rest as they were. */
export function assignedItemsFirst<T extends { id: string }>(items: readonly T[], assigned: ReadonlySet<string>): T[] {
  return [...items.filter((i) => assigned.has(i.id)), ...items.filter((i) => !assigned.has(i.id))];
}

/** Who decided what, how sure and why (the rationale as its text and kind): how the queue and the gold export both open a decision. */
export function decisionOpening(
  d: DecisionRevision,
): Pick<DecisionShown, 'adjudicator' | 'label' | 'confidence' | 'causes' | 'rationale' | 'rationale_kind'> {
  return {
    adjudicator: d.adjudicator,
    label: d.label,
    confidence: d.confidence,
    causes: [...d.causes],
    rationale: d.rationale?.text ?? null,
    rationale_kind: d.rationale?.kind ?? null,
  };
}
