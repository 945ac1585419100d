import { describe, expect, it } from 'vitest';
import {
  alphaOf,
  alphaOfKindCounts,
  bootstrapAlpha,
  type CoincidenceData,
  coincidenceData,
  krippendorffAlpha,
  seededRandom,
  unitKinds,
} from '../../../../core/common/agreement/krippendorff';

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units,
// values 1–5, missing data. Published results: nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797.
const observers = [
  ['1', '2', '3', '3', '2', '1', '4', '1', '2', null, null, null],
  ['1', '2', '3', '3', '2', '2', '4', '1', '2', '5', null, '3'],
  [null, '3', '3', '3', '2', '3', '4', '2', '2', '5', '1', null],
  ['1', '2', '3', '3', '2', '4', '4', '1', '2', '5', '1', null],
];
const units = observers[0]!.map((_, u) => observers.map((o) => o[u]!));
const categories = ['1', '2', '3', '4', '5'];

describe('krippendorffAlpha', () => {
  it('reproduces the published nominal alpha', () => {
    const r = krippendorffAlpha(units, categories, 'nominal');
    expect(r.alpha).toBeCloseTo(0.743, 3);
    expect(r.pairable_units).toBe(11); // unit 12 has one value
    expect(r.pairable_values).toBe(40);
  });

  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
    ['ratio', 0.797],
  ] as const)('reproduces the published %s alpha to 3 decimals', (level, published) => {
    const r = krippendorffAlpha(units, categories, level);
    expect(Number(r.alpha!.toFixed(3))).toBe(published);
    expect(r.pairable_values).toBe(40);
  });

  it('the category order matters for ordinal only, the values for interval and ratio', () => {
    const shuffled = ['3', '1', '5', '2', '4'];
    expect(krippendorffAlpha(units, shuffled, 'nominal').alpha).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(units, shuffled, 'interval').alpha).toBeCloseTo(0.849, 3);
    expect(krippendorffAlpha(units, shuffled, 'ordinal').alpha).not.toBeCloseTo(0.815, 2);
  });

  it('interval and ratio refuse labels that are not numbers (ratio: negative ones)', () => {
    expect(() => krippendorffAlpha([['a', 'b']], ['a', 'b'], 'interval')).toThrow(/numeric labels; "a"/);
    expect(() => krippendorffAlpha([['1', '-1']], ['1', '-1'], 'ratio')).toThrow(/≥ 0/);
  });

  it('is 1 for perfect agreement with variation, and undefined without variation', () => {
    expect(
      krippendorffAlpha(
        [
          ['a', 'a'],
          ['b', 'b'],
          ['a', 'a', 'a'],
        ],
        ['a', 'b'],
      ).alpha,
    ).toBe(1);
    const flat = krippendorffAlpha(
      [
        ['a', 'a'],
        ['a', 'a'],
      ],
      ['a', 'b'],
    );
    expect(flat.alpha).toBeNull();
    expect(flat.undefined_reason).toBe('no_variation');
    expect(flat.expected_disagreement).toBe(0);
  });

  it('is below zero for systematic disagreement', () => {
    const r = krippendorffAlpha(
      [
        ['a', 'b'],
        ['b', 'a'],
        ['a', 'b'],
        ['b', 'a'],
      ],
      ['a', 'b'],
    );
    expect(r.alpha).toBeLessThan(0);
  });

  it('ignores units with a single value and is null with nothing pairable', () => {
    const r = krippendorffAlpha(
      [
        ['a', null],
        [null, 'b'],
      ],
      ['a', 'b'],
    );
    expect(r.alpha).toBeNull();
    expect(r.undefined_reason).toBe('fewer_than_two_pairable_units');
  });

  it('one pairable unit is undefined, never the 0.000 the coincidences would give', () => {
    const r = krippendorffAlpha(
      [
        ['a', 'b'],
        ['a', null],
      ],
      ['a', 'b'],
    );
    expect(r).toMatchObject({ alpha: null, pairable_units: 1, undefined_reason: 'fewer_than_two_pairable_units' });
  });

  it('rejects a value outside the categories', () => {
    expect(() => krippendorffAlpha([['a', 'c']], ['a', 'b'])).toThrow(/"c" is not one of the categories/);
  });
});

describe('bootstrapAlpha', () => {
  const data = coincidenceData(units, categories, 'nominal');

  it('is seeded: the same seed gives the same interval, which brackets the point estimate', () => {
    const a = bootstrapAlpha(data, 1000, 42);
    const b = bootstrapAlpha(data, 1000, 42);
    expect(a).toEqual(b);
    const [lo, hi] = a.ci95!;
    expect(lo).toBeLessThan(0.743);
    expect(hi).toBeGreaterThan(0.743);
    expect(hi).toBeLessThanOrEqual(1);
    expect(a.defined_resamples).toBeGreaterThan(950);
  });

  it('is stable: other seeds move the bounds by little', () => {
    const a = bootstrapAlpha(data, 2000, 1).ci95!;
    const b = bootstrapAlpha(data, 2000, 7).ci95!;
    expect(Math.abs(a[0] - b[0])).toBeLessThan(0.06);
    expect(Math.abs(a[1] - b[1])).toBeLessThan(0.03);
    expect(a).not.toEqual(b);
  });

  it('a resample of the units by index reproduces alpha of those units', () => {
    const all = alphaOf(data).alpha;
    expect(
      alphaOf(
        data,
        data.units.map((_, i) => i),
      ).alpha,
    ).toBe(all);
  });

  it('has no interval where alpha is undefined', () => {
    const flat = coincidenceData(
      [
        ['a', 'a'],
        ['a', 'a'],
      ],
      ['a', 'b'],
      'nominal',
    );
    expect(bootstrapAlpha(flat, 1000, 1)).toMatchObject({ ci95: null, defined_resamples: 0 });
  });

  it('narrows with more units of the same agreement', () => {
    const narrow = coincidenceData([...units, ...units, ...units, ...units], categories, 'nominal');
    const w = (r: ReturnType<typeof bootstrapAlpha>) => r.ci95![1] - r.ci95![0];
    expect(w(bootstrapAlpha(narrow, 1000, 3))).toBeLessThan(w(bootstrapAlpha(data, 1000, 3)));
  });
});

describe('bootstrapAlpha resamples on kinds of units', () => {
  /** The resampling as it was: alpha recomputed from the drawn units themselves, value by value. */
  function unitByUnitInterval(data: CoincidenceData, resamples: number, seed: number): [number, number] | null {
    const random = seededRandom(seed);
    const size = data.units.length;
    const draw = new Uint32Array(size);
    const alphas: number[] = [];
    for (let r = 0; r < resamples; r++) {
      for (let j = 0; j < size; j++) draw[j] = Math.floor(random() * size);
      const a = alphaOf(data, draw).alpha;
      if (a !== null) alphas.push(a);
    }
    if (alphas.length === 0) return null;
    alphas.sort((x, y) => x - y);
    const q = (p: number): number => {
      const h = (alphas.length - 1) * p;
      const lo = Math.floor(h);
      const hi = Math.min(lo + 1, alphas.length - 1);
      return alphas[lo]! + (h - lo) * (alphas[hi]! - alphas[lo]!);
    };
    return [q(0.025), q(0.975)];
  }

  /** Seeded reliability data: `coders` coders, `items` units, labels from `labels`, some missing. */
  function randomUnits(seed: number, items: number, coders: number, labels: readonly string[]): Array<Array<string | null>> {
    const random = seededRandom(seed);
    return Array.from({ length: items }, () => {
      const truth = Math.floor(random() * labels.length);
      return Array.from({ length: coders }, () => {
        const r = random();
        if (r < 0.1) return null;
        return labels[r < 0.75 ? truth : Math.floor(random() * labels.length)]!;
      });
    });
  }

  it('gives the very intervals of resampling unit by unit for two and three coders (the same draws; sums of halves are exact)', () => {
    for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as const) {
      for (const coders of [2, 3]) {
        const data = coincidenceData(randomUnits(coders * 11, 300, coders, ['1', '2', '3', '4', '5']), ['1', '2', '3', '4', '5'], level);
        expect(bootstrapAlpha(data, 1000, 5).ci95).toEqual(unitByUnitInterval(data, 1000, 5));
      }
    }
    const published = coincidenceData(units, categories, 'nominal');
    expect(bootstrapAlpha(published, 1000, 42).ci95).toEqual(unitByUnitInterval(published, 1000, 42));
  });

  it('agrees with resampling unit by unit to rounding for more coders (weights in thirds, summed in another order)', () => {
    const data = coincidenceData(randomUnits(3, 200, 5, ['a', 'b', 'c']), ['a', 'b', 'c'], 'nominal');
    const fast = bootstrapAlpha(data, 1000, 9).ci95!;
    const slow = unitByUnitInterval(data, 1000, 9)!;
    expect(Math.abs(fast[0] - slow[0])).toBeLessThan(1e-12);
    expect(Math.abs(fast[1] - slow[1])).toBeLessThan(1e-12);
  });

  it('alpha of kind counts is alpha of the units they stand for', () => {
    const data = coincidenceData(randomUnits(8, 120, 4, ['1', '2', '3']), ['1', '2', '3'], 'ordinal');
    const kinds = unitKinds(data);
    const picked = [0, 0, 5, 17, 17, 17, 40, 99, 119, 3];
    const drawn = new Float64Array(kinds.kinds.length);
    for (const u of picked) drawn[kinds.kindOf[u]!]!++;
    expect(kinds.kinds.length).toBeLessThan(data.units.length);
    expect(alphaOfKindCounts(data, kinds, drawn).alpha).toBeCloseTo(alphaOf(data, picked).alpha!, 12);
  });
});
