import { caselessKey } from '../text/textFold';
import type { PatternName } from '../deidentified/deidentifyTerms';

/**
 * The built-in patterns of de-identification: fixed regular expressions, documented in the README, no model.
 * Each has its placeholder class; dates know English and German forms.
 */
export const PATTERN_CLASSES: Readonly<Record<PatternName, string>> = {
  email: 'EMAIL',
  url: 'URL',
  phone: 'PHONE',
  digits: 'NUMBER',
  date: 'DATE',
};

/** A run of this many digits (or more) is hidden as NUMBER: ids, account and card numbers. Years (4) are not. */
export const LONG_DIGIT_RUN = 6;
/** A phone number has at least this many digits, in groups separated by single spaces, dots, slashes, dashes or brackets. */
export const PHONE_MIN_DIGITS = 7;

/** Not preceded / followed by a letter, digit or underscore: the word boundary of every pattern and term. */
export const BEFORE = '(?<![\\p{L}\\p{N}_])';
export const AFTER = '(?![\\p{L}\\p{N}_])';

const TLD = '(?:com|org|net|edu|gov|io|info|eu|de|at|ch|uk|fr|it|nl|es|co)';
// every repetition is bounded (an address part, a domain label, a phone's groups): a hostile 100 000-character note
// of "a.a.a…" or "1 1 1…" must not make a match try every start against the whole rest of the text
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';

/** How a dot, an at sign and the joiners of an address are said, in English and German (whisper writes them as words). */
const SAID_DOT = '(?:dot|punkt)';
const SAID_AT = '(?:at|ät|@|klammeraffe|at-zeichen)';
const SAID_JOINER = '(?:dot|punkt|underscore|unterstrich|dash|hyphen|minus|bindestrich|strich)';
/** a spoken word of an address: letters and digits, or a written run with dots and dashes ("jonas.weber") */
const SAID_WORD = '[\\p{L}\\p{N}][\\p{L}\\p{N}._-]{0,63}';
/** words of a spoken address stand apart by spaces, or a comma where the speaker paused */
const GAP = ',?\\s{1,3}';

const EMAIL = [
  `[\\p{L}\\p{N}._%+-]{0,63}[\\p{L}\\p{N}]@${LABEL}(?:\\.${LABEL}){0,8}\\.\\p{L}{2,24}`,
  // as spoken and transcribed, hidden whole (the name before "at" too): "jonas dot weber at example dot com",
  // "jonas underscore weber ät beispiel punkt de", "anna klammeraffe example punkt com"
  `${SAID_WORD}(?:${GAP}${SAID_JOINER}${GAP}${SAID_WORD}){0,6}${GAP}${SAID_AT}${GAP}${LABEL}(?:${GAP}${SAID_JOINER}${GAP}${LABEL}){0,6}${GAP}${SAID_DOT}${GAP}${TLD}`,
];

const URL = [
  `(?:https?://|www\\.)[^\\s<>"]{0,2000}[^\\s<>".,;:!?)\\]'’]`,
  `${LABEL}(?:\\.${LABEL}){0,8}\\.${TLD}(?:/[^\\s<>"]{0,2000}[^\\s<>".,;:!?)\\]'’])?`,
];

const PHONE = `(?:\\+|00)?(?:\\(\\d{1,5}\\)|\\d)(?:[ ./-]?(?:\\(\\d{1,5}\\)|\\d)){1,24}`;
/** Digits said as words, English and German ("five five five, one two …", "null drei null, fünf …"). */
const DIGIT_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  oh: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  null: 0,
  eins: 1,
  zwei: 2,
  zwo: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  fuenf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
};
/** "double five", "doppel fünf": one word said, two digits meant */
const DOUBLING = '(?:double|triple|doppel|doppelt)';
const SAID_DIGIT = `(?:${DOUBLING}\\s)?(?:${Object.keys(DIGIT_WORDS).join('|')}|\\d)`;
/** a phone number said digit by digit: at least PHONE_MIN_DIGITS digits (counted by isPhoneNumber), "plus" or a pause between them allowed */
const SAID_PHONE = `(?:(?:plus|\\+)\\s?)?${SAID_DIGIT}(?:[\\s,./-]{1,3}${SAID_DIGIT}){2,30}`;
const DIGITS = `\\d{${LONG_DIGIT_RUN},}`;

const EN_MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';
const DE_MONTHS = 'januar|jänner|februar|märz|maerz|april|mai|juni|juli|august|september|oktober|november|dezember';
const EN_ORDINALS =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first|twenty-second|twenty-third|twenty-fourth|twenty-fifth|twenty-sixth|twenty-seventh|twenty-eighth|twenty-ninth|thirtieth|thirty-first';
const DE_ORDINALS =
  'ersten|zweiten|dritten|vierten|fünften|sechsten|siebten|achten|neunten|zehnten|elften|zwölften|erster|zweiter|dritter|vierter|fünfter';
const DAY = '(?:[0-2]?\\d|3[01])';
const YEAR = '(?:\\d{4}|\\d{2})';
const MONTH = '(?:0?[1-9]|1[0-2])';

const DATE_COMMON = [`\\d{4}-\\d{1,2}-\\d{1,2}`, `${DAY}[/.-]\\d{1,2}[/.-]${YEAR}`];
const DATE_EN = [
  `(?:${EN_MONTHS})\\.? (?:the )?(?:${DAY}(?:st|nd|rd|th)?|${EN_ORDINALS})(?:,? \\d{4})?`,
  `(?:the )?(?:${DAY}(?:st|nd|rd|th)?|${EN_ORDINALS})(?: of)? (?:${EN_MONTHS})(?:,? \\d{4})?`,
  `(?:${EN_MONTHS}) \\d{4}`,
];
const DATE_DE = [
  // "12.05.2024", "1.2.", "3. 5. 2021"; never "1. 1." (a numbered list) without a year
  `${DAY}\\.(?:${MONTH}\\.(?:\\d{4}|\\d{2})?|\\s${MONTH}\\.\\s?\\d{4})`,
  `(?:${DAY}\\.|${DE_ORDINALS}) ?(?:${DE_MONTHS})(?: \\d{4})?`,
  `(?:${DE_MONTHS}) \\d{4}`,
];

/** The alternatives of one pattern for the given languages. */
export function patternSources(name: PatternName, languages: readonly string[]): string[] {
  switch (name) {
    case 'email':
      return EMAIL;
    case 'url':
      return URL;
    case 'phone':
      return [PHONE, SAID_PHONE];
    case 'digits':
      return [DIGITS];
    case 'date':
      return [...DATE_COMMON, ...(languages.includes('en') ? DATE_EN : []), ...(languages.includes('de') ? DATE_DE : [])];
  }
}

/** The digits of a phone number as written or said: "555-12 34" and "five five five one two three four" alike. */
function phoneDigits(text: string): string {
  let out = '';
  let repeat = 1;
  for (const word of text.toLowerCase().match(/\p{L}+|\d+/gu) ?? []) {
    if (/^\d+$/u.test(word)) out += word.repeat(repeat);
    else if (word in DIGIT_WORDS) out += String(DIGIT_WORDS[word]).repeat(repeat);
    repeat = word === 'double' || word.startsWith('doppel') ? 2 : word === 'triple' ? 3 : 1;
  }
  return out;
}

/** Whether a phone-shaped match really is a phone number (enough digits, written or said), not "2 or 3". */
export function isPhoneNumber(text: string): boolean {
  return phoneDigits(text).length >= PHONE_MIN_DIGITS;
}

/** The identity of a pattern match for numbering: the same address or number gets the same placeholder. */
export function patternKey(name: PatternName, text: string): string {
  if (name === 'phone') return `phone:${phoneDigits(text)}`;
  if (name === 'digits') return `digits:${text.replace(/\D/gu, '')}`;
  return `${name}:${caselessKey(text).replace(/\s+/gu, ' ')}`;
}
