import type { ParseDiagnostic } from '../parser/parseTypes';
import type { StepJudgmentRecord } from '../reasoning/stepJudgments';
import type { AudioSignals, TranscriptSignals } from '../signals/signalTypes';
import type { Segment } from '../transcript/segment';

/** How a label came to be: spoken commit phrase, a click, or a keyboard shortcut. */
export type LabelSource = 'voice' | 'click' | 'key';

/** A committed label with where it was said (offsets into the item's verbatim transcript). */
export interface CommitmentRecord {
  label: string;
  quote: string;
  start: number;
  end: number;
  /** time on the item's audio timeline, when segment timestamps exist */
  t_ms: number | null;
  stem: string;
}

/** A label given by a click or a keyboard shortcut (voice labels are commitments in the transcript). */
export interface ManualLabelRecord {
  label: string;
  source: Exclude<LabelSource, 'voice'>;
  /** ISO 8601 */
  at: string;
}

/** Everything the session knows about one item for one annotator: the fold's per-item output. */
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
  signals: (Partial<AudioSignals> & Partial<TranscriptSignals>) | null;
  model: { name: string; sha256: string } | null;
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
  /** the model's reasoning as first shown to the annotator (from the reasoning_shown event), null while never shown */
  reasoning?: ShownReasoning | null;
  /** step judgments in log order (keys, clicks and voice); the last per step stands */
  step_judgments?: StepJudgmentRecord[];
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
