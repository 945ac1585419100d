import { caselessKey } from '../text/textFold';

/**
 * The normalised copy of a text that phrase matching works on: Unicode NFKC, case-folded, curly
 * apostrophes made straight, punctuation other than `'` and `-` turned into spaces, spaces collapsed.
 * It is kept as a list of words, each with its character offsets in the ORIGINAL text, so that a match
 * can always be quoted exactly as `text.slice(start, end)`. The original text is never changed.
 */

/** Something other than whitespace stood between two words (punctuation, a symbol, a stray `'`/`-`). */
export const GAP_PUNCTUATION = 1;
/** A clause end stood between two words: `.`, `!`, `?`, `;` (after NFKC, so `…`, `？`, `；` count). */
export const GAP_CLAUSE_END = 2;
/** A question mark stood between two words. */
export const GAP_QUESTION = 4;

export interface MatchWords {
  /** normalised words: letters, digits and marks, with single inner `'` or `-` ("i'd", "well-mannered") */
  words: string[];
  /** offset in the original text of each word's first character */
  starts: number[];
  /** offset in the original text just after each word's last character */
  ends: number[];
  /** gaps[i]: GAP_* flags of what stood before words[i]; gaps[words.length]: what followed the last word */
  gaps: number[];
}

const APOSTROPHES = new Set(['\u2019', '\u2018', '\u02BC', '\u201B', '\u0060', '\u00B4', '\u2032', '\uFF07']);
const HYPHENS = new Set(['\u2010', '\u2011']);
const CLAUSE_ENDS = new Set(['.', '!', '?', ';', '\u3002']);
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const MARK = /^\p{M}$/u;
const SPACE = /^[\s\p{Z}]$/u;
const FORMAT_CHAR = /^\p{Cf}$/u;
const ZERO_WIDTH_SPACE = '\u200B';

const enum CharClass {
  Word,
  Joiner,
  Space,
  Ignored,
  Punctuation,
}

function classify(ch: string): CharClass {
  const code = ch.charCodeAt(0);
  if (code < 0x80) {
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return CharClass.Word;
    if (code === 0x27 || code === 0x2d) return CharClass.Joiner;
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return CharClass.Space;
    return CharClass.Punctuation;
  }
  if (WORD_CHAR.test(ch)) return CharClass.Word;
  if (ch === ZERO_WIDTH_SPACE || SPACE.test(ch)) return CharClass.Space;
  // Soft hyphens, joiners and direction marks are invisible inside words: drop them.
  if (FORMAT_CHAR.test(ch)) return CharClass.Ignored;
  return CharClass.Punctuation;
}

/** The normalised form of one base character with its combining marks (ASCII takes a fast path). */
function normaliseCluster(cluster: string): string {
  if (cluster.length === 1) {
    const code = cluster.charCodeAt(0);
    if (code < 0x80) return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : cluster;
    if (APOSTROPHES.has(cluster)) return "'";
  }
  // Apostrophe look-alikes first: NFKC turns some (´) into a space plus a combining mark.
  const straightened = APOSTROPHES.has(cluster[0]!) ? `'${cluster.slice(1)}` : cluster;
  const folded = caselessKey(straightened);
  let out = '';
  for (const ch of folded) out += HYPHENS.has(ch) ? '-' : APOSTROPHES.has(ch) ? "'" : ch;
  return out;
}

/** Split a text into normalised words with their original offsets and the punctuation between them. */
export function matchWords(text: string): MatchWords {
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const gaps: number[] = [];
  let word = '';
  let wordStart = 0;
  let wordEnd = 0;
  // a single `'` or `-` after a word: part of it only if a letter or digit follows directly
  let joiner = '';
  let gap = 0;

  const finishWord = (): void => {
    if (joiner !== '') {
      gap |= GAP_PUNCTUATION;
      joiner = '';
    }
    if (word === '') return;
    words.push(word);
    starts.push(wordStart);
    ends.push(wordEnd);
    word = '';
  };

  let i = 0;
  const length = text.length;
  while (i < length) {
    const clusterStart = i;
    const first = text.codePointAt(i)!;
    i += first > 0xffff ? 2 : 1;
    // combining marks belong to the character before them (NFKC may compose them into it)
    while (i < length) {
      const next = text.charCodeAt(i);
      if (next < 0x300) break;
      const cp = text.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      if (!MARK.test(ch)) break;
      i += ch.length;
    }
    const clusterEnd = i;
    const normalised = normaliseCluster(text.slice(clusterStart, clusterEnd));
    for (const ch of normalised) {
      switch (classify(ch)) {
        case CharClass.Word:
          if (joiner !== '') {
            word += joiner;
            joiner = '';
          }
          if (word === '') {
            gaps.push(gap);
            gap = 0;
            wordStart = clusterStart;
          }
          word += ch;
          wordEnd = clusterEnd;
          break;
        case CharClass.Joiner:
          if (word !== '' && joiner === '') {
            joiner = ch;
          } else {
            finishWord();
            gap |= GAP_PUNCTUATION;
          }
          break;
        case CharClass.Space:
          finishWord();
          break;
        case CharClass.Ignored:
          break;
        case CharClass.Punctuation:
          finishWord();
          gap |= GAP_PUNCTUATION;
          if (CLAUSE_ENDS.has(ch)) gap |= GAP_CLAUSE_END;
          if (ch === '?') gap |= GAP_QUESTION;
          break;
      }
    }
  }
  finishWord();
  gaps.push(gap);
  return { words, starts, ends, gaps };
}

/** The normalised copy of a text as one string: its words joined by single spaces. */
export function normalizeForMatching(text: string): string {
  return matchWords(text).words.join(' ');
}
