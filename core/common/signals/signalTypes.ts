import type { HesitationSignals } from './hesitation';

/** Hesitation signals from the audio (see the definitions; pure arithmetic). */
export interface PauseStats {
  count: number;
  total_ms: number;
  longest_ms: number;
  /** pauses of at least long_pause_ms */
  long_count: number;
}

export interface AudioSignals {
  silent_chunks: number;
  /** chunks counted on the grid (the trailing partial chunk only when at least half a chunk) */
  total_chunks: number;
  pauses: PauseStats;
  /** start of the first non-silent frame; null when the audio is silent throughout */
  time_to_first_speech_ms: number | null;
}

/** Hesitation signals from the verbatim transcript and the parser's commitments. */
export interface TranscriptSignals extends HesitationSignals {
  /** the legacy single filler list (thinkaloud.fillers), every category summed, no context rules */
  filler_count: number;
  fillers_by_term: Record<string, number>;
  word_count: number;
  commitment_count: number;
  label_changes: number;
  /** only with segment timestamps; otherwise null */
  time_to_first_commit_ms: number | null;
  time_to_final_commit_ms: number | null;
}

export interface AudioSignalOptions {
  chunk_seconds: number;
  silence_threshold_dbfs: number;
  min_pause_ms: number;
  long_pause_ms: number;
}
