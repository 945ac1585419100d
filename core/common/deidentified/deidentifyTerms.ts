/** The built-in patterns of de-identification by name (their expressions: deidentify/deidentifyPatterns.ts). */
export type PatternName = 'email' | 'url' | 'phone' | 'digits' | 'date';
export const PATTERN_NAMES: readonly PatternName[] = ['email', 'url', 'phone', 'digits', 'date'];

/** How a hidden audio span sounds in a de-identified export. */
export type HiddenAudio = 'silence' | 'tone';
export const HIDDEN_AUDIO: readonly HiddenAudio[] = ['silence', 'tone'];

/** A stretch of samples [start, end) that a de-identified WAV holds as silence or tone. */
export interface SampleRange {
  start: number;
  end: number;
}
