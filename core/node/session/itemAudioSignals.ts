import { computeAudioSignals } from '../../common/signals/audioSignals';
import type { AudioSignals } from '../../common/signals/signalTypes';
import { computeVadSignals, type VadSignals } from '../../common/signals/vadSignals';
import type { ThinkAloudConfig } from '../../common/project/projectConfig';
import { readWav } from '../audio/wavFile';

/** What the signals need of the VAD: the speech probabilities of a whole recording, from a fresh state. */
export interface WholeRecordingVad {
  readonly windowSamples: number;
  probabilitiesOf(pcm: Float32Array): Float32Array;
}

/** Silero VAD runs on 16 kHz audio only. */
const VAD_SAMPLE_RATE = 16_000;

/**
 * Audio signals over an item's whole WAV (every recording of the item), with the project's thresholds: the energy
 * signals always, the voice-activity ones (`vad_*`, same pause thresholds) when a VAD is given, else null.
 */
export async function itemAudioSignals(
  wavPath: string,
  thinkaloud: ThinkAloudConfig,
  vad: WholeRecordingVad | null = null,
): Promise<{ samples: number; audio: AudioSignals; vad: VadSignals | null }> {
  const wav = await readWav(wavPath);
  const audio = computeAudioSignals(wav.samples, wav.sampleRate, {
    chunk_seconds: thinkaloud.chunk_seconds,
    silence_threshold_dbfs: thinkaloud.silence_threshold_dbfs,
    min_pause_ms: thinkaloud.min_pause_ms,
    long_pause_ms: thinkaloud.long_pause_ms,
  });
  let voice: VadSignals | null = null;
  if (vad && wav.sampleRate === VAD_SAMPLE_RATE) {
    try {
      voice = computeVadSignals(vad.probabilitiesOf(wav.samples), vad.windowSamples, wav.sampleRate, { min_pause_ms: thinkaloud.min_pause_ms, long_pause_ms: thinkaloud.long_pause_ms });
    } catch {
      // a VAD that fails (freed, or whisper.cpp refuses the audio) leaves the vad_* signals out; the stop goes on
      voice = null;
    }
  }
  return { samples: wav.samples.length, audio, vad: voice };
}
