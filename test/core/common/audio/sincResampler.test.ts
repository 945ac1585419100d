import { describe, expect, it } from 'vitest';
import { resample, SincResampler } from '../../../../core/common/audio/sincResampler';

function noise(length: number, seed = 11): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  return out;
}

describe('resample (a whole recording)', () => {
  it('is the capture stream fed in render quanta, sample for sample', () => {
    for (const rate of [48_000, 44_100, 8_000, 44_101]) {
      const input = noise(rate);
      const streamed = new SincResampler(rate, 16_000);
      const parts: number[] = [];
      for (let i = 0; i < input.length; i += 128) parts.push(...streamed.process(input.subarray(i, i + 128)));
      parts.push(...streamed.flush());
      expect(resample(input, rate, 16_000), `${rate} Hz`).toEqual(Float32Array.from(parts));
    }
  });

  it('returns the input itself when the rates are equal, and refuses a rate that is not a whole number', () => {
    const input = noise(100);
    expect(resample(input, 16_000, 16_000)).toBe(input);
    expect(() => resample(input, 22_050.5, 16_000)).toThrow(/whole numbers of Hz/);
  });

  it('passes DC at gain 1 at every phase, also for an odd rate pair (phases rounded to 1/4096)', () => {
    for (const rate of [44_100, 44_101]) {
      const out = resample(new Float32Array(rate).fill(0.5), rate, 16_000).subarray(800, -800);
      for (const s of out) expect(Math.abs(s - 0.5)).toBeLessThan(1e-6);
    }
  });
});
