import { readWav, resampleTo16k } from '../audio/wavFile';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

/** A WAV file as the engine takes it: mono (channels averaged), 16 kHz (resampled when needed). */
export async function readWavFor16k(file: string): Promise<{ pcm: Float32Array; sourceRate: number; durationMs: number }> {
  const wav = await readWav(file);
  const pcm = resampleTo16k(wav.samples, wav.sampleRate);
  return { pcm, sourceRate: wav.sampleRate, durationMs: (pcm.length / AUDIO_SAMPLE_RATE) * 1000 };
}
