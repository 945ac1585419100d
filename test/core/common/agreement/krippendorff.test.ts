import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from '../../../../core/common/agreement/krippendorff';

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units,
// values 1–5, missing data. Published results: nominal 0.743, ordinal 0.815.
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

  it('reproduces the published ordinal alpha', () => {
    expect(krippendorffAlpha(units, categories, 'ordinal').alpha).toBeCloseTo(0.815, 3);
  });

  it('is 1 for perfect agreement with variation, and undefined without variation', () => {
    expect(krippendorffAlpha([['a', 'a'], ['b', 'b'], ['a', 'a', 'a']], ['a', 'b']).alpha).toBe(1);
    const flat = krippendorffAlpha([['a', 'a'], ['a', 'a']], ['a', 'b']);
    expect(flat.alpha).toBeNull();
    expect(flat.expected_disagreement).toBe(0);
  });

  it('is below zero for systematic disagreement', () => {
    const r = krippendorffAlpha([['a', 'b'], ['b', 'a'], ['a', 'b'], ['b', 'a']], ['a', 'b']);
    expect(r.alpha).toBeLessThan(0);
  });

  it('ignores units with a single value and is null with nothing pairable', () => {
    expect(krippendorffAlpha([['a', null], [null, 'b']], ['a', 'b']).alpha).toBeNull();
  });

  it('rejects a value outside the categories', () => {
    expect(() => krippendorffAlpha([['a', 'c']], ['a', 'b'])).toThrow(/"c" is not one of the categories/);
  });
});
