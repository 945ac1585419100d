import type { LoggedEvent } from '../io/loggedEvent';

/** How sure the lead is of a gold label she decided. */
export type AdjudicationConfidence = 'high' | 'medium' | 'low';
export const ADJUDICATION_CONFIDENCES: readonly AdjudicationConfidence[] = ['high', 'medium', 'low'];

/** An annotator's final label on an item as the lead saw it when deciding. */
export interface LabelSeen {
  annotator: string;
  label: string;
}

/** The rationale of a decision; only typed rationales exist so far (a spoken one would name its recording). */
export interface TypedRationale {
  kind: 'typed';
  text: string;
}

/** The data of every adjudication event type (version 1). One log per adjudicator: adjudication/<name>/events.jsonl. */
export interface AdjudicationEventData {
  /** first event of an adjudicator's log */
  adjudication_started: { adjudicator: string; project: string };
  /**
   * A gold label for an item. `adopted`: the annotators whose final label it is (empty: it overrides them all);
   * `labels_seen`: every counted final label at that moment, so the record never depends on later sessions.
   * `revises`: the decision it replaces (this log's or another adjudicator's), null for the item's first.
   * `room`: the huddle room whose outcome the lead recorded, null when she decided alone.
   */
  decision_recorded: {
    item_id: string;
    label: string;
    adopted: string[];
    confidence: AdjudicationConfidence;
    causes: string[];
    rationale: TypedRationale | null;
    guideline_flag: string | null;
    room: string | null;
    revises: { adjudicator: string; seq: number } | null;
    labels_seen: LabelSeen[];
  };
  /** the item is asked of an annotator who has not seen it; she finds it first and labels it blind */
  item_assigned: { item_id: string; annotator: string };
  /** the items went to a huddle room (its log is rooms/<room>/events.jsonl) */
  items_sent_to_huddle: { item_ids: string[]; room: string };
}

export type AdjudicationEventType = keyof AdjudicationEventData;

export const ADJUDICATION_EVENT_VERSIONS: { readonly [T in AdjudicationEventType]: number } = {
  adjudication_started: 1,
  decision_recorded: 1,
  item_assigned: 1,
  items_sent_to_huddle: 1,
};

export type AdjudicationEvent = LoggedEvent<AdjudicationEventData>;

/** An event before the log gives it its place (seq) and time. */
export type AdjudicationPayload = { [T in AdjudicationEventType]: { type: T; data: AdjudicationEventData[T] } }[AdjudicationEventType];

export function isAdjudicationEventType(type: unknown): type is AdjudicationEventType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(ADJUDICATION_EVENT_VERSIONS, type);
}
