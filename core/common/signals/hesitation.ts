/**
 * Hesitation by category, in the transcript's language: counts a methods section can state.
 * - filled_pause_count: filled pauses (um, uh, äh) of the language's list; a pause held longer counts as its listed
 *   form ("ummm" as "um", "hmmm" as "hm").
 * - hedge_count: hedges (maybe, I think, vielleicht).
 * - editing_term_count: editing terms (no wait, I mean, ich meine); their words may stand apart by a comma ("no, wait").
 * - repetition_count: a word said again at once ("I, I", "the the"): each repeat counts once; between the two only
 *   spaces, commas, dashes or an ellipsis; filled pauses (counted above) and the list `repetition_exceptions`
 *   ("that that", "die die") are not repetitions.
 * Words of a multi-word term stand apart by spaces or a hyphen only (editing terms: also a comma). Scanning left to
 * right, the longest term at a word wins (at equal length: editing term, hedge, filled pause) and takes its words.
 * Context rules, so that a word used otherwise is not counted:
 * - en `like`: not after a subject, an auxiliary, "to" or a negation ("I like this reply": a verb), not after a
 *   verb of seeming or "just" ("sounds like", "just like": a comparison), not before an article or a pronoun
 *   ("like a question");
 * - en `kind of` / `sort of`: not after a determiner or a question word ("what kind of", "a sort of"): they ask for a type;
 * - de `um`: not before a number, a time word, "zu", an article or a pronoun, or a capitalised noun ("um drei Uhr",
 *   "um zu", "um den Ton", "um Hilfe"), nor after "geht", "handelt", "bitte" ("es geht um"): a preposition.
 * The transcript's language decides which lists count: the project's one language, or, with several, the one whose
 * common words the transcript has most of (ties: the first listed).
 */
import { hesitationListsFor, type HesitationLists } from './hesitationLists';
import { offsetsInOriginal, TERM_GAP, WORD_PATTERN } from './wordTokens';
import { caselessKey } from '../text/textFold';
import { ENGLISH_DETERMINERS, GERMAN_ARTICLES, GERMAN_NUMBER_WORDS_TO_TWELVE } from '../text/wordClasses';

export interface HesitationCounts {
  filled_pause_count: number;
  hedge_count: number;
  repetition_count: number;
  editing_term_count: number;
}

export interface HesitationSignals extends HesitationCounts {
  /** the language whose lists counted */
  hesitation_language: string;
}

/** What a hesitation is counted as: each category has its `<category>_count`. */
export type HesitationCategory = 'filled_pause' | 'hedge' | 'repetition' | 'editing_term';

/** One hesitation heard: its category and where it stands, [start, end) in the text's UTF-16 offsets. */
export interface HesitationOccurrence {
  category: HesitationCategory;
  start: number;
  end: number;
}

/** What hesitation is counted with: the project's languages and aloud.yaml `thinkaloud.hesitation`. */
export interface HesitationSettings {
  languages: readonly string[];
  hesitation?: Readonly<Record<string, Partial<HesitationLists>>>;
}

type Category = Exclude<HesitationCategory, 'repetition'>;

interface Token {
  /** lower case, one apostrophe character */
  word: string;
  /** as written (after NFKC) */
  raw: string;
  start: number;
  end: number;
}

const EDITING_GAP = /^[\s,\-\u2010]+$/u;
const REPETITION_GAP = /^(?:[\s,\-\u2010-\u2015]|\.\.\.|\u2026)*$/u;

function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(WORD_PATTERN))
    tokens.push({ word: m[0].toLowerCase().replace(/\u2019/gu, "'"), raw: m[0], start: m.index, end: m.index + m[0].length });
  return tokens;
}

/** "ummm" → "um", "hmmm" → "hm": a filled pause held longer is the same pause. */
const held = (word: string): string => word.replace(/(\p{L})\1+/gu, '$1');

/** Common words of each language with built-in lists, for deciding a transcript's language (none in both). */
const COMMON_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set([
    'the',
    'and',
    'is',
    'it',
    'this',
    'i',
    'that',
    'to',
    'of',
    'a',
    'not',
    'my',
    "it's",
    'you',
    'with',
    'what',
    'but',
    'label',
    'answer',
    'would',
    'be',
    'they',
    'have',
    'for',
    'on',
    'reply',
    'polite',
    'think',
  ]),
  de: new Set([
    'und',
    'ist',
    'das',
    'die',
    'der',
    'nicht',
    'ich',
    'es',
    'ein',
    'eine',
    'zu',
    'mit',
    'auf',
    'meine',
    'antwort',
    'aber',
    'wie',
    'sie',
    'wir',
    'den',
    'dem',
    'auch',
    'noch',
    'für',
    'von',
    'dass',
    'also',
    'höflich',
    'glaube',
  ]),
};

/** The language whose lists count for a transcript: the one active language, or the one its common words say. */
export function transcriptLanguage(transcript: string, languages: readonly string[]): string {
  if (languages.length <= 1) return languages[0] ?? 'en';
  const words = tokensOf(transcript.normalize('NFKC')).map((t) => t.word);
  let best = languages[0]!;
  let bestScore = -1;
  for (const language of languages) {
    const common = COMMON_WORDS[language];
    const score = common ? words.filter((w) => common.has(w)).length : 0;
    if (score > bestScore) {
      best = language;
      bestScore = score;
    }
  }
  return best;
}

const EN_SUBJECTS_AND_AUXILIARIES = new Set([
  'i',
  'you',
  'we',
  'they',
  'he',
  'she',
  'people',
  "i'd",
  "you'd",
  "we'd",
  "they'd",
  'would',
  'do',
  'does',
  'did',
  "don't",
  "doesn't",
  "didn't",
  'to',
  'really',
  'also',
  'not',
  'never',
  'might',
  'will',
  "i'll",
  'should',
  'could',
  'can',
]);
const EN_COMPARISON_BEFORE = new Set([
  'look',
  'looks',
  'looked',
  'looking',
  'sound',
  'sounds',
  'sounded',
  'seem',
  'seems',
  'seemed',
  'feel',
  'feels',
  'felt',
  'just',
  'more',
  'less',
  'much',
  'exactly',
  'nothing',
  'something',
  'anything',
  'very',
]);
const EN_NOUN_PHRASE_START = new Set([
  ...ENGLISH_DETERMINERS,
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
  'someone',
  'something',
  'me',
  'him',
  'them',
  'us',
  'it',
  'you',
]);
const EN_TYPE_QUESTION = new Set([
  'what',
  'which',
  'a',
  'the',
  'this',
  'that',
  'these',
  'those',
  'some',
  'any',
  'every',
  'each',
  'one',
  'no',
  'same',
  'another',
  'other',
  'whatever',
  'all',
  "what's",
]);
const DE_AFTER_PREPOSITION = new Set([
  'zu',
  ...GERMAN_ARTICLES,
  'mich',
  'dich',
  'sich',
  'uns',
  'euch',
  'ihn',
  'es',
  'sie',
  'jeden',
  'jede',
  'jedes',
  'alle',
  'etwas',
  'nichts',
  'was',
  'wie',
  'so',
  'mehr',
  'uhr',
  'halb',
  'viertel',
  'mitternacht',
  'mittag',
  ...GERMAN_NUMBER_WORDS_TO_TWELVE,
  'zwanzig',
  'dreißig',
  'vierzig',
  'fünfzig',
  'hundert',
  'tausend',
  'himmels',
]);
const DE_BEFORE_PREPOSITION = new Set([
  'geht',
  'ging',
  'gehen',
  'handelt',
  'dreht',
  'bitte',
  'bittet',
  'bat',
  'kümmere',
  'kümmert',
  'kümmern',
  'herum',
]);

/** Whether the term found at tokens [at, end) is used otherwise here (the context rules above). */
function usedOtherwise(term: string, language: string, tokens: readonly Token[], at: number, end: number, text: string): boolean {
  const before = at > 0 && TERM_GAP.test(text.slice(tokens[at - 1]!.end, tokens[at]!.start)) ? tokens[at - 1]!.word : null;
  const nextToken = end < tokens.length && TERM_GAP.test(text.slice(tokens[end - 1]!.end, tokens[end]!.start)) ? tokens[end]! : null;
  if (language === 'en' && term === 'like') {
    if (before !== null && (EN_SUBJECTS_AND_AUXILIARIES.has(before) || EN_COMPARISON_BEFORE.has(before))) return true;
    return nextToken !== null && EN_NOUN_PHRASE_START.has(nextToken.word);
  }
  if (language === 'en' && (term === 'kind of' || term === 'sort of')) return before !== null && EN_TYPE_QUESTION.has(before);
  if (language === 'de' && term === 'um' && tokens[at]!.word === 'um') {
    if (before !== null && DE_BEFORE_PREPOSITION.has(before)) return true;
    if (nextToken === null) return false;
    return (
      DE_AFTER_PREPOSITION.has(nextToken.word) ||
      /^\p{N}/u.test(nextToken.word) ||
      (/^\p{Lu}/u.test(nextToken.raw) && nextToken.word !== 'ich')
    );
  }
  return false;
}

interface Term {
  category: Category;
  term: string;
  words: string[];
}

/** One language's lists made ready for scanning: terms as words, indexed by their first word. Made once per lists. */
interface CompiledLists {
  /** terms by their first word, in tie order (editing term, hedge, filled pause) */
  byFirstWord: Map<string, Term[]>;
  /** one-word filled pauses as listed, and in their held form ("um" also stands for "ummm") */
  singlePauses: Set<string>;
  heldPauses: Set<string>;
  exceptions: Set<string>;
}

/** Compiled lists by the lists object (hesitationListsFor answers one object per configuration and language). */
const COMPILED = new WeakMap<HesitationLists, CompiledLists>();

function compileLists(lists: HesitationLists): CompiledLists {
  const known = COMPILED.get(lists);
  if (known) return known;
  const terms: Term[] = [];
  const add = (category: Category, list: readonly string[]): void => {
    for (const term of list) {
      const words = tokensOf(term.normalize('NFKC')).map((t) => t.word);
      if (words.length > 0) terms.push({ category, term: words.join(' '), words });
    }
  };
  // order decides ties at equal length: editing term, hedge, filled pause
  add('editing_term', lists.editing_terms);
  add('hedge', lists.hedges);
  add('filled_pause', lists.filled_pauses);
  const byFirstWord = new Map<string, Term[]>();
  for (const term of terms) byFirstWord.set(term.words[0]!, [...(byFirstWord.get(term.words[0]!) ?? []), term]);
  const singles = terms.filter((t) => t.category === 'filled_pause' && t.words.length === 1).map((t) => t.words[0]!);
  const compiled: CompiledLists = {
    byFirstWord,
    singlePauses: new Set(singles),
    heldPauses: new Set(singles.map(held)),
    exceptions: new Set(lists.repetition_exceptions.map(caselessKey)),
  };
  COMPILED.set(lists, compiled);
  return compiled;
}

/** The hesitations of one text (already NFKC) with one language's lists, in its offsets: terms left to right, then repetitions. */
function scanHesitation(text: string, language: string, lists: HesitationLists): HesitationOccurrence[] {
  const tokens = tokensOf(text);
  const { byFirstWord, singlePauses, heldPauses, exceptions } = compileLists(lists);

  const matchesAt = (term: Term, at: number): boolean => {
    if (at + term.words.length > tokens.length) return false;
    const gap = term.category === 'editing_term' ? EDITING_GAP : TERM_GAP;
    return term.words.every(
      (w, k) => tokens[at + k]!.word === w && (k === 0 || gap.test(text.slice(tokens[at + k - 1]!.end, tokens[at + k]!.start))),
    );
  };
  const isFilledPause = (at: number): boolean => {
    const word = tokens[at]!.word;
    return singlePauses.has(word) || heldPauses.has(held(word));
  };

  const found: HesitationOccurrence[] = [];
  for (let at = 0; at < tokens.length;) {
    let term: Term | null = null;
    for (const candidate of byFirstWord.get(tokens[at]!.word) ?? [])
      if (matchesAt(candidate, at) && (term === null || candidate.words.length > term.words.length)) term = candidate;
    if (term === null && isFilledPause(at)) term = { category: 'filled_pause', term: tokens[at]!.word, words: [tokens[at]!.word] };
    if (term === null || usedOtherwise(term.term, language, tokens, at, at + term.words.length, text)) {
      at++;
      continue;
    }
    found.push({ category: term.category, start: tokens[at]!.start, end: tokens[at + term.words.length - 1]!.end });
    at += term.words.length;
  }
  for (let at = 1; at < tokens.length; at++) {
    const word = tokens[at]!.word;
    if (word !== tokens[at - 1]!.word || exceptions.has(word) || isFilledPause(at)) continue;
    if (REPETITION_GAP.test(text.slice(tokens[at - 1]!.end, tokens[at]!.start)))
      found.push({ category: 'repetition', start: tokens[at]!.start, end: tokens[at]!.end });
  }
  return found;
}

/** The four counts of one transcript with one language's lists. */
export function countHesitation(transcript: string, language: string, lists: HesitationLists): HesitationCounts {
  const counts: HesitationCounts = { filled_pause_count: 0, hedge_count: 0, repetition_count: 0, editing_term_count: 0 };
  for (const o of scanHesitation(transcript.normalize('NFKC'), language, lists)) counts[`${o.category}_count`]++;
  return counts;
}

/** The hesitation signals of a transcript under a project's languages and aloud.yaml `thinkaloud.hesitation`. */
export function hesitationSignals(transcript: string, settings: HesitationSettings): HesitationSignals {
  const language = transcriptLanguage(transcript, settings.languages);
  return { ...countHesitation(transcript, language, hesitationListsFor(language, settings.hesitation)), hesitation_language: language };
}

/**
 * Where the hesitations that the four counts count stand in the verbatim transcript ([start, end) in its UTF-16
 * offsets; a repetition is the word said again): exactly `<category>_count` of each category.
 */
export function hesitationOccurrences(transcript: string, settings: HesitationSettings): HesitationOccurrence[] {
  const language = transcriptLanguage(transcript, settings.languages);
  const text = transcript.normalize('NFKC');
  const toOriginal = offsetsInOriginal(transcript, text, (s) => s.normalize('NFKC'));
  return scanHesitation(text, language, hesitationListsFor(language, settings.hesitation)).map((o) => ({
    ...o,
    start: toOriginal(o.start),
    end: toOriginal(o.end),
  }));
}
