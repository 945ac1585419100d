import { hesitationSignals, type HesitationSettings } from './hesitation';
import { timeAtOffset, type SegmentSpan } from '../transcript/joinSegments';
import type { TranscriptSignals } from './signalTypes';
import { offsetsInOriginal, TERM_GAP, WORD_PATTERN } from './wordTokens';
import { caselessKey } from '../text/textFold';

/** Segment spans of the transcript (as `joinSegments` returns them), giving commitments a time. */
export interface TranscriptTiming {
  spans: readonly SegmentSpan[];
}

interface WordToken {
  word: string;
  start: number;
  end: number;
}

/** Case- and compatibility-folded text: NFKC (full-width, ligatures), lower case, one apostrophe character. */
function foldText(text: string): string {
  return caselessKey(text).replace(/\u2019/gu, "'");
}

function tokenize(folded: string): WordToken[] {
  const tokens: WordToken[] = [];
  for (const m of folded.matchAll(WORD_PATTERN)) tokens.push({ word: m[0], start: m.index, end: m.index + m[0].length });
  return tokens;
}

/** The word tokens of a text, folded (NFKC, lower case), in order: what word_count counts. */
export function wordTokens(text: string): string[] {
  return tokenize(foldText(text)).map((t) => t.word);
}

interface FillerPattern {
  term: string;
  words: string[];
}

/** What the transcript signals are counted with: aloud.yaml's `thinkaloud` lists and languages. */
export interface TranscriptSignalLists extends HesitationSettings {
  /** the legacy single list behind filler_count */
  fillers: readonly string[];
}

/**
 * Hesitation signals from the verbatim transcript and the parser's result.
 * - word_count: word tokens (see `WORD_PATTERN`); filler words count as words too.
 * - filled_pause_count, hedge_count, repetition_count, editing_term_count, hesitation_language: by category, in the
 *   transcript's language (hesitation.ts).
 * - fillers (the legacy single list, unchanged): matched on folded word tokens, so "um" never matches inside "umbrella" and "i guess" matches "I guess";
 *   scanning left to right, the longest filler starting at a token wins and consumes its tokens, so with "like" and
 *   "kind of", "kind of like" counts each once. fillers_by_term has every configured term, 0 when unheard; when two
 *   terms fold to the same words, the one listed first gets the count.
 * - label_changes: consecutive commitments whose labels differ.
 * - time_to_first/final_commit_ms: the time at the END offset of the first/final commitment, i.e. when its commit
 *   phrase was complete; null without timing or without commitments.
 */
export function computeTranscriptSignals(
  transcript: string,
  parse: CommittedLabels,
  lists: TranscriptSignalLists,
  timing?: TranscriptTiming,
): TranscriptSignals {
  const { fillers } = lists;
  const folded = foldText(transcript);
  const tokens = tokenize(folded);
  const counts = new Map<string, number>(fillers.map((term) => [term, 0]));
  const matches = matchFillers(tokens, folded, fillerIndex(fillers));
  for (const m of matches) counts.set(m.term, counts.get(m.term)! + 1);
  const fillerCount = matches.length;

  const commitments = parse.commitments;
  let labelChanges = 0;
  for (let k = 1; k < commitments.length; k++) {
    if (commitments[k]!.label !== commitments[k - 1]!.label) labelChanges++;
  }
  const first = commitments[0];
  const final = commitments[commitments.length - 1];
  const commitTime = (end: number): number | null => {
    if (timing === undefined) return null;
    try {
      return timeAtOffset(timing.spans, end);
    } catch (e) {
      throw new RangeError(`commitment end ${end} does not fit the segment timing: ${(e as Error).message}`);
    }
  };

  return {
    filler_count: fillerCount,
    fillers_by_term: Object.fromEntries(counts),
    ...hesitationSignals(transcript, lists),
    word_count: tokens.length,
    commitment_count: commitments.length,
    label_changes: labelChanges,
    time_to_first_commit_ms: first === undefined ? null : commitTime(first.end),
    time_to_final_commit_ms: final === undefined ? null : commitTime(final.end),
  };
}

/** What the signals read of a parse (the parser's ParseResult fits): each commitment's label and end offset, in order. */
export interface CommittedLabels {
  readonly commitments: readonly { readonly label: string; readonly end: number }[];
}

/**
 * Fillers left to right, the longest filler starting at a token winning and consuming its tokens (so with "like"
 * and "kind of", "kind of like" is two fillers).
 */
function matchFillers(
  tokens: readonly WordToken[],
  folded: string,
  byFirstWord: ReadonlyMap<string, readonly FillerPattern[]>,
): Array<{ term: string; first: number; last: number }> {
  const matches: Array<{ term: string; first: number; last: number }> = [];
  for (let i = 0; i < tokens.length;) {
    const match = byFirstWord.get(tokens[i]!.word)?.find((p) => fillerMatchesAt(p, tokens, i, folded));
    if (match === undefined) {
      i++;
      continue;
    }
    matches.push({ term: match.term, first: i, last: i + match.words.length - 1 });
    i += match.words.length;
  }
  return matches;
}

/**
 * Where the fillers `filler_count` counts stand in the verbatim transcript: [start, end) in its UTF-16 offsets.
 * Matching runs on the folded text; offsets are mapped back code point by code point (folding one code point at a
 * time gives the same text for ordinary input; where it does not, offsets are scaled, never outside the text).
 */
export function fillerOccurrences(transcript: string, fillers: readonly string[]): Array<{ term: string; start: number; end: number }> {
  const folded = foldText(transcript);
  const tokens = tokenize(folded);
  const toOriginal = offsetsInOriginal(transcript, folded, foldText);
  return matchFillers(tokens, folded, fillerIndex(fillers)).map((m) => ({
    term: m.term,
    start: toOriginal(tokens[m.first]!.start),
    end: toOriginal(tokens[m.last]!.end),
  }));
}

/** Filler indexes by the list: a session's transcripts share one list, so its index is made once. */
const FILLER_INDEXES = new Map<string, ReadonlyMap<string, readonly FillerPattern[]>>();

/** The fillers that can start at a given word, longest first (stable: config order among equals). */
function fillerIndex(fillers: readonly string[]): ReadonlyMap<string, readonly FillerPattern[]> {
  const key = JSON.stringify(fillers);
  const known = FILLER_INDEXES.get(key);
  if (known) return known;
  const byFirstWord = new Map<string, FillerPattern[]>();
  for (const p of fillerPatterns(fillers).sort((a, b) => b.words.length - a.words.length)) {
    const list = byFirstWord.get(p.words[0]!) ?? [];
    list.push(p);
    byFirstWord.set(p.words[0]!, list);
  }
  if (FILLER_INDEXES.size >= 64) FILLER_INDEXES.clear();
  FILLER_INDEXES.set(key, byFirstWord);
  return byFirstWord;
}

function fillerPatterns(fillers: readonly string[]): FillerPattern[] {
  return fillers.map((term, index) => {
    const words = wordTokens(term);
    if (words.length === 0) throw new RangeError(`fillers[${index}] (${JSON.stringify(term)}) contains no word`);
    return { term, words };
  });
}

function fillerMatchesAt(pattern: FillerPattern, tokens: readonly WordToken[], at: number, folded: string): boolean {
  const { words } = pattern;
  if (at + words.length > tokens.length) return false;
  for (let k = 0; k < words.length; k++) {
    const token = tokens[at + k]!;
    if (token.word !== words[k]) return false;
    if (k > 0 && !TERM_GAP.test(folded.slice(tokens[at + k - 1]!.end, token.start))) return false;
  }
  return true;
}
