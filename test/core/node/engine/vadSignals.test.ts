import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAudioSignals } from '../../../../core/common/signals/audioSignals';
import { computeVadSignals } from '../../../../core/common/signals/vadSignals';
import { readWav } from '../../../../core/node/audio/wavFile';
import { SileroVad } from '../../../../core/node/engine/sileroVad';
import { SHARED } from './engineTestModels';

const VAD_MODEL = path.join(SHARED, 'models/for-tests-silero-v6.2.0-ggml.bin');
const JFK = path.join(SHARED, 'fixtures/audio/real-speech-jfk.wav');
const OPTIONS = { min_pause_ms: 300, long_pause_ms: 2000 };

describe('computeVadSignals (pure)', () => {
  it('counts speech windows, pauses between speech only, and the first speech, with Silero hysteresis', () => {
    // 32 ms windows: 3 silent, 8 speech (a dip to 0.4 stays speech), 10 silent, 8 speech, 5 silent, a 2-window click
    const speech = (n: number): number[] => Array.from({ length: n }, (_, i) => (i === 2 ? 0.4 : 0.9));
    const probs = [0.1, 0.1, 0.2, ...speech(8), ...Array(10).fill(0.05), ...speech(8), ...Array(5).fill(0.1), 0.9, 0.9, 0.1];
    const s = computeVadSignals(probs, 512, 16000, OPTIONS);
    expect(s.vad_time_to_first_speech_ms).toBe(96);
    expect(s.vad_speech_ms).toBe(16 * 32);
    expect(s.vad_pauses).toEqual({ count: 1, total_ms: 320, longest_ms: 320, long_count: 0 });
    expect(computeVadSignals([0.1, 0.2], 512, 16000, OPTIONS)).toMatchObject({
      vad_speech_ms: 0,
      vad_time_to_first_speech_ms: null,
      vad_pauses: { count: 0 },
    });
  });
});

describe.skipIf(!existsSync(VAD_MODEL) || !existsSync(JFK))('VAD signals on real speech (jfk.wav, Silero through whisper.cpp)', () => {
  it('over steady noise at −30 dBFS, the energy pauses vanish and the VAD pause between the parts stays', async () => {
    const clean = (await readWav(path.join(SHARED, 'fixtures/audio/commit-polite.wav'))).samples;
    let seed = 7;
    const noisy = clean.map((x) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return x + 0.1095 * (seed / 2 ** 31 - 0.5); // uniform noise of RMS 0.1095/√12 = 0.0316: −30 dBFS
    });
    const options = { chunk_seconds: 1, silence_threshold_dbfs: -45, ...OPTIONS };
    const cleanEnergy = computeAudioSignals(clean, 16000, options);
    const noisyEnergy = computeAudioSignals(noisy, 16000, options);
    expect(cleanEnergy.pauses.count).toBeGreaterThanOrEqual(1);
    expect(noisyEnergy.pauses.count).toBe(0);
    const vad = SileroVad.load(VAD_MODEL);
    const signals = computeVadSignals(vad.probabilitiesOf(noisy), vad.windowSamples, 16000, OPTIONS);
    vad.free();
    expect(signals.vad_pauses.longest_ms).toBeGreaterThan(1500);
  });

  it('find the three pauses Silero hears between its four speech parts; the energy figures are unchanged beside them', async () => {
    const wav = await readWav(JFK);
    const vad = SileroVad.load(VAD_MODEL);
    const signals = computeVadSignals(vad.probabilitiesOf(wav.samples), vad.windowSamples, 16000, OPTIONS);
    vad.free();
    // Silero VAD v6.2.0: speech at 0.32–2.27, 3.27–4.41, 5.38–7.68, 8.16–10.62 s
    expect(signals.vad_time_to_first_speech_ms).toBeGreaterThan(200);
    expect(signals.vad_time_to_first_speech_ms).toBeLessThan(450);
    expect(signals.vad_pauses.count).toBe(3);
    expect(signals.vad_speech_ms).toBeGreaterThan(7000);
    expect(signals.vad_speech_ms).toBeLessThan(9500);
  });
});
