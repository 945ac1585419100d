import { computeAudioSignals } from '../../common/signals/audioSignals';
import type { AudioSignals } from '../../common/signals/signalTypes';
import { computeVadSignals, type VadSignals } from '../../common/signals/vadSignals';
import type { ThinkAloudConfig } from '../../common/project/projectConfig';
import type { WholeRecordingVad } from '../../common/engine/speechProbe';
import { readWav } from '../audio/wavFile';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

export interface ItemAudioSignals {
  samples: number;
  audio: AudioSignals;
  vad: VadSignals | null;
}

/** Audio signals over an item's whole WAV (every recording of the item): see `audioSignalsOf`. */
export async function itemAudioSignals(wavPath: string, thinkaloud: ThinkAloudConfig, vad: WholeRecordingVad | null = null): Promise<ItemAudioSignals> {
  const wav = await readWav(wavPath);
  return audioSignalsOf(wav.samples, wav.sampleRate, thinkaloud, vad);
}

/**
 * Audio signals over an item's audio, with the project's thresholds: the energy signals always, the voice-activity
 * ones (`vad_*`, same pause thresholds) when a VAD is given, else null.
 */
export function audioSignalsOf(samples: Float32Array, sampleRate: number, thinkaloud: ThinkAloudConfig, vad: WholeRecordingVad | null = null): ItemAudioSignals {
  const audio = computeAudioSignals(samples, sampleRate, {
    chunk_seconds: thinkaloud.chunk_seconds,
    silence_threshold_dbfs: thinkaloud.silence_threshold_dbfs,
    min_pause_ms: thinkaloud.min_pause_ms,
    long_pause_ms: thinkaloud.long_pause_ms,
  });
  let voice: VadSignals | null = null;
  if (vad && sampleRate === AUDIO_SAMPLE_RATE) {
    try {
      voice = computeVadSignals(vad.probabilitiesOf(samples), vad.windowSamples, sampleRate, { min_pause_ms: thinkaloud.min_pause_ms, long_pause_ms: thinkaloud.long_pause_ms });
    } catch {
      // a VAD that fails (freed, or whisper.cpp refuses the audio) leaves the vad_* signals out; the stop goes on
      voice = null;
    }
  }
  return { samples: samples.length, audio, vad: voice };
}
