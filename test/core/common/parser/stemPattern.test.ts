import { describe, expect, it } from 'vitest';
import { DEFAULT_STEMS } from '../../../../core/common/parser/defaultStems';
import { compileStemPattern, validateStemPattern } from '../../../../core/common/parser/stemPattern';
import { MAX_STEM_PHRASINGS } from '../../../../core/common/parser/stemPattern';

function phrasings(pattern: string): string[] {
  return compileStemPattern(pattern)
    .phrasings.map((words) => words.join(' '))
    .sort();
}

describe('compileStemPattern', () => {
  it('keeps the pattern exactly as written', () => {
    expect(compileStemPattern('My  Answer (is|:)').pattern).toBe('My  Answer (is|:)');
  });

  it('a group of several alternatives is a required choice', () => {
    expect(phrasings('my (label|answer) (is|would be)')).toEqual([
      'my answer is',
      'my answer would be',
      'my label is',
      'my label would be',
    ]);
  });

  it('a group of one alternative is optional', () => {
    expect(phrasings('I label (one)')).toEqual(['i label', 'i label one']);
  });

  it('an alternative that normalises to nothing makes the group optional', () => {
    expect(phrasings('(the) final answer (is|:)')).toEqual(['final answer', 'final answer is', 'the final answer', 'the final answer is']);
  });

  it('a/b/c between words is shorthand for (a|b|c)', () => {
    expect(phrasings('I label this/it/that')).toEqual(['i label it', 'i label that', 'i label this']);
    expect(phrasings('I label this/it/that')).toEqual(phrasings('I label (this|it|that)'));
  });

  it('a group glued to a word attaches to it: "\'d" glues, " would" starts a new word', () => {
    expect(phrasings("I('d|'ll| would| will) call")).toEqual(['i will call', 'i would call', "i'd call", "i'll call"]);
    expect(phrasings("I('ll) say")).toEqual(['i say', "i'll say"]);
    expect(phrasings('(un)kind')).toEqual(['kind', 'unkind']);
  });

  it('normalises like a transcript: case, NFKC, curly apostrophes, umlauts kept', () => {
    expect(phrasings('ICH (WÄHLE|nehme)')).toEqual(['ich nehme', 'ich wähle']);
    expect(phrasings('I’ll ﬁnally pick')).toEqual(["i'll finally pick"]);
  });

  it('every default stem compiles, and the first English ones have 3 × 12 and 4 × 8 × 3 × 2 × 2 phrasings', () => {
    for (const patterns of Object.values(DEFAULT_STEMS)) for (const pattern of patterns) expect(validateStemPattern(pattern)).toBeNull();
    expect(phrasings(DEFAULT_STEMS.en![0]!)).toHaveLength(3 * 12);
    expect(phrasings(DEFAULT_STEMS.en![1]!)).toHaveLength(4 * 8 * 3 * 2 * 2);
  });

  it('a glued group gives contractions, and a group whose alternative is only punctuation is optional: "answer\'s"', () => {
    expect(phrasings("my answer('s| is| :)")).toEqual(['my answer', 'my answer is', "my answer's"]);
  });

  it('{label} marks words that follow the label: they compile apart', () => {
    const compiled = compileStemPattern('ich würde {label} (sagen|nehmen)');
    expect(compiled.phrasings).toEqual([['ich', 'würde']]);
    expect(compiled.tail).toEqual([['sagen'], ['nehmen']]);
    expect(compileStemPattern('I label this').tail).toBeNull();
    expect(validateStemPattern('ich {label} x {label} y')).toMatch(/{label} stands more than once/);
    expect(validateStemPattern('ich würde {label}')).toMatch(/nothing follows {label}/);
  });
});

describe('malformed stem patterns', () => {
  it.each([
    ['', 'the stem pattern has no words'],
    ['   ', 'the stem pattern has no words'],
    ['(|)', 'the stem pattern has no words'],
    ['I (label this', '"(" at character 3 is never closed with ")"'],
    ['I label) this', '")" at character 8 has no "(" before it'],
    ['polite | rude', '"|" at character 8 is outside a group: write alternatives as (a|b)'],
    ['I ((label))', 'nested "(" at character 4: a group cannot contain a group'],
    ['I () label', 'the group "()" at character 3 has no words'],
    ['I (:|!) label', 'the group "(:|!)" at character 3 has no words'],
    ['this//that', '"this//that" at character 1 has an empty alternative: write a/b/c with a word on each side of "/"'],
    ['I label this/', '"this/" at character 9 has an empty alternative: write a/b/c with a word on each side of "/"'],
    ['I (this/that)', '"/" inside the group at character 3: separate a group\'s alternatives with "|"'],
    ['(one) (as)', 'every word of the pattern is optional, so it would match nothing at all: make at least one word required'],
  ])('%j → %s', (pattern, problem) => {
    expect(validateStemPattern(pattern)).toBe(problem);
    expect(() => compileStemPattern(pattern)).toThrow(new Error(`invalid stem pattern ${JSON.stringify(pattern)}: ${problem}`));
  });

  it('a pattern that multiplies out beyond the cap is refused', () => {
    const pattern = Array.from({ length: 6 }, () => '(a|b|c|d|e)').join(' ');
    expect(5 ** 6).toBeGreaterThan(MAX_STEM_PHRASINGS);
    expect(validateStemPattern(pattern)).toBe(`the pattern allows more than ${MAX_STEM_PHRASINGS} phrasings: use fewer or smaller groups`);
    expect(validateStemPattern(Array.from({ length: 5 }, () => '(a|b|c|d|e)').join(' '))).toBeNull();
  });

  it('a pattern that is not a string is refused, not crashed on', () => {
    expect(validateStemPattern(42 as unknown as string)).toBe('a stem pattern must be a string');
  });
});
