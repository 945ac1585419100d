import { describe, expect, it } from 'vitest';
import { GAP_CLAUSE_END, GAP_PUNCTUATION, GAP_QUESTION, matchWords, normalizeForMatching } from '../../../../core/common/parser/matchText';

/** Every word's offsets point at text that normalises to that word. */
function expectWordsMapBack(text: string): void {
  const { words, starts, ends } = matchWords(text);
  words.forEach((word, i) => expect(normalizeForMatching(text.slice(starts[i], ends[i]))).toBe(word));
}

describe('normalizeForMatching', () => {
  it('case-folds, straightens curly apostrophes, turns punctuation into spaces and collapses them', () => {
    expect(normalizeForMatching('  Hello,   WORLD!\tIt’s  fine…  ')).toBe("hello world it's fine");
  });

  it('applies NFKC: ligatures, full-width letters, superscripts', () => {
    expect(normalizeForMatching('ﬁne ＡＢＣ x²')).toBe('fine abc x2');
  });

  it('keeps German letters: ß and umlauts, composing decomposed ones', () => {
    expect(normalizeForMatching('Ich STRAßE Ho\u0308flich')).toBe('ich straße höflich');
  });

  it("keeps a single ' or - inside a word, drops them elsewhere", () => {
    expect(normalizeForMatching("I'd well-mannered")).toBe("i'd well-mannered");
    expect(normalizeForMatching("'polite' -rude- polite--rude polite - rude")).toBe('polite rude polite rude polite rude');
    expect(normalizeForMatching('non\u2011binary')).toBe('non-binary');
  });

  it('drops invisible format characters inside words; a zero-width space separates', () => {
    expect(normalizeForMatching('po\u00ADlite')).toBe('polite');
    expect(normalizeForMatching('a\u200Bb')).toBe('a b');
  });

  it('an acute accent used as an apostrophe is an apostrophe', () => {
    expect(normalizeForMatching('I´ll')).toBe("i'll");
  });
});

describe('matchWords', () => {
  it('maps every word back to its original offsets', () => {
    expect(matchWords('ﬁne  DAY')).toMatchObject({ words: ['fine', 'day'], starts: [0, 5], ends: [3, 8] });
    expect(matchWords('😀 Ho\u0308f')).toMatchObject({ words: ['höf'], starts: [3], ends: [7] });
    for (const text of ['ﬁne  DAY', 'Ｉ ｌａｂｅｌ', 'x\u0301y\u0308 ö', '😀😀 don’t', 'a\u00ADb - c']) expectWordsMapBack(text);
  });

  it('records what stood between words: punctuation, clause ends and question marks', () => {
    const { words, gaps } = matchWords('a b, c. d? e; f! g');
    expect(words).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(gaps).toEqual([
      0,
      0,
      GAP_PUNCTUATION,
      GAP_PUNCTUATION | GAP_CLAUSE_END,
      GAP_PUNCTUATION | GAP_CLAUSE_END | GAP_QUESTION,
      GAP_PUNCTUATION | GAP_CLAUSE_END,
      GAP_PUNCTUATION | GAP_CLAUSE_END,
      0,
    ]);
  });

  it('full-width and ellipsis punctuation count after NFKC; trailing punctuation is the last gap', () => {
    expect(matchWords('a？b…c').gaps).toEqual([0, GAP_PUNCTUATION | GAP_CLAUSE_END | GAP_QUESTION, GAP_PUNCTUATION | GAP_CLAUSE_END, 0]);
    expect(matchWords('a:').gaps).toEqual([0, GAP_PUNCTUATION]);
  });

  it('an empty text has no words', () => {
    expect(matchWords('')).toEqual({ words: [], starts: [], ends: [], gaps: [0] });
  });
});
