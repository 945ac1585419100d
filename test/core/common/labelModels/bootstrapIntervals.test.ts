import { describe, expect, it } from 'vitest';
import { basicLogitInterval } from '../../../../core/common/labelModels/bootstrapIntervals';

const logit = (p: number): number => Math.log(p / (1 - p));

describe('the basic bootstrap interval on the logit scale', () => {
  it('reflects the percentile interval through p̂ on the logit scale, so a resample bias away from the truth is subtracted', () => {
    // resamples all above p̂ = 0.8 (leaning toward certainty): the interval moves below p̂, not above
    const [lo, hi] = basicLogitInterval(0.8, 0.85, 0.95);
    expect(logit(lo)).toBeCloseTo(2 * logit(0.8) - logit(0.95), 10);
    expect(logit(hi)).toBeCloseTo(2 * logit(0.8) - logit(0.85), 10);
    expect(hi).toBeLessThan(0.8);
  });

  it('is symmetric on the logit scale when the resamples are, and stays inside [0, 1] at the edges', () => {
    const [lo, hi] = basicLogitInterval(0.5, 0.3, 0.7);
    expect(lo).toBeCloseTo(0.3, 12);
    expect(hi).toBeCloseTo(0.7, 12);
    expect(basicLogitInterval(1, 1, 1)).toEqual([expect.closeTo(1, 12), expect.closeTo(1, 12)]);
    const [low, high] = basicLogitInterval(0.999, 0.2, 0.9999);
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThanOrEqual(1);
  });
});
