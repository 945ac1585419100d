/**
 * One canonical form for matching what people must not be able to disguise: names to hide, people's names, code
 * names. Unicode's own data does the work: NFKD (full-width, mathematical and other compatibility forms), the
 * Default_Ignorable_Code_Point and Mark properties (zero-width characters, soft hyphens, bidi controls, combining
 * accents), and the confusables of Unicode TS #39 (confusables.txt, through the unhomoglyph package's copy of it:
 * Cyrillic "а" is "a", dotless "ı" is "i"). Every folded character remembers the span of the original text it came
 * from, so a match in the folded text is hidden in the verbatim text exactly.
 *
 * The fold is for comparing, never for showing: "m" folds to "rn" (they look alike), "ß" to "ss".
 */
import confusablesData from 'unhomoglyph/data.json';

const CONFUSABLE: Readonly<Record<string, string>> = confusablesData as Record<string, string>;

/**
 * Small capitals that confusables.txt leaves unmapped (it maps only some of them: "ᴄ", "ɪ", "ᴏ", …). Each is the
 * LATIN LETTER SMALL CAPITAL of the letter it maps to.
 */
const SMALL_CAPITALS: Readonly<Record<string, string>> = {
  '\u1d00': 'a',
  '\u0299': 'b',
  '\u1d04': 'c',
  '\u1d05': 'd',
  '\u1d07': 'e',
  '\ua730': 'f',
  '\u0262': 'g',
  '\u029c': 'h',
  '\u026a': 'i',
  '\u1d0a': 'j',
  '\u1d0b': 'k',
  '\u029f': 'l',
  '\u1d0d': 'm',
  '\u0274': 'n',
  '\u1d0f': 'o',
  '\u1d18': 'p',
  '\ua7af': 'q',
  '\u0280': 'r',
  '\ua731': 's',
  '\u1d1b': 't',
  '\u1d1c': 'u',
  '\u1d20': 'v',
  '\u1d21': 'w',
  '\u028f': 'y',
  '\u1d22': 'z',
};

/** Invisible (default-ignorable: zero-width, soft hyphen, bidi controls, variation selectors) or a combining mark. */
const DROPPED = /^[\p{Default_Ignorable_Code_Point}\p{M}]$/u;
/** Characters that separate the words of one name: "Sarah Miller", "Sarah-Miller", "Sarah_Miller", "Sarah.Miller". */
const SEPARATOR = /^[\s\-_.\u00b7\u2010-\u2015\u2212]$/u;
const ASCII_UPPER = /^[A-Z]$/;

/**
 * How a capital ASCII "I" is read: as "i" (its own lower case) or as "l" (what it looks like in most fonts). A name
 * is matched under both readings, so "SaIly" is caught as "Sally" and "Ivy" still equals "ivy".
 */
export type CapitalIReading = 'i' | 'l';

/** A folded text: `text[k]` came from the original's [`starts[k]`, `ends[k]`) (UTF-16 offsets). */
export interface FoldedText {
  text: string;
  starts: number[];
  ends: number[];
}

function lower(ch: string): string {
  return ch === '\u00df' || ch === '\u1e9e' ? 'ss' : ch.toLowerCase();
}

/** A character's confusable base as Unicode's table (and the small capitals above) give it, or the character. */
const baseOf = (ch: string): string => SMALL_CAPITALS[ch] ?? CONFUSABLE[ch] ?? ch;

/** Lower case, compatibility-decomposed, without invisibles or marks. */
function plainLower(text: string): string {
  let out = '';
  for (const m of text.normalize('NFKD')) if (!DROPPED.test(m)) for (const c of lower(m)) if (!DROPPED.test(c)) out += c;
  return out;
}

/**
 * The canonical letters of one (NFKD) character: nothing for an invisible or a mark, else its confusable base in
 * lower case. The base is taken of the character as written (Greek capital Eta is H) and again of its lower case
 * (Cyrillic "с" is c, "m" is "rn"), so upper- and lower-case look-alikes meet.
 */
function foldChar(ch: string, reading: CapitalIReading): string {
  if (DROPPED.test(ch)) return '';
  const first = ASCII_UPPER.test(ch) ? (ch === 'I' && reading === 'l' ? 'l' : ch.toLowerCase()) : baseOf(ch);
  let out = '';
  for (const c of plainLower(first)) out += plainLower(baseOf(c));
  return out;
}

/**
 * The canonical form of `text` for matching, with each folded character's source span. Runs of word separators
 * (spaces, hyphens, underscores, dots) become one space; invisible characters and combining marks disappear.
 */
export function foldForMatching(text: string, reading: CapitalIReading = 'i'): FoldedText {
  return withSourceSpans(text, (original) => piecesOf(original, reading));
}

/**
 * Builds a text from `text` code point by code point, each piece keeping the span of the code point it came from:
 * a null piece is a word separator (one space for a run of them), a string its characters. One entry per UTF-16
 * unit, so an index into the result (a regex's or an automaton's) is an index into the spans too, past an emoji or
 * any other character outside the BMP.
 */
function withSourceSpans(text: string, piecesFor: (original: string) => Iterable<string | null>): FoldedText {
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const original of text) {
    const start = offset;
    offset += original.length;
    for (const piece of piecesFor(original)) {
      if (piece === null) {
        if (out.length > 0 && out[out.length - 1] === ' ') ends[ends.length - 1] = offset;
        else {
          out.push(' ');
          starts.push(start);
          ends.push(offset);
        }
        continue;
      }
      for (let unit = 0; unit < piece.length; unit++) {
        out.push(piece[unit]!);
        starts.push(start);
        ends.push(offset);
      }
    }
  }
  return { text: out.join(''), starts, ends };
}

/** Folding one code point costs normalisations and property tests: each is folded once per reading (a list of 100 000 terms repeats few). */
const PIECES: Record<CapitalIReading, Map<string, ReadonlyArray<string | null>>> = { i: new Map(), l: new Map() };
const MAX_REMEMBERED = 65_536;

/** What one code point folds to: per character of its NFKD form, null for a word separator or its folded letters. */
function piecesOf(original: string, reading: CapitalIReading): ReadonlyArray<string | null> {
  const memo = PIECES[reading];
  let pieces = memo.get(original);
  if (pieces === undefined) {
    pieces = [...original.normalize('NFKD')].map((ch) => (SEPARATOR.test(ch) ? null : foldChar(ch, reading)));
    // a hostile text of ever new code points must not grow it without bound
    if (memo.size >= MAX_REMEMBERED) memo.clear();
    memo.set(original, pieces);
  }
  return pieces;
}

/**
 * The text as the built-in patterns (addresses, numbers, dates) read it: each character in its compatibility form
 * (NFKC: full-width digits and letters, mathematical letters), invisibles and combining marks dropped, case and
 * punctuation kept (an e-mail address needs its dots), with each character's source span.
 */
export function normalizeForPatterns(text: string): FoldedText {
  return withSourceSpans(text, (original) => [...original.normalize('NFKC')].filter((ch) => !DROPPED.test(ch)));
}

/**
 * Case and compatibility forms only (NFKC, lower case, NFKC again since lower case can leave a string that is not
 * NFKC): "Doubt", "DOUBT" and full-width "ｄoubt" are one key, look-alikes from other scripts are not. For words and
 * labels people type (the parser's commit phrases, label and code names, fillers), where foldForMatching's confusables
 * would join words that differ.
 */
export function caselessKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** The canonical form of a listed term or a name, without source spans, trimmed. */
export function foldedKey(text: string, reading: CapitalIReading = 'i'): string {
  return foldForMatching(text, reading).text.trim();
}

/**
 * Every canonical form of a name or term (one per reading of a capital "I"): two names look alike when their sets
 * of keys meet.
 */
export function foldedKeys(text: string): string[] {
  const asI = foldedKey(text, 'i');
  // the readings differ only where a capital I is written
  if (!text.includes('I')) return [asI];
  const asL = foldedKey(text, 'l');
  return asI === asL ? [asI] : [asI, asL];
}

/** Whether two names look alike to a reader: same letters up to case, compatibility forms, invisibles, marks and confusables. */
export function looksAlike(a: string, b: string): boolean {
  const keys = new Set(foldedKeys(a));
  return foldedKeys(b).some((k) => keys.has(k));
}

/** Where a word of the folded text may start or end: not next to a letter or digit. */
export function isWordEdge(folded: string, index: number): boolean {
  const ch = folded[index];
  return ch === undefined || !/[\p{L}\p{N}]/u.test(ch);
}
