import type { AlphaLevel } from '../agreement/krippendorff';
import type { LabelSource } from '../session/itemState';
import type { LoggedEvent } from '../io/loggedEvent';

/** A piece of the expert's transcript as the engine returned it (times on the item's audio). */
export interface ShadowSegment {
  t0_ms: number;
  t1_ms: number;
  text: string;
}

/** A commit phrase found in the item's transcript: offsets into it, and the label it commits. */
export interface ShadowCommitment {
  start: number;
  end: number;
  label: string;
}

/** A label mention the parser did not commit (negated, ambiguous, unknown label): offsets into the transcript. */
export interface ShadowDiagnostic {
  start: number;
  end: number;
  kind: 'negated' | 'ambiguous' | 'unknown_label';
  message: string;
}

/** What the expert had given the item before the room saw it (she labelled it before opening the room). */
export interface ShadowPriorLabels {
  blind_label: string;
  final_label: string;
  label_source: LabelSource;
}

/**
 * The data of every shadow room event type (version 1). The log holds what trainees were shown and when, and their
 * practice votes; it is never the expert's session (the room only listens to hers).
 */
export interface ShadowEventData {
  /** first event: whose annotating is shown (null: the first session that feeds the room), the labels to practise with */
  shadow_opened: { code: string; project: string; expert: string | null; labels: string[]; level: AlphaLevel; max_members: number };
  /** the expert's session began feeding the room (the app, or `session ingest --shadow-room`) */
  expert_joined: { annotator: string; via: 'app' | 'ingest' };
  /** her session stopped feeding: it closed, or the feed was lost */
  expert_left: { reason: 'session_closed' | 'feed_lost' };
  /** the token itself is never logged, only its sha256 */
  trainee_joined: { member_id: string; name: string; token_sha256: string };
  trainee_removed: { member_id: string };
  /** the expert opened the item: its text as shown; prior: labels she had given it before the room saw it */
  item_shown: { item_id: string; text: string; context: string | null; prior: ShadowPriorLabels | null };
  /** live view of the item ended: she opened another, her session left, or the room closed */
  item_left: { item_id: string; reason: 'item_changed' | 'expert_left' | 'room_closed' };
  recording: { item_id: string; on: boolean };
  /** the words of the item text she selected (null: cleared) */
  text_selected: { item_id: string; span: { start: number; end: number; quote: string } | null };
  /** text of the utterance she is speaking, greyed; hidden: spans that read as a commit phrase (masked until a trainee answers) */
  partial: { item_id: string; utterance: number; text: string; hidden: Array<{ start: number; end: number }> };
  /** finals landed (one, or those the item had when shown), with the item's commit phrases and mentions as they stand now */
  utterances: {
    item_id: string;
    utterances: Array<{ utterance: number; segments: ShadowSegment[] }>;
    commitments: ShadowCommitment[];
    diagnostics: ShadowDiagnostic[];
  };
  /** one of her label acts, with its source; blind/final: the item's first and final label after it (her session's fold) */
  label_act: {
    item_id: string;
    label: string;
    source: LabelSource;
    quote: string | null;
    audio_ms: number | null;
    blind_label: string;
    final_label: string;
  };
  /** a pause in her speech while recording (energy rule, min_pause_ms): logged when it reaches the minimum, each second after, and when speech resumes */
  pause: { item_id: string; start_ms: number; ms: number; ended: boolean };
  /** the model's reasoning, once she has seen it */
  reasoning_shown: { item_id: string; steps: string[]; model_label: string | null };
  item_completed: { item_id: string };
  /** the expert shares her audio with the trainees (off by default), or stops sharing it */
  audio_shared: { on: boolean };
  /**
   * A trainee's practice label for the item on view (label null: skipped), given before seeing the expert's; ms: since
   * the item was shown; expert_had_labelled: the expert had labelled it already (hidden from the trainee)
   */
  practice_vote: { member_id: string; item_id: string; label: string | null; ms: number; expert_had_labelled: boolean };
  /** the feed outgrew the log's bound: nothing more of the expert is logged or shown */
  feed_stopped: { log_bytes: number };
  room_closed: Record<string, never>;
}

export type ShadowEventType = keyof ShadowEventData;

export const SHADOW_EVENT_VERSIONS: { readonly [T in ShadowEventType]: number } = {
  shadow_opened: 1,
  expert_joined: 1,
  expert_left: 1,
  trainee_joined: 1,
  trainee_removed: 1,
  item_shown: 1,
  item_left: 1,
  recording: 1,
  text_selected: 1,
  partial: 1,
  utterances: 1,
  label_act: 1,
  pause: 1,
  reasoning_shown: 1,
  item_completed: 1,
  audio_shared: 1,
  practice_vote: 1,
  feed_stopped: 1,
  room_closed: 1,
};

export type ShadowEvent = LoggedEvent<ShadowEventData>;

export type ShadowEntry = { [T in ShadowEventType]: { type: T; data: ShadowEventData[T] } }[ShadowEventType];

export function isShadowEventType(type: unknown): type is ShadowEventType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(SHADOW_EVENT_VERSIONS, type);
}

/**
 * Bytes of the log the expert's feed may fill before live view stops (feed_stopped): hours of talking (a partial
 * about every second of speech, a final per utterance). Trainees' events keep the norming room's bounds.
 */
export const MAX_SHADOW_FEED_BYTES = 64 * 1024 * 1024;
/** One utterance, partial or final, longer than this is cut for the room (the session keeps it whole). */
export const MAX_SHADOW_TEXT_CHARS = 20_000;
/** Audio kept for trainees to fetch while she shares it: the last seconds of the item's recording. */
export const SHADOW_AUDIO_SECONDS = 20;
