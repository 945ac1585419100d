import { describe, expect, it } from 'vitest';
import { canonicalJson, mergeItems } from '../../../../core/common/items/itemsMerge';

const a = { id: 'a', text: 'A' };
const b = { id: 'b', text: 'B', meta: { x: 1, y: [1, { z: 2 }] } };
const c = { id: 'c', text: 'C' };

describe('mergeItems', () => {
  it('append keeps existing items in order, adds new ids after them, treats identical repeats as unchanged', () => {
    const merged = mergeItems([a, b], [{ id: 'b', text: 'B', meta: { y: [1, { z: 2 }], x: 1 } }, c], 'append');
    expect(merged).toEqual({ items: [a, b, c], added: ['c'], unchanged: ['b'], changed: [], removed: [] });
  });

  it('append reports an existing id with different content as changed (the importer refuses it)', () => {
    const merged = mergeItems([a, b], [{ id: 'a', text: 'A!' }], 'append');
    expect(merged.changed).toEqual(['a']);
    expect(merged.items).toEqual([a, b]);
  });

  it('replace makes the file the item list and reports removed and changed ids', () => {
    const merged = mergeItems([a, b], [c, { id: 'b', text: 'B2' }], 'replace');
    expect(merged).toEqual({ items: [c, { id: 'b', text: 'B2' }], added: ['c'], unchanged: [], changed: ['b'], removed: ['a'] });
  });

  it('a context counts as content', () => {
    expect(mergeItems([a], [{ ...a, context: 'q' }], 'append').changed).toEqual(['a']);
  });

  it('canonicalJson ignores key order only', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] })).toBe(canonicalJson({ a: [2, { c: 2, d: 1 }], b: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
