/**
 * The deterministic commit-phrase parser: finds where an annotator committed a label out loud
 * ("I label this polite") in the verbatim transcript of one item, and reports mentions that did not
 * commit (negated, ambiguous, unknown label). A false commit is far worse than a miss, so every rule
 * below errs towards committing nothing.
 *
 * Decisions beyond the spec, each tested:
 * - Exact matching takes the longest name or synonym; at equal length a name beats a synonym.
 * - Labels are checked before fillers and negation cues, so a label "Not toxic" or "Maybe" still counts.
 * - A `?` between the stem and the label or right after the label (fillers aside) makes it a question
 *   ("Should I label this polite?"): reported as `ambiguous`, nothing committed.
 * - "<label> or not" is `ambiguous`. Ambiguity looks past up to two other words after or/and/oder/und
 *   ("polite or rather rude"), within one clause.
 * - `unknown_label` only when the stem is followed (fillers aside) by one or two content words and then
 *   punctuation, a filler or the end ("My answer is purple."); "I'll say that again" reports nothing.
 * - A negated diagnostic is reported only when a label follows; its quote runs from the negation cue
 *   (if before the stem) or the stem, through the label.
 */
import type { Commitment, ParseDiagnostic, ParseOptions, ParseResult } from './parseTypes';
import { DEFAULT_FILLERS } from '../project/projectConfig';
import { LabelMatcher, type LabelResolution } from './labelMatch';
import { GAP_CLAUSE_END, GAP_PUNCTUATION, GAP_QUESTION, matchWords, normalizeForMatching, type MatchWords } from './matchText';
import { compileStemPattern } from './stemPattern';
import { SINGLE_WORD_CUES } from './negationCues';

export { compileStemPattern, validateStemPattern } from './stemPattern';

/** Built-in stem patterns per language, used for an active language that `options.stems` does not list. */
export const DEFAULT_STEMS: Record<string, readonly string[]> = {
  en: [
    'I label this/it/that (one) (as)',
    "I('d|'ll| would| will) (label|mark|call|rate|classify|tag) (this|it|that) (one) (as)",
    'label (this|it|that) (as)',
    'my (label|answer|rating|choice|verdict) (is|would be)',
    '(the) final answer (is|:)',
    "I('ll) (choose|pick|select|go with|say)",
    '(this|it|that) (one) is definitely',
  ],
  de: [
    'ich (wähle|nehme|sage)',
    'meine (antwort|wahl|bewertung) ist',
    '(endgültige|finale) antwort (ist|:)',
    'ich (bewerte|markiere) (das|dies|es) (als)',
  ],
};

const CONJUNCTIONS = new Set(['or', 'and', 'oder', 'und']);
const ALTERNATIVE_CONJUNCTIONS = new Set(['or', 'oder']);
/** words after or/and that may stand before a second label and still make the mention ambiguous */
const AMBIGUITY_LOOKAHEAD_WORDS = 2;
/** words after a negation cue within which a label is still reported as negated ("not very polite") */
const NEGATION_LOOKAHEAD_WORDS = 3;

/** Everyday words that continue a sentence rather than attempt a label: "I'll say that again". */
const NOT_A_LABEL_ATTEMPT = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', "it's", "that's", 'one', 'ones', 'some', 'something',
  'anything', 'nothing', 'everything', 'someone', 'them', 'they', 'he', 'she', 'him', 'her', 'you', 'we', 'i', 'me', 'my',
  'mine', 'your', 'our', 'their', 'his', 'again', 'so', 'too', 'then', 'now', 'here', 'there', 'later', 'soon', 'what',
  'which', 'who', 'how', 'why', 'when', 'where', 'whether', 'if', 'but', 'because', 'since', 'as', 'to', 'for', 'with',
  'of', 'on', 'in', 'at', 'by', 'from', 'up', 'down', 'out', 'off', 'about', 'over', 'into', 'is', 'are', 'was', 'were',
  'be', 'been', 'am', 'do', 'does', 'did', 'have', 'has', 'had', 'will', 'would', 'can', 'could', 'should', 'might',
  'must', 'shall', 'may', 'just', 'really', 'very', 'quite', 'also', 'both', 'either', 'neither', 'all', 'any', 'each',
  'other', 'another', 'more', 'most', 'less', 'first', 'second', 'next', 'last', 'same', 'different', 'between',
  'instead', 'rather', 'though', 'well', 'okay', 'ok', 'yeah', 'right', 'sure', 'honestly', 'actually', 'anyway',
  'probably', 'definitely', "i'm", "i'll", "i'd", "you're", "we're", "there's", "what's", "let's", 'let', 'go', 'see',
  'think', 'know', 'whatever',
  'das', 'dies', 'diese', 'dieser', 'dieses', 'es', 'der', 'die', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem',
  'einer', 'mal', 'dann', 'jetzt', 'auch', 'noch', 'etwas', 'nichts', 'alles', 'ich', 'du', 'wir', 'sie', 'er', 'ihr',
  'mir', 'mich', 'aber', 'weil', 'dass', 'wie', 'was', 'wer', 'hier', 'da', 'doch', 'ja', 'eben', 'halt', 'nochmal',
  'später', 'lieber', 'als',
]);

interface StemRef {
  pattern: string;
  language: string;
}

interface WordTrieNode {
  next: Map<string, WordTrieNode>;
  stem: StemRef | null;
  isFiller: boolean;
}

function newTrieNode(): WordTrieNode {
  return { next: new Map(), stem: null, isFiller: false };
}

function trieInsert(root: WordTrieNode, words: readonly string[]): WordTrieNode {
  let node = root;
  for (const word of words) {
    let child = node.next.get(word);
    if (!child) {
      child = newTrieNode();
      node.next.set(word, child);
    }
    node = child;
  }
  return node;
}

interface CompiledOptions {
  labelNames: string[];
  labels: LabelMatcher;
  stems: WordTrieNode;
  fillers: WordTrieNode;
}

/** Phrasings per pattern string (a pure function of it), so parseCommitments need not expand them each call. */
const phrasingsCache = new Map<string, readonly string[][]>();
const PHRASINGS_CACHE_LIMIT = 256;

function phrasingsOf(pattern: string): readonly string[][] {
  let phrasings = phrasingsCache.get(pattern);
  if (!phrasings) {
    phrasings = compileStemPattern(pattern).phrasings;
    if (phrasingsCache.size >= PHRASINGS_CACHE_LIMIT) phrasingsCache.clear();
    phrasingsCache.set(pattern, phrasings);
  }
  return phrasings;
}

function compileOptions(options: ParseOptions): CompiledOptions {
  const stems = newTrieNode();
  for (const language of options.languages) {
    const patterns = options.stems?.[language] ?? DEFAULT_STEMS[language] ?? [];
    patterns.forEach((pattern, index) => {
      let phrasings;
      try {
        phrasings = phrasingsOf(pattern);
      } catch (e) {
        throw new Error(`stems.${language}[${index}]: ${(e as Error).message}`);
      }
      for (const phrasing of phrasings) {
        const node = trieInsert(stems, phrasing);
        node.stem ??= { pattern, language }; // the first pattern listed wins a phrasing two patterns share
      }
    });
  }
  const fillers = newTrieNode();
  for (const filler of options.fillers ?? DEFAULT_FILLERS) {
    const normalised = normalizeForMatching(filler);
    if (normalised !== '') trieInsert(fillers, normalised.split(' ')).isFiller = true;
  }
  return {
    labelNames: options.labels.map((l) => l.name),
    labels: new LabelMatcher(options.labels, options.languages),
    stems,
    fillers,
  };
}

/** One stem phrasing found in the transcript: words [start, end). */
interface StemMatch {
  end: number;
  stem: StemRef;
}

type Outcome =
  | { kind: 'commitment'; commitment: Commitment; resumeAt: number }
  | { kind: 'diagnostic'; diagnostic: ParseDiagnostic; resumeAt: number };

/** The parse of one transcript with compiled options. */
class TranscriptParse {
  private readonly words: string[];
  private readonly starts: number[];
  private readonly ends: number[];
  private readonly gaps: number[];
  /** for each word: the first word of the last negation cue before it in its clause, or -1 */
  private readonly cueBefore: Int32Array;

  constructor(
    private readonly transcript: string,
    private readonly compiled: CompiledOptions,
    matched: MatchWords,
  ) {
    this.words = matched.words;
    this.starts = matched.starts;
    this.ends = matched.ends;
    this.gaps = matched.gaps;
    this.cueBefore = this.findCues();
  }

  run(): ParseResult {
    const commitments: Commitment[] = [];
    const diagnostics: ParseDiagnostic[] = [];
    const count = this.words.length;
    let i = 0;
    while (i < count) {
      if (!this.compiled.stems.next.has(this.words[i]!)) {
        i++;
        continue;
      }
      let resumeAt = i + 1;
      // longest stem first; a shorter one gets its turn only when the longer decides nothing
      for (const match of this.stemsAt(i)) {
        const outcome = this.evaluate(i, match);
        if (!outcome) continue;
        if (outcome.kind === 'commitment') commitments.push(outcome.commitment);
        else diagnostics.push(outcome.diagnostic);
        resumeAt = Math.max(resumeAt, outcome.resumeAt);
        break;
      }
      i = resumeAt;
    }
    return { commitments, final_label: commitments.at(-1)?.label ?? null, diagnostics };
  }

  private stemsAt(start: number): StemMatch[] {
    const found: StemMatch[] = [];
    let node: WordTrieNode | undefined = this.compiled.stems;
    for (let j = start; j < this.words.length; j++) {
      node = node.next.get(this.words[j]!);
      if (!node) break;
      if (node.stem) found.push({ end: j + 1, stem: node.stem });
    }
    return found.reverse();
  }

  /** Number of words of the negation cue starting at `at` ("not", "don't", "no longer", "nicht"), or 0. */
  private cueLength(at: number): number {
    const word = this.words[at];
    if (word === undefined) return 0;
    if (SINGLE_WORD_CUES.has(word) || word.endsWith("n't")) return 1;
    if (word === 'no' && this.words[at + 1] === 'longer') return 2;
    return 0;
  }

  private findCues(): Int32Array {
    const cueBefore = new Int32Array(this.words.length);
    let last = -1;
    let skipUntil = 0;
    for (let p = 0; p < this.words.length; p++) {
      if (this.gaps[p]! & GAP_CLAUSE_END) last = -1;
      cueBefore[p] = last;
      if (p < skipUntil) continue;
      // a label that contains a cue ("Not toxic") is a label mention, not a negation
      const label = this.compiled.labels.exact(this.words, p);
      if (label) {
        skipUntil = label.end;
        continue;
      }
      const cue = this.cueLength(p);
      if (cue > 0) {
        last = p;
        skipUntil = p + cue;
      }
    }
    return cueBefore;
  }

  /** Index of the first word at or after `from` that is not a filler (a label there is never skipped). */
  private skipFillers(from: number): number {
    let at = from;
    for (;;) {
      if (at >= this.words.length || this.compiled.labels.exact(this.words, at)) return at;
      const end = this.fillerEnd(at);
      if (end === at) return at;
      at = end;
    }
  }

  private fillerEnd(start: number): number {
    let node: WordTrieNode | undefined = this.compiled.fillers;
    let end = start;
    for (let j = start; j < this.words.length; j++) {
      node = node.next.get(this.words[j]!);
      if (!node) break;
      if (node.isFiller) end = j + 1;
    }
    return end;
  }

  private quote(fromWord: number, toWordExclusive: number): { quote: string; start: number; end: number } {
    const start = this.starts[fromWord]!;
    const end = this.ends[toWordExclusive - 1]!;
    return { quote: this.transcript.slice(start, end), start, end };
  }

  private spoken(fromWord: number, toWordExclusive: number): string {
    return this.quote(fromWord, toWordExclusive).quote;
  }

  private diagnostic(kind: ParseDiagnostic['kind'], from: number, to: number, stem: StemRef, message: string): Outcome {
    return { kind: 'diagnostic', diagnostic: { kind, ...this.quote(from, to), stem: stem.pattern, message }, resumeAt: to };
  }

  /** What the stem at words [start, match.end) decides, or null when it decides nothing. */
  private evaluate(start: number, match: StemMatch): Outcome | null {
    const { stem } = match;
    // fillers and negation cues may stand between the stem and the label; nothing else
    let at = match.end;
    let cueBetween = -1;
    for (;;) {
      at = this.skipFillers(at);
      if (at >= this.words.length || this.compiled.labels.exact(this.words, at)) break;
      const cue = this.cueLength(at);
      if (cue === 0) break;
      if (cueBetween < 0) cueBetween = at;
      at += cue;
    }
    const resolution = this.compiled.labels.resolve(this.words, at);
    const stemText = this.spoken(start, match.end);

    if (cueBetween >= 0) {
      const negatedLabel = resolution ?? this.labelWithinClause(at, NEGATION_LOOKAHEAD_WORDS);
      if (!negatedLabel) return null;
      const cue = this.spoken(cueBetween, cueBetween + this.cueLength(cueBetween));
      return this.diagnostic('negated', start, negatedLabel.end, stem, `"${cue}" between "${stemText}" and the label negates it: nothing committed`);
    }
    if (!resolution) return this.cueBefore[start]! >= 0 ? null : this.unknownLabel(start, at, stem, stemText);

    const labelText = this.spoken(at, resolution.end);
    if (resolution.kind === 'tie') {
      const names = resolution.labels.map((l) => this.compiled.labelNames[l]!).join('", "');
      return this.diagnostic('ambiguous', start, resolution.end, stem, `"${labelText}" could be any of "${names}": nothing committed`);
    }
    const label = this.compiled.labelNames[resolution.label]!;
    const cueStart = this.cueBefore[start]!;
    if (cueStart >= 0) {
      const cue = this.spoken(cueStart, cueStart + this.cueLength(cueStart));
      return this.diagnostic('negated', cueStart, resolution.end, stem, `"${cue}" earlier in the sentence negates "${this.spoken(start, resolution.end)}": nothing committed`);
    }
    const ambiguity = this.ambiguityAfter(resolution.end, resolution.label);
    if (ambiguity) {
      return this.diagnostic('ambiguous', start, ambiguity.end, stem, `"${this.spoken(at, ambiguity.end)}" names ${ambiguity.what}: nothing committed`);
    }
    if (this.askedAsQuestion(start, resolution.end)) {
      return this.diagnostic('ambiguous', start, resolution.end, stem, `"${this.spoken(start, resolution.end)}" is asked as a question: nothing committed`);
    }
    const commitment: Commitment = { label, ...this.quote(start, resolution.end), stem: stem.pattern, language: stem.language };
    return { kind: 'commitment', commitment, resumeAt: resolution.end };
  }

  /** A label among the words from `from` to `from + lookahead`, not crossing a clause end (also not one just before `from`). */
  private labelWithinClause(from: number, lookahead: number): LabelResolution | null {
    for (let at = from; at < this.words.length && at <= from + lookahead; at++) {
      if (this.gaps[at]! & GAP_CLAUSE_END) return null;
      const resolution = this.compiled.labels.resolve(this.words, at);
      if (resolution) return resolution;
    }
    return null;
  }

  /** A second, different label after or/and ("polite or neutral"), or "<label> or not". */
  private ambiguityAfter(labelEnd: number, label: number): { end: number; what: string } | null {
    const conjunction = this.skipFillers(labelEnd);
    const word = this.words[conjunction];
    if (word === undefined || !CONJUNCTIONS.has(word)) return null;
    const next = conjunction + 1;
    if (ALTERNATIVE_CONJUNCTIONS.has(word) && this.cueLength(next) > 0 && !(this.gaps[next]! & GAP_CLAUSE_END)) {
      return { end: next + this.cueLength(next), what: 'a label or its negation' };
    }
    let at = next;
    for (let skipped = 0; skipped <= AMBIGUITY_LOOKAHEAD_WORDS; skipped++) {
      at = this.skipFillers(at);
      if (at >= this.words.length || this.gaps[at]! & GAP_CLAUSE_END) return null;
      const other = this.compiled.labels.resolve(this.words, at);
      if (other?.kind === 'tie') return { end: other.end, what: 'more than one label' };
      if (other) return other.label === label ? null : { end: other.end, what: 'two different labels' };
      at++;
    }
    return null;
  }

  /** A `?` between the stem and the label, or right after the label (fillers aside). */
  private askedAsQuestion(stemStart: number, labelEnd: number): boolean {
    for (let at = stemStart + 1; at < labelEnd; at++) if (this.gaps[at]! & GAP_QUESTION) return true;
    const afterFillers = this.skipFillers(labelEnd);
    for (let at = labelEnd; at <= afterFillers; at++) if (this.gaps[at]! & GAP_QUESTION) return true;
    return false;
  }

  /** An unknown_label diagnostic when one or two content words and then a pause follow the stem. */
  private unknownLabel(start: number, at: number, stem: StemRef, stemText: string): Outcome | null {
    for (const wordCount of [1, 2]) {
      const end = at + wordCount;
      if (end > this.words.length) return null;
      const word = this.words[end - 1]!;
      if (NOT_A_LABEL_ATTEMPT.has(word) || CONJUNCTIONS.has(word) || this.cueLength(end - 1) > 0 || !/\p{L}/u.test(word)) return null;
      // "I label this reply polite": a label after a stray word is not an unknown label
      if (end - 1 > at && this.compiled.labels.resolve(this.words, end - 1)) return null;
      if (end - 1 > at && this.gaps[end - 1]! & GAP_PUNCTUATION) return null;
      const pauseAfter = end === this.words.length || this.gaps[end]! & GAP_PUNCTUATION || this.fillerEnd(end) > end;
      if (!pauseAfter) continue;
      const spokenLabel = this.spoken(at, end);
      const known = this.compiled.labelNames.join(', ');
      return this.diagnostic('unknown_label', start, end, stem, `"${spokenLabel}" after "${stemText}" is not a label (labels: ${known}): nothing committed`);
    }
    return null;
  }
}

/** Compile the options once (stems, labels, fillers) and get a parser for any number of transcripts. */
export function createCommitParser(options: ParseOptions): (transcript: string) => ParseResult {
  const compiled = compileOptions(options);
  return (transcript: string) => new TranscriptParse(transcript, compiled, matchWords(transcript)).run();
}

/** Every commitment in a whole item transcript, in order, with the final label and the non-commits. */
export function parseCommitments(transcript: string, options: ParseOptions): ParseResult {
  return createCommitParser(options)(transcript);
}
