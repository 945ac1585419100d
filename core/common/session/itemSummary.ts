import type { ItemSessionState, LabelSource } from './itemState';

/**
 * What the item list, its filters and the session's counters need of an item the session holds: a line each,
 * whatever the item holds (its transcript, segments and label history stay in its ItemSessionState). Opening a
 * session answers every item this way and only the open item in full, so the answer does not grow with transcripts.
 */
export interface ItemSummary {
  item_id: string;
  final_label: string | null;
  label_source: LabelSource | null;
  completed_at: string | null;
  /** the item's recorded audio, ms (0: none) */
  audio_ms: number;
  /** transcript segments (0 with audio: not transcribed yet) */
  segments: number;
  /** the verbatim transcript holds words (not only blanks) */
  has_words: boolean;
  /** the longest pause between the first and the last speech, ms; null without audio signals */
  longest_pause_ms: number | null;
  /** a label act after completion chose another label than the final one then */
  changed_after_completion: boolean;
}

/** The item's line, from its state (the one place a summary is made). */
export function summaryOfItem(state: ItemSessionState): ItemSummary {
  return {
    item_id: state.item_id,
    final_label: state.final_label,
    label_source: state.label_source,
    completed_at: state.completed_at,
    audio_ms: state.audio_ms,
    segments: state.segments.length,
    has_words: state.transcript.trim() !== '',
    longest_pause_ms: state.signals?.pauses?.longest_ms ?? null,
    changed_after_completion: state.changed_after_completion,
  };
}
