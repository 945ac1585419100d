import { describe, expect, it } from 'vitest';
import { firstUnmaskedSample, hiddenSampleRanges, maskSamples } from '../../../../core/common/deidentify/audioMask';

describe('audio masking', () => {
  it('widens spans by the margin, clips them to the audio and merges those that touch', () => {
    expect(
      hiddenSampleRanges(
        [
          { t0_ms: 100, t1_ms: 200 },
          { t0_ms: 250, t1_ms: 300 },
          { t0_ms: 0, t1_ms: 10 },
          { t0_ms: 205, t1_ms: 230 },
        ],
        10,
        1000,
        305,
      ),
    ).toEqual([
      { start: 0, end: 20 },
      { start: 90, end: 305 },
    ]);
    expect(hiddenSampleRanges([{ t0_ms: 100, t1_ms: 200 }], 0, 16000, 16000)).toEqual([{ start: 1600, end: 3200 }]);
  });

  it('silences or tones exactly the ranges, every other sample unchanged, and says where a range was not hidden', () => {
    const original = Int16Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 2000) - 1000);
    for (const mode of ['silence', 'tone'] as const) {
      const samples = original.slice();
      const ranges = [
        { start: 100, end: 200 },
        { start: 500, end: 520 },
      ];
      maskSamples(samples, ranges, mode, 16000);
      for (let i = 0; i < samples.length; i++) {
        const inside = ranges.some((r) => i >= r.start && i < r.end);
        if (!inside) expect(samples[i]).toBe(original[i]);
      }
      expect(ranges.map((r) => firstUnmaskedSample(samples, r, mode, 16000))).toEqual([null, null]);
      if (mode === 'silence') expect(samples.subarray(100, 200).every((v) => v === 0)).toBe(true);
      else expect(Math.max(...samples.subarray(100, 200))).toBeGreaterThan(3000);
      samples[150] = 1234;
      expect(firstUnmaskedSample(samples, ranges[0]!, mode, 16000)).toBe(150);
    }
  });
});
