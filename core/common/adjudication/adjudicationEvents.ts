import type { LoggedEvent } from '../io/loggedEvent';

/** How sure the lead is of a gold label she decided. */
export type AdjudicationConfidence = 'high' | 'medium' | 'low';
export const ADJUDICATION_CONFIDENCES: readonly AdjudicationConfidence[] = ['high', 'medium', 'low'];

/** An annotator's final label on an item as the lead saw it when deciding. */
export interface LabelSeen {
  annotator: string;
  label: string;
}

/** A rationale the lead typed. */
export interface TypedRationale {
  kind: 'typed';
  text: string;
}

/** A rationale the lead spoke: her recording (kept in her own adjudication folder) and its verbatim transcript. */
export interface SpokenRationale {
  kind: 'spoken';
  /** the transcript exactly as the engine gave it (segments joined), like an annotator's protocol */
  text: string;
  /** the WAV, relative to the project folder: adjudication/<adjudicator>/rationales/<sha256>.wav */
  audio: string;
  /** sha256 of the WAV file's bytes (its name too) */
  audio_sha256: string;
  audio_ms: number;
  /** the model that transcribed it (scripted:<sha256> for an engine script) */
  model: { name: string; sha256: string };
}

export type DecisionRationale = TypedRationale | SpokenRationale;

/** A recorded decision as the lead's queue and the gold export show it: who, which label, how sure, why (the rationale as text), when. */
export interface DecisionShown {
  adjudicator: string;
  label: string;
  confidence: AdjudicationConfidence;
  causes: string[];
  /** typed, or the verbatim transcript of the spoken rationale */
  rationale: string | null;
  rationale_kind: 'typed' | 'spoken' | null;
  guideline_flag: string | null;
  /** the huddle room the decision came from, null when the lead decided alone */
  room: string | null;
  decided_at: string;
}

/** The data of every adjudication event type (decision_recorded version 2: a rationale may be spoken). One log per adjudicator: adjudication/<name>/events.jsonl. */
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
    rationale: DecisionRationale | null;
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
  decision_recorded: 2,
  item_assigned: 1,
  items_sent_to_huddle: 1,
};

export type AdjudicationEvent = LoggedEvent<AdjudicationEventData>;

/** An event before the log gives it its place (seq) and time. */
export type AdjudicationPayload = { [T in AdjudicationEventType]: { type: T; data: AdjudicationEventData[T] } }[AdjudicationEventType];

export function isAdjudicationEventType(type: unknown): type is AdjudicationEventType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(ADJUDICATION_EVENT_VERSIONS, type);
}

/** Event type → version it upcasts from → the data at the next version. */
const ADJUDICATION_UPCASTERS: { readonly [T in AdjudicationEventType]?: Readonly<Record<number, (data: unknown) => unknown>> } = {
  // v1 held only typed rationales, which v2 keeps as they are
  decision_recorded: { 1: (data) => data },
};

/** Data written at `version` brought to the current version of `type`, or the reason it cannot be read. */
export function upcastAdjudicationData(
  type: AdjudicationEventType,
  version: number,
  data: unknown,
): { data: unknown } | { problem: string } {
  const current = ADJUDICATION_EVENT_VERSIONS[type];
  if (!Number.isInteger(version) || version < 1 || version > current)
    return { problem: `${type} version ${String(version)} is not known to this version of Aloud` };
  let upcast = data;
  for (let v = version; v < current; v++) {
    const step = ADJUDICATION_UPCASTERS[type]?.[v];
    if (!step) return { problem: `${type} v${v} cannot be read: no upcaster from v${v} to v${v + 1}` };
    upcast = step(upcast);
  }
  return { data: upcast };
}
