import { computeAudioSignals } from '../../common/signals/audioSignals';
import type { AudioSignals } from '../../common/signals/signalTypes';
import { combineTakeAudioSignals, combineTakeVadSignals, takeBounds } from '../../common/signals/takeSignals';
import { computeVadSignals, type VadSignals } from '../../common/signals/vadSignals';
import type { ThinkAloudConfig } from '../../common/project/projectConfig';
import type { WholeRecordingVad } from '../../common/signals/speechProbe';
import { readWav } from '../audio/wavFile';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

export interface ItemAudioSignals {
  samples: number;
  audio: AudioSignals;
  vad: VadSignals | null;
  /** where each take begins in the audio, in samples (the signals are computed within each) */
  takes: number[];
}

/** Audio signals over an item's WAV (every recording of the item, each within its own take): see `audioSignalsOf`. */
export async function itemAudioSignals(
  wavPath: string,
  thinkaloud: ThinkAloudConfig,
  vad: WholeRecordingVad | null = null,
  takeStarts: readonly number[] = [0],
): Promise<ItemAudioSignals> {
  const wav = await readWav(wavPath);
  return audioSignalsOf(wav.samples, wav.sampleRate, thinkaloud, vad, takeStarts);
}

/**
 * Audio signals over an item's audio, with the project's thresholds, within each take (a pause never spans two
 * recordings, takeSignals): the energy signals always, the voice-activity ones (`vad_*`, same pause thresholds) when a
 * VAD is given, else null.
 */
export function audioSignalsOf(
  samples: Float32Array,
  sampleRate: number,
  thinkaloud: ThinkAloudConfig,
  vad: WholeRecordingVad | null = null,
  takeStarts: readonly number[] = [0],
): ItemAudioSignals {
  const bounds = takeBounds(samples.length, takeStarts);
  const parts = (bounds.length > 0 ? bounds : [[0, 0] as [number, number]]).map(([start, end]) => ({
    offsetMs: (start * 1000) / sampleRate,
    pcm: samples.subarray(start, end),
  }));
  const audio = combineTakeAudioSignals(
    parts.map(({ offsetMs, pcm }) => ({
      offsetMs,
      signals: computeAudioSignals(pcm, sampleRate, {
        chunk_seconds: thinkaloud.chunk_seconds,
        silence_threshold_dbfs: thinkaloud.silence_threshold_dbfs,
        min_pause_ms: thinkaloud.min_pause_ms,
        long_pause_ms: thinkaloud.long_pause_ms,
      }),
    })),
  );
  let voice: VadSignals | null = null;
  if (vad && sampleRate === AUDIO_SAMPLE_RATE) {
    try {
      voice = combineTakeVadSignals(
        parts.map(({ offsetMs, pcm }) => ({
          offsetMs,
          signals: computeVadSignals(vad.probabilitiesOf(pcm), vad.windowSamples, sampleRate, {
            min_pause_ms: thinkaloud.min_pause_ms,
            long_pause_ms: thinkaloud.long_pause_ms,
          }),
        })),
      );
    } catch {
      // a VAD that fails (freed, or whisper.cpp refuses the audio) leaves the vad_* signals out; the stop goes on
      voice = null;
    }
  }
  return { samples: samples.length, audio, vad: voice, takes: parts.map(({ offsetMs }) => Math.round((offsetMs * sampleRate) / 1000)) };
}
