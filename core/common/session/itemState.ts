import type { CommitmentRecord, ParseDiagnostic } from '../parser/parseTypes';
import type { StepJudgmentRecord } from '../reasoning/stepJudgments';
import type { AudioSignals, TranscriptSignals } from '../signals/signalTypes';
import type { VadSignals } from '../signals/vadSignals';
import type { Segment } from '../transcript/segment';

/**
 * How a label came to be: a spoken commit phrase, a click, a keyboard shortcut, a reviewer's re-derivation from a
 * corrected transcript, or a norming room's final vote.
 */
export type LabelSource = 'voice' | 'click' | 'key' | 'correction' | 'room';

/** A label given by a click, a key, a correction or a room (voice labels are commitments in the transcript). */
export interface ManualLabelRecord {
  label: string;
  source: Exclude<LabelSource, 'voice'>;
  /** ISO 8601 */
  at: string;
}

/** One label act on the item's timeline: what was chosen, how, and when it happened (not when it was logged). */
export interface LabelAct {
  label: string;
  source: LabelSource;
  /** ISO 8601: a click or key at its event; a voice commitment when its phrase was said (audio time on the session clock) */
  at: string;
  /** voice: when the commit phrase was complete on the item's audio timeline; null for other sources */
  audio_ms: number | null;
  /** voice: the commit phrase as transcribed; correction: the phrase in the corrected text; else null */
  quote: string | null;
  /** the reviewer whose act this is (a label from their corrections); null: the annotator's own (absent in states built before) */
  reviewer?: string | null;
}

/** A reviewer's correction of one segment: the verbatim text stays in `segments`, this is a layer over it. */
export interface CorrectionRecord {
  utterance: number;
  segment: number;
  /** the verbatim segment text the correction applies to */
  original_text: string;
  text: string;
  /** whose session */
  annotator: string;
  /** who corrected, when not that annotator; null: the annotator (or not recorded in older logs) */
  reviewer?: string | null;
  at: string;
}

/** A transcript that a later transcription of the same audio replaced; kept, never deleted. */
export interface SupersededTranscript {
  utterance: number;
  text: string;
  /** its text with the corrections made to it before it was superseded; null without */
  corrected_text: string | null;
  model: { name: string; sha256: string; whisper_cpp?: string | null };
  superseded_at: string;
  reason: string;
}

/** Everything the session knows about one item for one annotator: the fold's per-item output. */
/** The neutral "Please keep talking" cue, shown after silence_ms of silence at audio_ms on the item's audio. */
export interface KeepTalkingCue {
  at: string;
  silence_ms: number;
  audio_ms: number;
}

export interface ItemSessionState {
  item_id: string;
  /** WAV path relative to the project folder, null before any audio */
  audio_path: string | null;
  audio_ms: number;
  /** verbatim: the engine's segment texts joined in order, never cleaned */
  transcript: string;
  segments: Segment[];
  commitments: CommitmentRecord[];
  final_label: string | null;
  label_source: LabelSource | null;
  /** the first label committed for the item, before any change (calibration: blind vs final) */
  blind_label: string | null;
  /** energy audio signals, the voice-activity ones (vad_*, when the VAD ran) and the transcript's */
  signals: (Partial<AudioSignals> & Partial<VadSignals> & Partial<TranscriptSignals>) | null;
  /** whisper_cpp: the engine version that transcribed it (null when not recorded); vad: the VAD that cut its utterances */
  model: { name: string; sha256: string; whisper_cpp?: string | null; vad?: { name: string; sha256: string } | null } | null;
  /** the voice-activity model of the item's vad_* signals (null: none ran, or not recorded); absent in states built before */
  vad_model?: { name: string; sha256: string } | null;
  /** ISO 8601 times */
  started_at: string | null;
  completed_at: string | null;
  stale_results: number;
  /** click/key labels in order (added by the session store; absent in states built before it) */
  manual_labels?: ManualLabelRecord[];
  /** mentions the parser saw but did not commit (negated, ambiguous, unknown label) */
  parse_diagnostics?: ParseDiagnostic[];
  /** sha256 of the item text the annotator saw when they last opened the item (null in older logs) */
  item_text_sha256?: string | null;
  /** every label act in the order it happened: final_label is the last one's, blind_label the first one's */
  label_history: LabelAct[];
  /** for each entry of `segments`: its utterance and its index within it (what a correction names) */
  segment_refs: Array<{ utterance: number; segment: number }>;
  /** the transcript with the reviewers' corrections applied; null when there are none */
  transcript_corrected: string | null;
  corrections: CorrectionRecord[];
  superseded_transcripts: SupersededTranscript[];
  /** the parser version that derived the current voice labels (null in logs before it was recorded, or without any) */
  parser_version: string | null;
  /** the voice labels were derived under a configuration other than the current one (see `aloud session reparse`) */
  config_changed: boolean;
  /** labels in the history that the current label schema no longer has (kept, reported, never turned into null) */
  labels_not_in_schema: string[];
  /** a label act after the item was completed chose another label than its final one then (even if later undone) */
  changed_after_completion: boolean;
  /** the item's recordings in order: where each begins on the item's audio and when it started and stopped (absent in states built before) */
  recordings?: RecordingRecord[];
  /** when the item was first completed (completed_at is the last time) */
  first_completed_at?: string | null;
  /** from the item's first opening to its first completion, ms; null while never completed (or never opened) */
  time_to_complete_ms?: number | null;
  /**
   * how long the item was open, ms: from each opening to the next opening of any item; a sitting that ends (the log
   * ends, or the session is opened again) ends the item's time at the sitting's last event
   */
  time_open_ms?: number;
  /**
   * active time on the item, ms: the union of the annotator's own acts on it (keys, clicks, navigation, corrections,
   * utterances over the time they were said, playbacks over the time they played) and the gaps after them of at most
   * the idle gap bound, within one sitting (core/common/session/activeTime.ts); absent in states built before
   */
  time_on_item_active_ms?: number;
  /** time_open_ms in the annotator's own sittings only: a reviewer's sitting is the reviewer's time (absent in states built before) */
  time_on_item_wall_ms?: number;
  /** the idle gap bound the active time was counted with, ms (aloud.yaml time_on_item.idle_gap_seconds) */
  time_on_item_idle_gap_ms?: number;
  /** keep-talking cues shown while recording (absent in states built before cues existed) */
  cues?: KeepTalkingCue[];
  /** the model's reasoning as first shown to the annotator (from the reasoning_shown event), null while never shown */
  reasoning?: ShownReasoning | null;
  /** step judgments in log order (keys, clicks and voice); the last per step stands */
  step_judgments?: StepJudgmentRecord[];
  /** the words of the item text the annotator selected last (null: none, or cleared; absent in states built before) */
  selection?: TextSelection | null;
}

/** Words of the item text the annotator selected: [start, end) in UTF-16 offsets of the text she saw. */
export interface TextSelection {
  start: number;
  end: number;
  quote: string;
  /** ISO 8601 */
  at: string;
}

/** One recording of an item: audio from offset_ms on the item's timeline was recorded from started_at on. */
export interface RecordingRecord {
  /** where it begins on the item's audio, ms (exact: samples / 16) */
  offset_ms: number;
  /** ISO 8601 */
  started_at: string;
  /** ISO 8601; null while recording (or when a crash cut the recording) */
  stopped_at: string | null;
}

/** What the annotator was shown of a model's reasoning, and when. */
export interface ShownReasoning {
  /** ISO 8601: labels before this moment were given without seeing the model */
  shown_at: string;
  steps: string[];
  model_label: string | null;
  /** the item's audio length (ms) when it was shown: voice step judgments count only in audio after it */
  audio_ms: number;
}
