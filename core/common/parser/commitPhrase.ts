/**
 * The deterministic commit-phrase parser: finds where an annotator committed a label out loud ("I label this
 * polite") in the verbatim transcript of one item, and reports mentions that did not commit (negated, ambiguous,
 * unknown label). A false commit is far worse than a miss, so every rule errs towards committing nothing. The
 * grammar — what may stand before and after a commit phrase for it to commit — is commitGrammar.ts; the phrases are
 * defaultStems.ts (or aloud.yaml `thinkaloud.stems`); a label is named only by its documented spoken forms
 * (spokenForms.ts), never by closeness of spelling.
 *
 * Decisions beyond the grammar, each tested:
 * - Exact matching takes the longest spoken form; at equal length a name beats a synonym, a synonym a derived form.
 * - Labels are checked before fillers and negation cues, so a label "Not toxic" or "Maybe" still counts.
 * - "<label> or not" is `ambiguous`. Ambiguity looks past up to two other words after or/and/oder/und
 *   ("polite or rather rude"), within one clause.
 * - `unknown_label` only when the stem, in a context that would commit, is followed (fillers aside) by one or two
 *   content words and then punctuation, a filler or the end ("My answer is purple."); "I'll say that again" reports
 *   nothing.
 * - A phrase that does not commit for its context (another subject, a condition, a repair taken back …) is reported
 *   as `ambiguous` with the reason; a label that does not close its phrase ("I say polite things") is no mention.
 */
import type { Commitment, ParseDiagnostic, ParseOptions, ParseResult } from './parseTypes';
import { DEFAULT_FILLERS } from '../signals/hesitationLists';
import {
  CLAUSE_OPENERS,
  CLOSERS,
  CONDITIONAL_EDITING_WORDS,
  CONDITIONALS,
  CONTRASTS,
  EDITING_TERMS,
  FRAMES,
  FILLED_PAUSES,
  LEAD_INS,
  MAX_SENTENCE_CONTEXT_WORDS,
  MUSINGS,
  NOT_CONDITIONAL,
  QUESTION_TAGS,
  REPAIR_ADVERBS,
  REPORTED_AFTER_WORDS,
  REPORTING_VERBS,
  RETRACTIONS,
  SELF_STEM_STARTS,
  STEM_PARTICLES,
  TENTATIVE_LEAD_INS,
  TENTATIVE_STEM_WORDS,
} from './commitGrammar';
import { DEFAULT_STEMS } from './defaultStems';
import { LabelMatcher, type LabelResolution } from './labelMatch';
import { GAP_CLAUSE_END, GAP_PUNCTUATION, GAP_QUESTION, matchWords, type MatchWords } from './matchText';
import { compileStemPattern, type CompiledStem } from './stemPattern';
import { SINGLE_WORD_CUES } from './negationCues';
import { WordTrie } from './wordTrie';
import { ENGLISH_DETERMINERS, GERMAN_ARTICLES } from '../text/wordClasses';

const CONJUNCTIONS = new Set(['or', 'and', 'oder', 'und']);
const ALTERNATIVE_CONJUNCTIONS = new Set(['or', 'oder']);
/** words after or/and that may stand before a second label and still make the mention ambiguous */
const AMBIGUITY_LOOKAHEAD_WORDS = 2;
/** words after a negation cue within which a label is still reported as negated ("not very polite") */
const NEGATION_LOOKAHEAD_WORDS = 3;
/** Punctuation that ends a clause inside a sentence (a comma, colon or dash), unless a filler stands beside it. */
const CLAUSE_PUNCTUATION = /[,:\u2013\u2014]|(^|\s)-(\s|$)/u;
/** Quote marks and spaces: between two words they alone are no pause. */
const QUOTES_AND_SPACES = /[\s"'\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb]/gu;
/** First-person subjects: a saying verb after them is the annotator's own hedge ("polite, I think"). */
const FIRST_PERSON = new Set(['i', 'ich']);

/** Everyday words that continue a sentence rather than attempt a label: "I'll say that again". */
const NOT_A_LABEL_ATTEMPT = new Set([
  ...ENGLISH_DETERMINERS,
  'it',
  'its',
  "it's",
  "that's",
  'one',
  'ones',
  'some',
  'something',
  'anything',
  'nothing',
  'everything',
  'someone',
  'them',
  'they',
  'he',
  'she',
  'him',
  'her',
  'you',
  'we',
  'i',
  'me',
  'my',
  'mine',
  'your',
  'our',
  'their',
  'his',
  'again',
  'so',
  'too',
  'then',
  'now',
  'here',
  'there',
  'later',
  'soon',
  'what',
  'which',
  'who',
  'how',
  'why',
  'when',
  'where',
  'whether',
  'if',
  'but',
  'because',
  'since',
  'as',
  'to',
  'for',
  'with',
  'of',
  'on',
  'in',
  'at',
  'by',
  'from',
  'up',
  'down',
  'out',
  'off',
  'about',
  'over',
  'into',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'am',
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'will',
  'would',
  'can',
  'could',
  'should',
  'might',
  'must',
  'shall',
  'may',
  'just',
  'really',
  'very',
  'quite',
  'also',
  'both',
  'either',
  'neither',
  'all',
  'any',
  'each',
  'other',
  'another',
  'more',
  'most',
  'less',
  'first',
  'second',
  'next',
  'last',
  'same',
  'different',
  'between',
  'instead',
  'rather',
  'though',
  'well',
  'okay',
  'ok',
  'yeah',
  'right',
  'sure',
  'honestly',
  'actually',
  'anyway',
  'probably',
  'definitely',
  "i'm",
  "i'll",
  "i'd",
  "you're",
  "we're",
  "there's",
  "what's",
  "let's",
  'let',
  'go',
  'see',
  'think',
  'know',
  'whatever',
  'no',
  'wait',
  'sorry',
  ...GERMAN_ARTICLES,
  'dies',
  'diese',
  'dieser',
  'dieses',
  'es',
  'mal',
  'dann',
  'jetzt',
  'auch',
  'noch',
  'etwas',
  'nichts',
  'alles',
  'ich',
  'du',
  'wir',
  'sie',
  'er',
  'ihr',
  'mir',
  'mich',
  'aber',
  'weil',
  'dass',
  'wie',
  'was',
  'wer',
  'hier',
  'da',
  'doch',
  'ja',
  'eben',
  'halt',
  'nochmal',
  'später',
  'lieber',
  'als',
  'an',
  'zu',
  'auf',
  'mit',
  'ab',
  'vor',
  'aus',
  'ein',
  'eher',
  'nein',
  'so',
  'schon',
  'dir',
  'ihm',
  'ihnen',
  'uns',
  'euch',
  'dich',
]);

/** How a stem's context is judged (commitGrammar.ts, rule 1). */
type StemKind = 'self' | 'bare' | 'inverted';

interface StemRef {
  pattern: string;
  language: string;
  kind: StemKind;
  /** conditional or past: a contrast after the label takes it back */
  tentative: boolean;
  /** words that must follow the label (`{label}` in the pattern), or null */
  tail: WordTrie<true> | null;
}

interface CompiledOptions {
  labelNames: string[];
  labels: LabelMatcher;
  stems: WordTrie<StemRef>;
  fillers: WordTrie<true>;
}

/** Compiled patterns per pattern string (a pure function of it), so parseCommitments need not expand them each call. */
const compiledCache = new Map<string, CompiledStem>();
const COMPILED_CACHE_LIMIT = 256;

function compiledStemOf(pattern: string): CompiledStem {
  let compiled = compiledCache.get(pattern);
  if (!compiled) {
    compiled = compileStemPattern(pattern);
    if (compiledCache.size >= COMPILED_CACHE_LIMIT) compiledCache.clear();
    compiledCache.set(pattern, compiled);
  }
  return compiled;
}

/** What kind of phrase a phrasing is, from its words: who speaks (its first word), and whether it is tentative. */
function stemRefOf(pattern: string, language: string, phrasing: readonly string[], tail: WordTrie<true> | null): StemRef {
  const [first, second] = phrasing;
  const kind: StemKind = SELF_STEM_STARTS.has(first!) ? 'self' : second === 'ich' ? 'inverted' : 'bare';
  return { pattern, language, kind, tentative: phrasing.some((w) => TENTATIVE_STEM_WORDS.has(w)), tail };
}

function compileOptions(options: ParseOptions): CompiledOptions {
  const stems = new WordTrie<StemRef>();
  for (const language of options.languages) {
    const patterns = options.stems?.[language] ?? DEFAULT_STEMS[language] ?? [];
    patterns.forEach((pattern, index) => {
      let compiled;
      try {
        compiled = compiledStemOf(pattern);
      } catch (e) {
        throw new Error(`stems.${language}[${index}]: ${(e as Error).message}`);
      }
      let tail: WordTrie<true> | null = null;
      if (compiled.tail) {
        tail = new WordTrie<true>();
        for (const words of compiled.tail) tail.insert(words, true);
      }
      // the first pattern listed wins a phrasing two patterns share
      for (const phrasing of compiled.phrasings) stems.insert(phrasing, stemRefOf(pattern, language, phrasing, tail));
    });
  }
  return {
    labelNames: options.labels.map((l) => l.name),
    labels: new LabelMatcher(options.labels, options.languages, { derivedForms: true }),
    stems,
    fillers: new WordTrie<true>().insertTexts([...(options.fillers ?? DEFAULT_FILLERS), ...FILLED_PAUSES], true),
  };
}

/** One stem phrasing found in the transcript: words [start, end). */
interface StemMatch {
  end: number;
  stem: StemRef;
}

type Outcome =
  { kind: 'commitment'; commitment: Commitment; resumeAt: number } | { kind: 'diagnostic'; diagnostic: ParseDiagnostic; resumeAt: number };

/** What stands before a stem: fine (maybe making it tentative), a negation, or something that is not the annotator now. */
type StemContext = { kind: 'ok'; tentative: boolean } | { kind: 'negated'; cue: number } | { kind: 'blocked'; from: number; why: string };

/** What follows a committed label: nothing to change it, a repair, or a taking back. */
type AfterLabel =
  { kind: 'none' } | { kind: 'repair'; label: number; end: number } | { kind: 'taken_back'; end: number; resumeAt: number; why: string };

/** The parse of one transcript with compiled options. */
class TranscriptParse {
  private readonly words: string[];
  private readonly starts: number[];
  private readonly ends: number[];
  private readonly gaps: number[];
  /** for each word: the first word of its sentence */
  private readonly sentenceStart: Int32Array;
  /** for each word: the first word after its sentence (words.length for the last) */
  private readonly sentenceEnd: Int32Array;

  constructor(
    private readonly transcript: string,
    private readonly compiled: CompiledOptions,
    matched: MatchWords,
  ) {
    this.words = matched.words;
    this.starts = matched.starts;
    this.ends = matched.ends;
    this.gaps = matched.gaps;
    const count = this.words.length;
    this.sentenceStart = new Int32Array(count);
    this.sentenceEnd = new Int32Array(count);
    for (let p = 0; p < count; p++) this.sentenceStart[p] = p > 0 && !(this.gaps[p]! & GAP_CLAUSE_END) ? this.sentenceStart[p - 1]! : p;
    for (let p = count - 1; p >= 0; p--)
      this.sentenceEnd[p] = p + 1 < count && !(this.gaps[p + 1]! & GAP_CLAUSE_END) ? this.sentenceEnd[p + 1]! : p + 1;
  }

  run(): ParseResult {
    const commitments: Commitment[] = [];
    const diagnostics: ParseDiagnostic[] = [];
    const count = this.words.length;
    let i = 0;
    while (i < count) {
      if (!this.compiled.stems.startsWith(this.words[i]!)) {
        i++;
        continue;
      }
      let resumeAt = i + 1;
      // longest stem first; a shorter one gets its turn only when the longer decides nothing
      for (const { end, value } of this.compiled.stems.all(this.words, i)) {
        const outcome = this.evaluate(i, { end, stem: value });
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

  /** Number of words of the negation cue starting at `at` ("not", "don't", "no longer", "nicht"), or 0. */
  private cueLength(at: number): number {
    const word = this.words[at];
    if (word === undefined) return 0;
    if (SINGLE_WORD_CUES.has(word) || word.endsWith("n't")) return 1;
    if (word === 'no' && this.words[at + 1] === 'longer') return 2;
    return 0;
  }

  /** The first negation cue in words [from, to), not counting one inside a label ("Not toxic"), or -1. */
  private cueIn(from: number, to: number): number {
    for (let p = from; p < to;) {
      const label = this.compiled.labels.exact(this.words, p);
      if (label) {
        p = label.end;
        continue;
      }
      if (this.cueLength(p) > 0) return p;
      p++;
    }
    return -1;
  }

  private isFiller(at: number): boolean {
    return at >= 0 && this.fillerEnd(at) > at;
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
    return this.compiled.fillers.longest(this.words, start)?.end ?? start;
  }

  /** Whether a clause ends between words[at - 1] and words[at]: a sentence end, or a comma, colon or dash with no filler beside it. */
  private clauseBreakBefore(at: number): boolean {
    if (at <= 0 || at >= this.words.length) return true;
    if (this.gaps[at]! & GAP_CLAUSE_END) return true;
    if (!(this.gaps[at]! & GAP_PUNCTUATION)) return false;
    // "I would not, uh, label this": whisper's commas around a filler do not end the clause
    if (this.isFiller(at) || this.isFillerEndingAt(at)) return false;
    return CLAUSE_PUNCTUATION.test(this.transcript.slice(this.ends[at - 1]!, this.starts[at]!));
  }

  /** Punctuation other than quote marks between words[at - 1] and words[at]: '"I label this polite" is what …' goes on. */
  private pauseBefore(at: number): boolean {
    if (!(this.gaps[at]! & GAP_PUNCTUATION)) return false;
    const between =
      at < this.words.length ? this.transcript.slice(this.ends[at - 1]!, this.starts[at]!) : this.transcript.slice(this.ends[at - 1]!);
    return between.replace(QUOTES_AND_SPACES, '') !== '';
  }

  /** Whether a filler ends just before words[at]. */
  private isFillerEndingAt(at: number): boolean {
    for (let from = Math.max(0, at - 3); from < at; from++) if (this.fillerEnd(from) === at) return true;
    return false;
  }

  /** The first word of the clause that holds words[at] (rule 1 of the grammar). */
  private clauseStart(at: number): number {
    const sentence = this.sentenceStart[at]!;
    for (let p = at; p > sentence; p--) {
      if (this.clauseBreakBefore(p) || CLAUSE_OPENERS.has(this.words[p - 1]!)) return p;
    }
    return sentence;
  }

  private quote(fromWord: number, toWordExclusive: number): { quote: string; start: number; end: number } {
    const start = this.starts[fromWord]!;
    const end = this.ends[toWordExclusive - 1]!;
    return { quote: this.transcript.slice(start, end), start, end };
  }

  private spoken(fromWord: number, toWordExclusive: number): string {
    return this.quote(fromWord, toWordExclusive).quote;
  }

  private diagnostic(kind: ParseDiagnostic['kind'], from: number, to: number, stem: StemRef, message: string, resumeAt = to): Outcome {
    return { kind: 'diagnostic', diagnostic: { kind, ...this.quote(from, to), stem: stem.pattern, message }, resumeAt };
  }

  /**
   * Whether words [from, to) are all lead-ins and fillers (rule 1): the index of the first that is not, or -1; and
   * whether a lead-in made the stem tentative ("I'd just").
   */
  private leadIns(from: number, to: number, stemFirstWord: string): { bad: number; tentative: boolean; leadIns: number } {
    let tentative = false;
    let leadIns = 0;
    const within = (j: number): boolean => j < to;
    for (let p = from; p < to;) {
      const word = this.words[p]!;
      if (MUSINGS.has(word)) return { bad: p, tentative, leadIns };
      const filler = this.fillerEnd(p);
      if (filler > p && filler <= to) {
        p = filler;
        continue;
      }
      const leadIn = LEAD_INS.longest(this.words, p, within);
      if (leadIn) {
        if (TENTATIVE_LEAD_INS.longest(this.words, p, within)?.end === leadIn.end) tentative = true;
        leadIns++;
        p = leadIn.end;
        continue;
      }
      // a stutter on the stem's first word: "I, I label this"
      if (word === stemFirstWord && p === to - 1) {
        p++;
        continue;
      }
      return { bad: p, tentative, leadIns };
    }
    return { bad: -1, tentative, leadIns };
  }

  /** What stands before the stem at words[start]: rules 1, 3 and 6 of the grammar. */
  private context(start: number, stem: StemRef): StemContext {
    const sentence = this.sentenceStart[start]!;
    if (start - sentence > MAX_SENTENCE_CONTEXT_WORDS)
      return {
        kind: 'blocked',
        from: start,
        why: `more than ${MAX_SENTENCE_CONTEXT_WORDS} words of its sentence stand before it: too long to judge`,
      };
    const from = stem.kind === 'bare' ? sentence : this.clauseStart(start);
    const cue = this.cueIn(from, start);
    if (cue >= 0) return { kind: 'negated', cue };
    const first = this.words[start]!;
    const own = this.leadIns(from, start, first);
    if (own.bad >= 0)
      return {
        kind: 'blocked',
        from: own.bad,
        why: 'the words before it are not the annotator committing now (another subject, a past or abandoned intention, a musing or a question)',
      };
    if (stem.kind === 'inverted' && own.leadIns === 0 && this.leadIns(sentence, start, first).leadIns === 0) {
      return { kind: 'blocked', from: start, why: 'without a word before it, the verb first asks a question' };
    }
    // "she said, I label this polite", "imagine, I label this polite": the clause before frames it (not a hedge of one's own)
    if (from > sentence) {
      const before = this.clauseStart(from - 1);
      const framed = REPORTING_VERBS.has(this.words[from - 1]!) || this.firstOf(FRAMES, before, from) >= 0;
      if (framed && this.leadIns(before, from, '').bad >= 0)
        return { kind: 'blocked', from: before, why: 'the clause before reports it or imagines it' };
    }
    return { kind: 'ok', tentative: own.tentative };
  }

  /** Whether the label ending before words[labelEnd] closes its phrase (rule 2). */
  private closesPhrase(labelEnd: number): boolean {
    const at = this.skipFillers(labelEnd);
    if (at >= this.words.length) return true;
    for (let p = labelEnd; p <= at; p++) if (this.pauseBefore(p)) return true;
    if (CLOSERS.longest(this.words, at) || EDITING_TERMS.longest(this.words, at) || CONDITIONAL_EDITING_WORDS.has(this.words[at]!))
      return true;
    return this.compiled.labels.exact(this.words, at) !== null;
  }

  /** A conditional word anywhere in words [from, to), concessive uses aside (rule 4), or -1. */
  private conditionalIn(from: number, to: number): number {
    for (let p = from; p < to;) {
      const idiom = NOT_CONDITIONAL.longest(this.words, p);
      if (idiom) {
        p = idiom.end;
        continue;
      }
      if (CONDITIONALS.longest(this.words, p)) return p;
      p++;
    }
    return -1;
  }

  private firstOf(set: WordTrie<true>, from: number, to: number): number {
    for (let p = from; p < to; p++) if (set.longest(this.words, p, (j) => j < to)) return p;
    return -1;
  }

  /** A saying verb just after the label whose subject is not the annotator ("polite, she said"), or -1 (rule 6). */
  private reportedAfter(labelEnd: number, sentenceEnd: number): number {
    if (QUESTION_TAGS.longest(this.words, this.skipFillers(labelEnd), (j) => j < sentenceEnd)?.end === sentenceEnd) return -1;
    for (let p = labelEnd; p < Math.min(sentenceEnd, labelEnd + REPORTED_AFTER_WORDS); p++) {
      if (!REPORTING_VERBS.has(this.words[p]!)) continue;
      const subjectBefore = p > labelEnd ? this.words[p - 1]! : '';
      const subjectAfter = this.words[p + 1] ?? '';
      if (!FIRST_PERSON.has(subjectBefore) && !FIRST_PERSON.has(subjectAfter) && !subjectBefore.startsWith("i'")) return p;
    }
    return -1;
  }

  /** An editing term at words[at] (rule 7): its end, or -1. "no" and the like count only before a label or a pause. */
  private editingTermEnd(at: number): number {
    const term = EDITING_TERMS.longest(this.words, at);
    if (term) return term.end;
    const word = this.words[at];
    if (word === undefined || !CONDITIONAL_EDITING_WORDS.has(word)) return -1;
    const next = at + 1;
    const weak = word === 'actually' || word === 'rather' || word === 'eher' || word === 'eigentlich';
    if (this.compiled.labels.exact(this.words, this.skipFillers(next)) || this.words[next] === 'no' || this.words[next] === 'nein')
      return next;
    if (weak) return -1;
    if (next >= this.words.length || this.gaps[next]! & GAP_PUNCTUATION || this.isFiller(next) || EDITING_TERMS.longest(this.words, next))
      return next;
    return -1;
  }

  /** What follows a label that would commit: a repair, a taking back, or nothing (rule 7). */
  private afterLabel(labelEnd: number, label: number): AfterLabel {
    const at = this.skipFillers(labelEnd);
    if (at >= this.words.length) return { kind: 'none' };
    const filledPause = at > labelEnd;
    let sentenceEnds = 0;
    for (let p = labelEnd; p <= at; p++) if (this.gaps[p]! & GAP_CLAUSE_END) sentenceEnds++;
    if (sentenceEnds > 1) return { kind: 'none' };
    // a retraction ("on second thought") or an editing term ("no wait"), and the run of them that follows
    let editEnd = RETRACTIONS.longest(this.words, at)?.end ?? this.editingTermEnd(at);
    if (editEnd >= 0) {
      let next = this.skipFillers(editEnd);
      for (
        let more = this.editingTermEnd(next);
        more >= 0 && !this.compiled.labels.exact(this.words, next);
        more = this.editingTermEnd(next)
      ) {
        editEnd = more;
        next = this.skipFillers(more);
      }
      const edit = this.spoken(at, editEnd);
      // "no, definitely rude"
      next = REPAIR_ADVERBS.longest(this.words, next)?.end ?? next;
      const repaired = this.compiled.labels.exact(this.words, next);
      if (repaired?.kind === 'label' && this.closesPhrase(repaired.end) && !this.questionAfter(repaired.end)) {
        return { kind: 'repair', label: repaired.label, end: repaired.end };
      }
      // "My answer is impolite. Actually no. Final answer: neutral.": a new sentence with a phrase of its own is a change of label
      if (sentenceEnds === 1 && this.compiled.stems.all(this.words, next).length > 0) return { kind: 'none' };
      return {
        kind: 'taken_back',
        end: editEnd,
        resumeAt: next,
        why: repaired ? `"${edit}" repairs it with no single label after` : `"${edit}" takes it back with no label after`,
      };
    }
    const other = this.compiled.labels.exact(this.words, at);
    if (!other || (other.kind === 'label' && other.label === label) || !this.closesPhrase(other.end)) return { kind: 'none' };
    if (other.kind === 'label' && filledPause && !this.questionAfter(other.end))
      return { kind: 'repair', label: other.label, end: other.end };
    return {
      kind: 'taken_back',
      end: other.end,
      resumeAt: other.end,
      why: `"${this.spoken(at, other.end)}" follows it at once: two labels`,
    };
  }

  private questionAfter(labelEnd: number): boolean {
    const afterFillers = this.skipFillers(labelEnd);
    for (let at = labelEnd; at <= afterFillers; at++) if (this.gaps[at]! & GAP_QUESTION) return true;
    return false;
  }

  /** What the stem at words [start, match.end) decides, or null when it decides nothing. */
  private evaluate(start: number, match: StemMatch): Outcome | null {
    const { stem } = match;
    // fillers and negation cues may stand between the stem and the label; a musing word makes it no decision yet
    let at = match.end;
    let cueBetween = -1;
    let musing = -1;
    for (;;) {
      if (at >= this.words.length || this.compiled.labels.exact(this.words, at)) break;
      if (MUSINGS.has(this.words[at]!)) {
        if (musing < 0) musing = at;
        at++;
        continue;
      }
      const filler = Math.max(this.fillerEnd(at), STEM_PARTICLES.longest(this.words, at)?.end ?? at);
      if (filler > at) {
        at = filler;
        continue;
      }
      const cue = this.cueLength(at);
      if (cue === 0) break;
      if (cueBetween < 0) cueBetween = at;
      at += cue;
    }
    const resolution = this.compiled.labels.exact(this.words, at);
    const stemText = this.spoken(start, match.end);

    if (cueBetween >= 0) {
      const negatedLabel = resolution ?? this.labelWithinClause(at, NEGATION_LOOKAHEAD_WORDS);
      if (!negatedLabel) return null;
      const cue = this.spoken(cueBetween, cueBetween + this.cueLength(cueBetween));
      return this.diagnostic(
        'negated',
        start,
        negatedLabel.end,
        stem,
        `"${cue}" between "${stemText}" and the label negates it: nothing committed`,
      );
    }
    const context = this.context(start, stem);
    if (!resolution) return context.kind === 'ok' && musing < 0 ? this.unknownLabel(start, at, stem, stemText) : null;

    const labelEnd = resolution.end;
    const labelText = this.spoken(at, labelEnd);
    if (resolution.kind === 'tie') {
      const names = resolution.labels.map((l) => this.compiled.labelNames[l]!).join('", "');
      return this.diagnostic('ambiguous', start, labelEnd, stem, `"${labelText}" could be any of "${names}": nothing committed`);
    }
    // "ich würde höflich sagen": the words the pattern has after the label
    let phraseEnd = labelEnd;
    if (stem.tail) {
      const tail = stem.tail.longest(this.words, this.skipFillers(labelEnd));
      if (!tail) return null;
      phraseEnd = tail.end;
    }
    // "I say polite things": the label word is part of something else, not a label given
    if (!this.closesPhrase(phraseEnd)) return null;
    const said = this.spoken(start, phraseEnd);
    if (context.kind === 'negated') {
      const cue = this.spoken(context.cue, context.cue + this.cueLength(context.cue));
      return this.diagnostic(
        'negated',
        context.cue,
        phraseEnd,
        stem,
        `"${cue}" earlier in the clause negates "${said}": nothing committed`,
      );
    }
    if (musing >= 0)
      return this.diagnostic(
        'ambiguous',
        start,
        phraseEnd,
        stem,
        `"${this.words[musing]}" in "${said}" is not a decision yet: nothing committed`,
      );
    if (context.kind === 'blocked') {
      const from = Math.min(context.from, start);
      return this.diagnostic('ambiguous', from, phraseEnd, stem, `"${this.spoken(from, phraseEnd)}": ${context.why}: nothing committed`);
    }
    const ambiguity = this.ambiguityAfter(labelEnd, resolution.label);
    if (ambiguity)
      return this.diagnostic(
        'ambiguous',
        start,
        ambiguity.end,
        stem,
        `"${this.spoken(at, ambiguity.end)}" names ${ambiguity.what}: nothing committed`,
      );
    if (this.askedAsQuestion(start, phraseEnd))
      return this.diagnostic('ambiguous', start, phraseEnd, stem, `"${said}" is asked as a question: nothing committed`);

    // a repair commits the repair (and what follows it may repair it again), never the reparandum
    let committed = resolution.label;
    let end = phraseEnd;
    for (let after = this.afterLabel(end, committed); after.kind !== 'none'; after = this.afterLabel(end, committed)) {
      if (after.kind === 'taken_back') {
        return this.diagnostic('ambiguous', start, after.end, stem, `${after.why}: nothing committed`, after.resumeAt);
      }
      committed = after.label;
      end = after.end;
    }
    const sentenceEnd = this.sentenceEnd[end - 1]!;
    if (sentenceEnd - end > MAX_SENTENCE_CONTEXT_WORDS)
      return this.diagnostic(
        'ambiguous',
        start,
        end,
        stem,
        `more than ${MAX_SENTENCE_CONTEXT_WORDS} words of its sentence follow "${said}": too long to judge: nothing committed`,
      );
    const condition = this.conditionalIn(this.sentenceStart[start]!, sentenceEnd);
    if (condition >= 0)
      return this.diagnostic(
        'ambiguous',
        start,
        end,
        stem,
        `"${this.words[condition]}" in the same sentence makes "${said}" conditional: nothing committed`,
      );
    const reported = this.reportedAfter(end, sentenceEnd);
    if (reported >= 0)
      return this.diagnostic(
        'ambiguous',
        start,
        reported + 1,
        stem,
        `"${this.spoken(start, reported + 1)}" reports someone else's words: nothing committed`,
      );
    if (stem.tentative || context.tentative) {
      const contrast = this.firstOf(CONTRASTS, end, sentenceEnd);
      if (contrast >= 0)
        return this.diagnostic(
          'ambiguous',
          start,
          contrast + 1,
          stem,
          `"${said}" is only tentative, and "${this.words[contrast]}" follows it: nothing committed`,
        );
    }
    const retraction = this.firstOf(RETRACTIONS, end, sentenceEnd);
    if (retraction >= 0)
      return this.diagnostic(
        'ambiguous',
        start,
        end,
        stem,
        `"${this.words[retraction]}…" later in the sentence takes "${said}" back: nothing committed`,
      );
    const commitment: Commitment = {
      label: this.compiled.labelNames[committed]!,
      ...this.quote(start, end),
      stem: stem.pattern,
      language: stem.language,
    };
    return { kind: 'commitment', commitment, resumeAt: end };
  }

  /** A label among the words from `from` to `from + lookahead`, not crossing a clause end (also not one just before `from`). */
  private labelWithinClause(from: number, lookahead: number): LabelResolution | null {
    for (let at = from; at < this.words.length && at <= from + lookahead; at++) {
      if (this.gaps[at]! & GAP_CLAUSE_END) return null;
      const resolution = this.compiled.labels.exact(this.words, at);
      if (resolution) return resolution;
    }
    return null;
  }

  /** A second, different label after or/and ("polite or neutral"), or "<label> or not". */
  private ambiguityAfter(labelEnd: number, label: number): { end: number; what: string } | null {
    const conjunction = this.skipFillers(labelEnd);
    const word = this.words[conjunction];
    if (word === undefined || !CONJUNCTIONS.has(word)) return null;
    for (let p = labelEnd; p <= conjunction; p++) if (this.gaps[p]! & GAP_CLAUSE_END) return null;
    const next = conjunction + 1;
    if (ALTERNATIVE_CONJUNCTIONS.has(word) && this.cueLength(next) > 0 && !(this.gaps[next]! & GAP_CLAUSE_END)) {
      return { end: next + this.cueLength(next), what: 'a label or its negation' };
    }
    let at = next;
    for (let skipped = 0; skipped <= AMBIGUITY_LOOKAHEAD_WORDS; skipped++) {
      at = this.skipFillers(at);
      if (at >= this.words.length || this.gaps[at]! & GAP_CLAUSE_END) return null;
      const other = this.compiled.labels.exact(this.words, at);
      if (other?.kind === 'tie') return { end: other.end, what: 'more than one label' };
      if (other) return other.label === label ? null : { end: other.end, what: 'two different labels' };
      at++;
    }
    return null;
  }

  /** A `?` between the stem and the label, right after the label, or ending its sentence after more than a tag. */
  private askedAsQuestion(stemStart: number, labelEnd: number): boolean {
    for (let at = stemStart + 1; at < labelEnd; at++) if (this.gaps[at]! & GAP_QUESTION) return true;
    if (this.questionAfter(labelEnd)) return true;
    const sentenceEnd = this.sentenceEnd[labelEnd - 1]!;
    if (!(this.gaps[sentenceEnd]! & GAP_QUESTION)) return false;
    const tag = QUESTION_TAGS.longest(this.words, this.skipFillers(labelEnd), (j) => j < sentenceEnd);
    return tag?.end !== sentenceEnd;
  }

  /** An unknown_label diagnostic when one or two content words and then a pause follow the stem. */
  private unknownLabel(start: number, at: number, stem: StemRef, stemText: string): Outcome | null {
    for (const wordCount of [1, 2]) {
      const end = at + wordCount;
      if (end > this.words.length) return null;
      const word = this.words[end - 1]!;
      if (NOT_A_LABEL_ATTEMPT.has(word) || CONJUNCTIONS.has(word) || this.cueLength(end - 1) > 0 || !/\p{L}/u.test(word)) return null;
      // "I label this reply polite": a label after a stray word is not an unknown label
      if (end - 1 > at && this.compiled.labels.exact(this.words, end - 1)) return null;
      if (end - 1 > at && this.gaps[end - 1]! & GAP_PUNCTUATION) return null;
      const pauseAfter = end === this.words.length || this.gaps[end]! & GAP_PUNCTUATION || this.fillerEnd(end) > end;
      if (!pauseAfter) continue;
      const spokenLabel = this.spoken(at, end);
      const known = this.compiled.labelNames.join(', ');
      return this.diagnostic(
        'unknown_label',
        start,
        end,
        stem,
        `"${spokenLabel}" after "${stemText}" is not a label (labels: ${known}): nothing committed`,
      );
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
