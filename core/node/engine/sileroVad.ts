import { existsSync } from 'node:fs';
import path from 'node:path';
import { EngineError } from '../../common/engine/engineTypes';
import type { SpeechProbe } from '../../common/signals/speechProbe';
import { type NativeVadModel, loadWhisperAddon } from './whisperAddon';

/** The Silero VAD model file the model manager downloads beside the default whisper model. */
export const VAD_MODEL_FILE = 'ggml-silero-v6.2.0.bin';

/**
 * Silero VAD v6 through whisper.cpp's VAD API, as a SpeechProbe for the live utterance cutter. Runs in the
 * calling thread (Silero is tiny: well under 1 ms per 32 ms window), continuing its LSTM state across calls
 * (whisper_vad_detect_speech_no_reset) so that capture chunks (50 ms in the app) give the probabilities of the whole recording.
 */
export class SileroVad implements SpeechProbe {
  readonly windowSamples: number;
  private model: NativeVadModel | null;

  private constructor(
    model: NativeVadModel,
    readonly file: string,
  ) {
    this.model = model;
    this.windowSamples = model.windowSamples;
  }

  static load(file: string): SileroVad {
    const addon = loadWhisperAddon();
    if (!addon.loadVad)
      throw new EngineError(
        'binding_missing',
        'this whisper.cpp build has no VAD (it predates whisper.cpp 1.7.6): run `npm run build:engine -- --force`',
      );
    if (!existsSync(file)) throw new EngineError('model_invalid', `the VAD model ${file} does not exist`);
    try {
      return new SileroVad(addon.loadVad(path.resolve(file), { threads: 1 }), path.resolve(file));
    } catch (e) {
      throw new EngineError('model_load_failed', (e as Error).message);
    }
  }

  probabilities(pcm: Float32Array): Float32Array {
    if (!this.model) throw new EngineError('engine_closed', 'the VAD model was freed');
    return this.model.detect(pcm, false);
  }

  /** Probabilities of a whole recording from a fresh state (signals, tests). */
  probabilitiesOf(pcm: Float32Array): Float32Array {
    if (!this.model) throw new EngineError('engine_closed', 'the VAD model was freed');
    return this.model.detect(pcm, true);
  }

  reset(): void {
    this.model?.reset();
  }

  free(): void {
    this.model?.free();
    this.model = null;
  }
}
