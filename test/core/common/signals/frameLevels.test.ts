import { describe, expect, it } from 'vitest';
import { FrameLevelMeter, frameLevelsDbfs, levelOfSumDbfs, rmsDbfs } from '../../../../core/common/signals/frameLevels';
import { burstyAudio, prng } from './syntheticAudio';

function meterLevels(meter: FrameLevelMeter, pcm: Float32Array, cuts: number[]): number[] {
  const levels: number[] = [];
  let from = 0;
  for (const to of [...cuts, pcm.length]) {
    levels.push(...meter.push(pcm.subarray(from, to)));
    from = to;
  }
  const pending = meter.pendingLevel();
  if (pending !== null) levels.push(pending);
  return levels;
}

describe('frame levels', () => {
  it('measures a full-scale DC frame at 0 dBFS, digital silence at -Infinity, and a short last frame over its own samples', () => {
    const pcm = new Float32Array(320 * 2 + 100);
    pcm.fill(1, 0, 320);
    pcm.fill(0.5, 640); // partial frame of 100 samples at 0.5
    const levels = frameLevelsDbfs(pcm, 16000);
    expect(Array.from(levels)).toEqual([0, -Infinity, 20 * Math.log10(0.5)]);
  });

  it('levelOfSumDbfs is the same arithmetic as rmsDbfs', () => {
    const pcm = new Float32Array([0.1, -0.2, 0.3, 0.05]);
    let sum = 0;
    for (const s of pcm) sum += s * s;
    expect(levelOfSumDbfs(sum, 4)).toBe(rmsDbfs(pcm));
    expect(levelOfSumDbfs(0, 0)).toBe(-Infinity);
  });
});

describe('FrameLevelMeter', () => {
  it('yields completed frames only, and the partial frame through pendingLevel', () => {
    const meter = new FrameLevelMeter(16000);
    expect(meter.frameSize).toBe(320);
    expect(meter.push(new Float32Array(319).fill(0.5))).toEqual([]);
    expect(meter.pendingLevel()).toBe(20 * Math.log10(0.5));
    const done = meter.push(new Float32Array(1 + 320 * 2 + 5).fill(0.5));
    expect(done).toHaveLength(3);
    expect(meter.framesCompleted).toBe(3);
    expect(meter.samplesSeen).toBe(965);
    const empty = new FrameLevelMeter(16000);
    expect(empty.pendingLevel()).toBeNull();
    expect(empty.push(new Float32Array(0))).toEqual([]);
  });

  it('gives exactly frameLevelsDbfs of the concatenated audio, whatever the chunking (random chunkings)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = prng(seed);
      const sampleRate = [16000, 8000, 44100, 11025][seed % 4]!;
      const pcm = burstyAudio(random, 1 + Math.floor(random() * 40000));
      const expected = Array.from(frameLevelsDbfs(pcm, sampleRate));
      const cuts: number[] = [];
      for (let at = 0; ;) {
        // mostly small chunks, sometimes empty ones, sometimes long ones spanning many frames
        const r = random();
        at += r < 0.1 ? 0 : r < 0.8 ? Math.floor(random() * 700) : Math.floor(random() * 9000);
        if (at >= pcm.length) break;
        cuts.push(at);
      }
      const got = meterLevels(new FrameLevelMeter(sampleRate), pcm, cuts);
      expect(got.length, `seed ${seed}`).toBe(expected.length);
      for (let f = 0; f < expected.length; f++) {
        if (!Object.is(got[f], expected[f])) expect.fail(`seed ${seed}, frame ${f}: ${got[f]} !== ${expected[f]}`);
      }
    }
  });

  it('matches with the 200 ms chunks the recorder feeds', () => {
    const pcm = burstyAudio(prng(99), 16000 * 7 + 123);
    const cuts: number[] = [];
    for (let at = 3200; at < pcm.length; at += 3200) cuts.push(at);
    expect(meterLevels(new FrameLevelMeter(16000), pcm, cuts)).toEqual(Array.from(frameLevelsDbfs(pcm, 16000)));
  });

  it('rejects a sample rate it cannot frame', () => {
    expect(() => new FrameLevelMeter(0)).toThrow(/sampleRate/);
    expect(() => new FrameLevelMeter(Number.NaN)).toThrow(/sampleRate/);
    expect(() => new FrameLevelMeter(10)).toThrow(/holds no sample/);
  });
});
