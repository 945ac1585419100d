import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Utterance, UtteranceCutter } from '../../../../core/common/engine/utteranceCutter';
import { frameLevelsDbfs, rmsDbfs } from '../../../../core/common/signals/frameLevels';
import { readWav } from '../../../../core/node/audio/wavFile';
import { SileroVad } from '../../../../core/node/engine/sileroVad';
import { SHARED } from './engineTestModels';

const FIXTURES = path.join(SHARED, 'fixtures/audio');
const VAD_MODEL = path.join(SHARED, 'models/for-tests-silero-v6.2.0-ggml.bin');
const haveVad = existsSync(FIXTURES) && existsSync(VAD_MODEL);
if (!haveVad) console.warn(`[vad cutter test] SKIPPED: ${FIXTURES} or ${VAD_MODEL} is absent`);

/** Spoken parts of the shared clips in ms (../shared/fixtures/audio/README.md); between them, digital silence. */
const CLIPS: Record<string, Array<[number, number]>> = {
  'commit-polite.wav': [
    [0, 5097],
    [7097, 8753],
  ],
  'change-to-neutral.wav': [
    [0, 1732],
    [3232, 4970],
    [5770, 7837],
  ],
  'negated-then-impolite.wav': [
    [0, 2066],
    [3266, 6137],
  ],
};

function cut(cutter: UtteranceCutter, pcm: Float32Array): Utterance[] {
  const out: Utterance[] = [];
  for (let at = 0; at < pcm.length; at += 3200) out.push(...cutter.push(pcm.subarray(at, at + 3200)));
  out.push(...cutter.flush());
  return out;
}

const ms = (u: Utterance): [number, number] => [u.startSample / 16, u.endSample / 16];

/** The inserted silences of a clip: [end of one part, start of the next]. */
const gaps = (parts: Array<[number, number]>): Array<[number, number]> => parts.slice(1).map((p, i) => [parts[i]![1], p[0]]);

/** Every gap longer than the cutter's silence has a cut inside it, and no utterance lies wholly inside a gap. */
function expectCutsInGaps(utterances: Utterance[], parts: Array<[number, number]>): void {
  for (const [gapStart, gapEnd] of gaps(parts)) {
    const spanning = utterances.filter((u) => ms(u)[0] < gapStart + 100 && ms(u)[1] > gapEnd - 100);
    expect(spanning, `an utterance runs through the silence ${gapStart}–${gapEnd} ms`).toEqual([]);
    const inside = utterances.filter((u) => ms(u)[0] >= gapStart && ms(u)[1] <= gapEnd);
    expect(inside, `an utterance of silence at ${gapStart}–${gapEnd} ms`).toEqual([]);
  }
}

/**
 * All the speech is sent: every 20 ms frame of the clean clip above −45 dBFS (espeak's voice, not its
 * lead-in/out silence) lies within an utterance.
 */
function expectSpeechCovered(utterances: Utterance[], clean: Float32Array): void {
  const levels = frameLevelsDbfs(clean, 16000);
  levels.forEach((level, f) => {
    if (level < -45) return;
    const t = f * 20 + 10;
    expect(
      utterances.some((u) => ms(u)[0] <= t && ms(u)[1] >= t),
      `speech at ${t} ms (${level.toFixed(0)} dBFS) is in no utterance`,
    ).toBe(true);
  });
}

describe.skipIf(!haveVad)('UtteranceCutter with Silero VAD (real model through whisper.cpp)', () => {
  let vad: SileroVad;
  beforeAll(() => {
    vad = SileroVad.load(VAD_MODEL);
  });
  afterAll(() => vad.free());

  const vadCutter = (): UtteranceCutter => {
    vad.reset();
    return new UtteranceCutter({ silenceThresholdDbfs: -45, speech: vad });
  };

  it.each(Object.entries(CLIPS))('%s: cuts in every inserted silence, never sends silence, keeps all the speech', async (file, parts) => {
    const wav = await readWav(path.join(FIXTURES, file));
    const cutter = vadCutter();
    expect(cutter.mode).toBe('vad');
    const utterances = cut(cutter, wav.samples);
    expect(utterances.map((u) => u.index)).toEqual(utterances.map((_, i) => i));
    expectCutsInGaps(utterances, parts);
    expectSpeechCovered(utterances, wav.samples);
  });

  it('real speech (jfk.wav, room tone and breaths): one utterance per speech part Silero finds', async () => {
    const wav = await readWav(path.join(FIXTURES, 'real-speech-jfk.wav'));
    const utterances = cut(vadCutter(), wav.samples);
    // Silero VAD v6.2.0 with whisper.cpp's defaults: 0.32–2.27, 3.27–4.41, 5.38–7.68, 8.16–10.62 s
    const silero: Array<[number, number]> = [
      [320, 2270],
      [3270, 4410],
      [5380, 7680],
      [8160, 10620],
    ];
    expect(utterances).toHaveLength(silero.length);
    utterances.forEach((u, i) => {
      const [start, end] = ms(u);
      expect(start).toBeGreaterThan(silero[i]![0] - 400);
      expect(start).toBeLessThan(silero[i]![0]);
      expect(end).toBeGreaterThan(silero[i]![1]);
      expect(end).toBeLessThan(silero[i]![1] + 500);
    });
  });

  it('the same utterances whatever the chunk sizes (the probe streams whole 32 ms windows)', async () => {
    const wav = await readWav(path.join(FIXTURES, 'change-to-neutral.wav'));
    const whole = cut(vadCutter(), wav.samples).map(ms);
    const cutter = vadCutter();
    const odd: Utterance[] = [];
    for (let at = 0, n = 1; at < wav.samples.length; at += n, n = (n * 7 + 13) % 4001)
      odd.push(...cutter.push(wav.samples.subarray(at, at + n)));
    odd.push(...cutter.flush());
    expect(odd.map(ms)).toEqual(whole);
  });

  describe('speech over white noise at −30 dBFS (noise made with sox)', () => {
    let noisy: Float32Array;
    let clean: Float32Array;
    beforeAll(async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'aloud-vad-noise-'));
      const noiseFile = path.join(dir, 'white.wav');
      await promisify(execFile)('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', noiseFile, 'synth', '8.754', 'whitenoise']);
      const noise = (await readWav(noiseFile)).samples;
      clean = (await readWav(path.join(FIXTURES, 'commit-polite.wav'))).samples;
      const gain = 10 ** ((-30 - rmsDbfs(noise)) / 20);
      noisy = new Float32Array(clean.length);
      for (let i = 0; i < clean.length; i++) noisy[i] = clean[i]! + gain * noise[i % noise.length]!;
    });

    it('the noise is at −30 dBFS, so every frame is "speech" to the energy cutter (one utterance, no pause)', () => {
      expect(rmsDbfs(noisy, 5300 * 16, 6900 * 16)).toBeCloseTo(-30, 0);
      const energy = cut(new UtteranceCutter({ silenceThresholdDbfs: -45 }), noisy);
      expect(energy).toHaveLength(1);
    });

    it('the VAD cutter still finds the pause between the parts and keeps the speech', () => {
      const utterances = cut(vadCutter(), noisy);
      const parts = CLIPS['commit-polite.wav']!;
      expectCutsInGaps(utterances, parts);
      expectSpeechCovered(utterances, clean);
    });
  });
});
