/**
 * Spoken step judgments: the fixed phrases an annotator uses to judge a model's reasoning step by step while it
 * is shown ("step three is wrong", "step 2 is correct", "Schritt vier ist neutral", "the first error is step
 * five"). Built on the commit-phrase machinery (the same normalised words with original offsets, the same stem
 * pattern language, the same negation cues and fillers), and with the same bias: a false judgment is worse than a
 * missed one, so a negated, questioned or two-way phrase judges nothing and is reported instead.
 *
 * Phrases (en; de in brackets), N a number as digits or a word up to twenty ("three", "drei"):
 * - `step (number) N <copula> <verdict>` [`schritt (nummer) N <kopula> <urteil>`], copula is/was/seems/looks
 *   [ist/war/scheint], optionally with a filler or an intensifier ("is definitely wrong");
 *   verdict wrong/incorrect/false/an error/a mistake → −1, correct/right/fine/good/valid/ok → +1, neutral → 0;
 * - `(the) first (error|mistake|wrong step) is (in) (step) N` [`(der) erste fehler ist (in) (schritt) N`] → N is −1,
 *   and the judgment says N is where the first error is.
 * A negation cue between the copula and the verdict, or earlier in the same clause ("I don't think step three
 * is wrong"), negates; a `?` right after the phrase makes it a question; "wrong or right" is ambiguous.
 */
import { DEFAULT_FILLERS } from '../signals/hesitationLists';
import { SINGLE_WORD_CUES } from './negationCues';
import { GAP_CLAUSE_END, GAP_QUESTION, matchWords, normalizeForMatching } from './matchText';
import { compileStemPattern } from './stemPattern';
import { GERMAN_NUMBER_WORDS_TO_TWELVE } from '../text/wordClasses';

/** +1 the step is correct, 0 neutral, −1 wrong: the common process-reward scale. */
export type StepReward = 1 | 0 | -1;

export interface SpokenStepJudgment {
  /** 1-based step number as said */
  index: number;
  reward: StepReward;
  /** `first_error`: "the first error is step N" (N is wrong, and the steps before it are not) */
  kind: 'step' | 'first_error';
  /** exact transcript.slice(start, end), from the phrase's first word to its last */
  quote: string;
  start: number;
  end: number;
  language: string;
}

export type StepDiagnosticKind = 'negated' | 'ambiguous' | 'unknown_step';

export interface StepJudgmentDiagnostic {
  kind: StepDiagnosticKind;
  quote: string;
  start: number;
  end: number;
  message: string;
}

export interface StepJudgmentParse {
  judgments: SpokenStepJudgment[];
  diagnostics: StepJudgmentDiagnostic[];
}

export interface StepJudgmentOptions {
  /** active languages ("en", "de"); others have no step phrases and are ignored */
  languages: readonly string[];
  /** how many steps the shown reasoning has: a judgment of a step beyond it is `unknown_step`; absent: no check */
  stepCount?: number;
  fillers?: readonly string[];
}

interface LanguagePhrases {
  step: string;
  copula: string;
  intensifiers: string;
  firstError: string;
  numbers: readonly string[];
  verdicts: ReadonlyArray<readonly [string, StepReward]>;
}

/** Written in the stem pattern language of aloud.yaml `thinkaloud.stems` (see stemPattern.ts). */
export const STEP_PHRASES: Readonly<Record<string, LanguagePhrases>> = {
  en: {
    step: 'step (number)',
    copula: '(is|was|seems|looks|seems to be|looks to be)',
    intensifiers: 'definitely/clearly/also/actually/really/totally/completely/just/obviously/simply/plainly',
    firstError: '(the) first (error|mistake|wrong step|incorrect step) (is|was|:) (in) (step)',
    numbers: [
      'zero',
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
      'fifteen',
      'sixteen',
      'seventeen',
      'eighteen',
      'nineteen',
      'twenty',
    ],
    verdicts: [
      ['wrong', -1],
      ['incorrect', -1],
      ['false', -1],
      ['an error', -1],
      ['a mistake', -1],
      ['mistaken', -1],
      ['flawed', -1],
      ['invalid', -1],
      ['bad', -1],
      ['correct', 1],
      ['right', 1],
      ['fine', 1],
      ['good', 1],
      ['valid', 1],
      ['ok', 1],
      ['okay', 1],
      ['sound', 1],
      ['neutral', 0],
    ],
  },
  de: {
    step: 'schritt (nummer)',
    copula: '(ist|war|scheint)',
    intensifiers: 'definitiv/eindeutig/klar/auch/wirklich/völlig/einfach/offensichtlich',
    firstError: '(der) erste (fehler|falsche schritt) (ist|war|:) (in) (schritt)',
    numbers: [
      ...GERMAN_NUMBER_WORDS_TO_TWELVE,
      'dreizehn',
      'vierzehn',
      'fünfzehn',
      'sechzehn',
      'siebzehn',
      'achtzehn',
      'neunzehn',
      'zwanzig',
    ],
    verdicts: [
      ['falsch', -1],
      ['fehlerhaft', -1],
      ['inkorrekt', -1],
      ['ein fehler', -1],
      ['ungültig', -1],
      ['richtig', 1],
      ['korrekt', 1],
      ['gut', 1],
      ['in ordnung', 1],
      ['ok', 1],
      ['okay', 1],
      ['gültig', 1],
      ['neutral', 0],
    ],
  },
};

/** Extra spoken forms of numbers: German "ein" and "zwo". */
const NUMBER_ALIASES: Readonly<Record<string, Readonly<Record<string, number>>>> = { de: { ein: 1, zwo: 2 } };

const CONJUNCTIONS = new Set(['or', 'oder', 'and', 'und']);
/** A first-error phrase needs a copula or the word "step" before its number. */
const FIRST_ERROR_ANCHORS = new Set(['is', 'was', 'ist', 'war', 'step', 'schritt']);

interface Trie<T> {
  next: Map<string, Trie<T>>;
  value: T | null;
}

function trie<T>(): Trie<T> {
  return { next: new Map(), value: null };
}

function insert<T>(root: Trie<T>, words: readonly string[], value: T): void {
  let node = root;
  for (const word of words) {
    let child = node.next.get(word);
    if (!child) {
      child = trie<T>();
      node.next.set(word, child);
    }
    node = child;
  }
  node.value ??= value;
}

/** End (exclusive) and value of the longest entry of `root` starting at words[at], or null. */
function longest<T>(root: Trie<T>, words: readonly string[], at: number): { end: number; value: T } | null {
  let node: Trie<T> | undefined = root;
  let found: { end: number; value: T } | null = null;
  for (let j = at; j < words.length; j++) {
    node = node.next.get(words[j]!);
    if (!node) break;
    if (node.value !== null) found = { end: j + 1, value: node.value };
  }
  return found;
}

function patternTrie<T>(pattern: string, value: T, into: Trie<T> = trie<T>()): Trie<T> {
  for (const phrasing of compileStemPattern(pattern).phrasings) insert(into, phrasing, value);
  return into;
}

interface CompiledLanguage {
  language: string;
  step: Trie<true>;
  copula: Trie<true>;
  intensifiers: Trie<true>;
  firstError: Trie<true>;
  numbers: Map<string, number>;
  verdicts: Trie<StepReward>;
}

function compileLanguage(language: string, phrases: LanguagePhrases): CompiledLanguage {
  const verdicts = trie<StepReward>();
  for (const [phrase, reward] of phrases.verdicts) insert(verdicts, normalizeForMatching(phrase).split(' '), reward);
  const numbers = new Map<string, number>(phrases.numbers.map((w, i) => [w, i]));
  for (const [word, n] of Object.entries(NUMBER_ALIASES[language] ?? {})) numbers.set(word, n);
  return {
    language,
    step: patternTrie(phrases.step, true),
    copula: patternTrie(phrases.copula, true),
    intensifiers: patternTrie(phrases.intensifiers, true),
    firstError: patternTrie(phrases.firstError, true),
    numbers,
    verdicts,
  };
}

type Outcome = { judgment: SpokenStepJudgment; end: number } | { diagnostic: StepJudgmentDiagnostic; end: number };

/** Compile once (phrases, fillers) and get a parser for any number of transcripts. */
export function createStepJudgmentParser(options: StepJudgmentOptions): (transcript: string) => StepJudgmentParse {
  const languages = options.languages.filter((l) => STEP_PHRASES[l] !== undefined).map((l) => compileLanguage(l, STEP_PHRASES[l]!));
  const fillers = trie<true>();
  for (const filler of options.fillers ?? DEFAULT_FILLERS) {
    const words = normalizeForMatching(filler);
    if (words !== '') insert(fillers, words.split(' '), true);
  }
  return (transcript) => {
    const { words, starts, ends, gaps } = matchWords(transcript);
    const cueLength = (at: number): number => {
      const word = words[at];
      if (word === undefined) return 0;
      if (SINGLE_WORD_CUES.has(word) || word.endsWith("n't")) return 1;
      return word === 'no' && words[at + 1] === 'longer' ? 2 : 0;
    };
    // the first word of the last negation cue before each word within its clause, or -1
    const cueBefore = new Int32Array(words.length + 1);
    let last = -1;
    for (let p = 0; p <= words.length; p++) {
      if (gaps[p]! & GAP_CLAUSE_END) last = -1;
      cueBefore[p] = last;
      if (p < words.length && cueLength(p) > 0) last = p;
    }
    const skip = (from: number, lang: CompiledLanguage, alsoIntensifiers: boolean): number => {
      let at = from;
      for (;;) {
        const filler = longest(fillers, words, at) ?? (alsoIntensifiers ? longest(lang.intensifiers, words, at) : null);
        if (!filler) return at;
        at = filler.end;
      }
    };
    const quote = (from: number, to: number) => ({
      quote: transcript.slice(starts[from]!, ends[to - 1]!),
      start: starts[from]!,
      end: ends[to - 1]!,
    });
    const number = (lang: CompiledLanguage, at: number): number | null => {
      const word = words[at];
      if (word === undefined) return null;
      if (/^\d{1,3}$/.test(word)) return Number(word);
      return lang.numbers.get(word) ?? null;
    };
    const questionIn = (from: number, to: number): boolean => {
      for (let p = from + 1; p <= to; p++) if (gaps[p]! & GAP_QUESTION) return true;
      return false;
    };
    const diagnostic = (kind: StepDiagnosticKind, from: number, to: number, message: string): Outcome => ({
      diagnostic: { kind, ...quote(from, to), message },
      end: to,
    });

    /** Checks shared by both phrase forms once the step number and the reward are known. */
    const finish = (
      lang: CompiledLanguage,
      start: number,
      end: number,
      index: number,
      reward: StepReward,
      kind: SpokenStepJudgment['kind'],
    ): Outcome => {
      const said = quote(start, end).quote;
      const cue = cueBefore[start]!;
      if (cue >= 0) return diagnostic('negated', cue, end, `"${words[cue]}" earlier in the sentence negates "${said}": nothing judged`);
      if (questionIn(start, end)) return diagnostic('ambiguous', start, end, `"${said}" is asked as a question: nothing judged`);
      if (index < 1 || (options.stepCount !== undefined && index > options.stepCount)) {
        const range = options.stepCount === undefined ? 'steps count from 1' : `the reasoning has steps 1 to ${options.stepCount}`;
        return diagnostic('unknown_step', start, end, `"${said}" names step ${index}, but ${range}: nothing judged`);
      }
      return { judgment: { index, reward, kind, ...quote(start, end), language: lang.language }, end };
    };

    const stepPhrase = (lang: CompiledLanguage, start: number): Outcome | null => {
      const step = longest(lang.step, words, start);
      if (!step) return null;
      const index = number(lang, step.end);
      if (index === null) return null;
      const copula = longest(lang.copula, words, step.end + 1);
      // "step three isn't wrong": the copula itself carries the negation
      const negatedCopula = copula === null && cueLength(step.end + 1) === 1 && words[step.end + 1]!.endsWith("n't");
      if (!copula && !negatedCopula) return null;
      let at = skip(copula ? copula.end : step.end + 2, lang, true);
      let cue = negatedCopula ? step.end + 1 : -1;
      while (cueLength(at) > 0) {
        if (cue < 0) cue = at;
        at = skip(at + cueLength(at), lang, true);
      }
      const verdict = longest(lang.verdicts, words, at);
      if (!verdict) return null;
      if (cue >= 0)
        return diagnostic('negated', start, verdict.end, `"${words[cue]}" negates "${quote(start, verdict.end).quote}": nothing judged`);
      // "wrong or right", "richtig oder falsch": two verdicts, no judgment
      const conjunction = skip(verdict.end, lang, false);
      if (CONJUNCTIONS.has(words[conjunction] ?? '') && !(gaps[conjunction]! & GAP_CLAUSE_END)) {
        for (let p = conjunction + 1; p <= conjunction + 3 && p < words.length; p++) {
          if (gaps[p]! & GAP_CLAUSE_END) break;
          const other = longest(lang.verdicts, words, p);
          if (other)
            return diagnostic('ambiguous', start, other.end, `"${quote(start, other.end).quote}" gives two verdicts: nothing judged`);
          if (cueLength(p) > 0 && p === conjunction + 1)
            return diagnostic('ambiguous', start, p + 1, `"${quote(start, p + 1).quote}" is a verdict or its negation: nothing judged`);
        }
      }
      return finish(lang, start, verdict.end, index, verdict.value, 'step');
    };

    const firstErrorPhrase = (lang: CompiledLanguage, start: number): Outcome | null => {
      const stem = longest(lang.firstError, words, start);
      if (!stem) return null;
      let at = skip(stem.end, lang, false);
      let cue = -1;
      while (cueLength(at) > 0) {
        if (cue < 0) cue = at;
        at = skip(at + cueLength(at), lang, false);
      }
      // "the first error is step five" also when the optional "step" was heard after a filler
      const stepWord = longest(lang.step, words, at);
      if (stepWord) at = stepWord.end;
      // "first error: step five" and "the first error is five" judge; "first mistake three" is too loose to
      const said = words.slice(start, at);
      if (!stepWord && !said.some((w) => FIRST_ERROR_ANCHORS.has(w))) return null;
      const index = number(lang, at);
      if (index === null) return null;
      if (cue >= 0) return diagnostic('negated', start, at + 1, `"${words[cue]}" negates "${quote(start, at + 1).quote}": nothing judged`);
      return finish(lang, start, at + 1, index, -1, 'first_error');
    };

    const judgments: SpokenStepJudgment[] = [];
    const diagnostics: StepJudgmentDiagnostic[] = [];
    let i = 0;
    while (i < words.length) {
      let outcome: Outcome | null = null;
      for (const lang of languages) {
        outcome = firstErrorPhrase(lang, i) ?? stepPhrase(lang, i);
        if (outcome) break;
      }
      if (!outcome) {
        i++;
        continue;
      }
      if ('judgment' in outcome) judgments.push(outcome.judgment);
      else diagnostics.push(outcome.diagnostic);
      i = outcome.end;
    }
    return { judgments, diagnostics };
  };
}

/** Every step judgment in one transcript, in the order said. */
export function parseStepJudgments(transcript: string, options: StepJudgmentOptions): StepJudgmentParse {
  return createStepJudgmentParser(options)(transcript);
}
