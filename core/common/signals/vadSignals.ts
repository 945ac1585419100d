import { DEFAULT_SPEECH_THRESHOLD, SPEECH_HYSTERESIS } from './speechProbe';
import type { PauseStats } from './signalTypes';

/**
 * Hesitation signals from voice activity (Silero VAD), beside the energy ones (AudioSignals), which stay as
 * they are. Named `vad_*` so that the two are never confused: energy pauses count any quiet frame, so room
 * noise or a fan hides them; VAD pauses are stretches the model does not hear as speech.
 */
export interface VadSignals {
  /** total length of the windows heard as speech */
  vad_speech_ms: number;
  /** maximal non-speech runs of at least min_pause_ms between the first and the last speech run */
  vad_pauses: PauseStats;
  /** start of the first speech window; null when no speech is heard */
  vad_time_to_first_speech_ms: number | null;
  /** the window the probabilities are on (32 ms for Silero at 16 kHz) */
  vad_window_ms: number;
}

export interface VadSignalOptions {
  min_pause_ms: number;
  long_pause_ms: number;
  /** speech starts at ≥ threshold and goes on while ≥ threshold − 0.15 (Silero's rule; default 0.5) */
  threshold?: number;
  /** shorter speech runs are clicks or breaths (default 250 ms, whisper.cpp's VAD default) */
  min_speech_ms?: number;
}

/** Speech runs [start, end) in windows, by Silero's hysteresis; runs shorter than min_speech_ms are clicks, not speech. */
export function vadSpeechRuns(
  probabilities: ArrayLike<number>,
  windowSamples: number,
  sampleRate: number,
  options: Pick<VadSignalOptions, 'threshold' | 'min_speech_ms'>,
): Array<[number, number]> {
  const threshold = options.threshold ?? DEFAULT_SPEECH_THRESHOLD;
  const windowMs = (windowSamples * 1000) / sampleRate;
  const minSpeechWindows = Math.ceil((options.min_speech_ms ?? 250) / windowMs);
  const runs: Array<[number, number]> = [];
  let runStart = -1;
  for (let w = 0; w <= probabilities.length; w++) {
    const speaking = w < probabilities.length && probabilities[w]! >= (runStart >= 0 ? threshold - SPEECH_HYSTERESIS : threshold);
    if (speaking && runStart < 0) runStart = w;
    if (!speaking && runStart >= 0) {
      if (w - runStart >= minSpeechWindows) runs.push([runStart, w]);
      runStart = -1;
    }
  }
  return runs;
}

/** The non-speech runs of at least minPauseMs between speech runs, as spans (ms from t = 0): the pauses `computeVadSignals` counts. */
export function pausesBetween(
  runs: ReadonlyArray<readonly [number, number]>,
  windowMs: number,
  minPauseMs: number,
): Array<{ t0_ms: number; t1_ms: number }> {
  const pauses: Array<{ t0_ms: number; t1_ms: number }> = [];
  for (let i = 1; i < runs.length; i++) {
    const t0 = runs[i - 1]![1] * windowMs;
    const t1 = runs[i]![0] * windowMs;
    if (t1 - t0 >= minPauseMs) pauses.push({ t0_ms: t0, t1_ms: t1 });
  }
  return pauses;
}

/** The VAD signals of one recording from its speech probabilities (one per window, in order from t = 0). */
export function computeVadSignals(
  probabilities: ArrayLike<number>,
  windowSamples: number,
  sampleRate: number,
  options: VadSignalOptions,
): VadSignals {
  if (!(windowSamples > 0) || !(sampleRate > 0)) throw new RangeError('windowSamples and sampleRate must be positive');
  if (!(options.min_pause_ms >= 0) || !(options.long_pause_ms >= 0))
    throw new RangeError('min_pause_ms and long_pause_ms must be numbers ≥ 0');
  const windowMs = (windowSamples * 1000) / sampleRate;
  const runs = vadSpeechRuns(probabilities, windowSamples, sampleRate, options);
  const pauses: PauseStats = { count: 0, total_ms: 0, longest_ms: 0, long_count: 0 };
  for (const pause of pausesBetween(runs, windowMs, options.min_pause_ms)) {
    const pauseMs = pause.t1_ms - pause.t0_ms;
    pauses.count++;
    pauses.total_ms += pauseMs;
    pauses.longest_ms = Math.max(pauses.longest_ms, pauseMs);
    if (pauseMs >= options.long_pause_ms) pauses.long_count++;
  }
  return {
    vad_speech_ms: runs.reduce((sum, [a, b]) => sum + (b - a), 0) * windowMs,
    vad_pauses: pauses,
    vad_time_to_first_speech_ms: runs.length === 0 ? null : runs[0]![0] * windowMs,
    vad_window_ms: windowMs,
  };
}
