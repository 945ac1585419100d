import { describe, expect, it } from 'vitest';
import { editSimilarity, LabelMatcher } from '../../../../core/common/parser/labelMatch';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import { politeness } from './parserTestSupport';

describe('editSimilarity', () => {
  it('is 1 - levenshtein / longer length', () => {
    expect(editSimilarity('polite', 'polite')).toBe(1);
    expect(editSimilarity('polit', 'polite')).toBeCloseTo(1 - 1 / 6);
    expect(editSimilarity('impolit', 'impolite')).toBeCloseTo(1 - 1 / 8);
    expect(editSimilarity('impolite', 'polite')).toBeCloseTo(1 - 2 / 8);
    expect(editSimilarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7);
    expect(editSimilarity('abc', 'xyz')).toBe(0);
    expect(editSimilarity('', '')).toBe(1);
    expect(editSimilarity('', 'ab')).toBe(0);
  });
});

describe('LabelMatcher', () => {
  const matcher = new LabelMatcher(politeness, ['en']);

  it('matches names and active synonyms exactly, saying how', () => {
    expect(matcher.resolve(['so', 'polite'], 1)).toEqual({ kind: 'label', label: 0, end: 2, via: 'name' });
    expect(matcher.resolve(['rude'], 0)).toEqual({ kind: 'label', label: 1, end: 1, via: 'synonym' });
    expect(matcher.resolve(['höflich'], 0)).toBeNull();
    expect(new LabelMatcher(politeness, ['en', 'de']).resolve(['höflich'], 0)).toEqual({ kind: 'label', label: 0, end: 1, via: 'synonym' });
  });

  it('falls back to fuzzy only when nothing matches exactly', () => {
    expect(matcher.resolve(['neutrl'], 0)).toEqual({ kind: 'label', label: 2, end: 1, via: 'fuzzy' });
    expect(matcher.resolve(['purple'], 0)).toBeNull();
    expect(matcher.resolve([], 0)).toBeNull();
  });

  it('prefers the longest exact phrase, and a name over a synonym of the same length', () => {
    const labels: LabelDef[] = [
      { name: 'Polite', synonyms: {} },
      { name: 'Overly polite', synonyms: { en: ['polite to a fault'] } },
      { name: 'Fine', synonyms: {} },
      { name: 'Okay', synonyms: { en: ['fine'] } },
    ];
    const m = new LabelMatcher(labels, ['en']);
    expect(m.exact(['polite', 'to', 'a', 'fault'], 0)).toEqual({ kind: 'label', label: 1, end: 4, via: 'synonym' });
    expect(m.exact(['polite', 'to', 'a'], 0)).toEqual({ kind: 'label', label: 0, end: 1, via: 'name' });
    expect(m.exact(['fine'], 0)).toEqual({ kind: 'label', label: 2, end: 1, via: 'name' });
  });

  it('one phrase naming two labels is a tie, never a pick', () => {
    const labels = [
      { name: 'A', synonyms: { en: ['same'] } },
      { name: 'B', synonyms: { en: ['same'] } },
    ];
    expect(new LabelMatcher(labels, ['en']).exact(['same'], 0)).toEqual({ kind: 'tie', labels: [0, 1], end: 1, via: 'synonym' });
  });

  it('fuzzy-matches multi-word labels on the same number of words', () => {
    const m = new LabelMatcher(
      [
        { name: 'Very polite', synonyms: {} },
        { name: 'Rude', synonyms: {} },
      ],
      ['en'],
    );
    expect(m.fuzzy(['very', 'politte', 'indeed'], 0)).toEqual({ kind: 'label', label: 0, end: 2, via: 'fuzzy' });
    expect(m.fuzzy(['verypolite'], 0)).toEqual({ kind: 'label', label: 0, end: 1, via: 'fuzzy' });
  });

  it('never fuzzily takes a word that names another label in any language, active or not', () => {
    const labels: LabelDef[] = [
      { name: 'Polite', synonyms: {} },
      { name: 'Politer', synonyms: { de: ['polites'] } },
    ];
    // "polites" is 0.857 close to "polite", but it is Politer's German synonym
    expect(new LabelMatcher(labels, ['en']).fuzzy(['polites'], 0)).toEqual({ kind: 'label', label: 1, end: 1, via: 'fuzzy' });
  });
});
