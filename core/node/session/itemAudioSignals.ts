import { computeAudioSignals } from '../../common/signals/audioSignals';
import type { AudioSignals } from '../../common/signals/signalTypes';
import type { ThinkAloudConfig } from '../../common/project/projectConfig';
import { readWav } from '../audio/wavFile';

/** Audio signals over an item's whole WAV (every recording of the item), with the project's thresholds. */
export async function itemAudioSignals(wavPath: string, thinkaloud: ThinkAloudConfig): Promise<{ samples: number; audio: AudioSignals }> {
  const wav = await readWav(wavPath);
  const audio = computeAudioSignals(wav.samples, wav.sampleRate, {
    chunk_seconds: thinkaloud.chunk_seconds,
    silence_threshold_dbfs: thinkaloud.silence_threshold_dbfs,
    min_pause_ms: thinkaloud.min_pause_ms,
    long_pause_ms: thinkaloud.long_pause_ms,
  });
  return { samples: wav.samples.length, audio };
}
