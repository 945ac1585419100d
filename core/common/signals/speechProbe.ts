/**
 * Voice activity from a model (Silero VAD through whisper.cpp, core/node/engine/sileroVad.ts): the speech
 * probability of each window of `windowSamples` samples, in order. Synchronous, and stateful like the model:
 * each call continues the stream from the previous one.
 */
export interface SpeechProbe {
  /** samples per probability (512 = 32 ms at 16 kHz for Silero) */
  readonly windowSamples: number;
  /** `pcm` holds whole windows; returns one probability (0…1) per window */
  probabilities(pcm: Float32Array): Float32Array;
  /** forget the stream (a new recording) */
  reset(): void;
}

/** What the vad_* signals need of the VAD: the speech probabilities of a whole recording, from a fresh state. */
export interface WholeRecordingVad {
  readonly windowSamples: number;
  probabilitiesOf(pcm: Float32Array): Float32Array;
}

/** Silero's own rule: speech starts at ≥ threshold and goes on while ≥ threshold − 0.15 (whisper.cpp's VAD too). */
export const DEFAULT_SPEECH_THRESHOLD = 0.5;
export const SPEECH_HYSTERESIS = 0.15;
