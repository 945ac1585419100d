/**
 * Stem patterns: the small language of commit phrases, also what users write in aloud.yaml
 * `thinkaloud.stems`. Words and groups, separated by spaces:
 * - `(a|b|c)` is a required choice; `(one)` (a single alternative) is optional; an alternative that
 *   normalises to nothing (the `:` in `(is|:)`) makes the whole group optional;
 * - `a/b/c` inside a word position is shorthand for `(a|b|c)`;
 * - a group written against the previous word without a space attaches to it: `I('d| would)` gives
 *   "I'd" and "I would" (an alternative starting with a space starts a new word);
 * - `{label}` marks where the label stands when words follow it (German puts the verb last: `ich würde {label}
 *   (sagen|nehmen)`); without it the label follows the pattern.
 * A pattern is compiled into every phrasing it allows, each normalised like a transcript.
 */
import { normalizeForMatching } from './matchText';

export interface CompiledStem {
  /** the pattern exactly as written */
  pattern: string;
  /** every phrasing the pattern allows before the label, as normalised word sequences, without duplicates */
  phrasings: string[][];
  /** with `{label}`: every phrasing that must follow the label; null when the label ends the phrase */
  tail: string[][] | null;
}

/** Where the label stands in a pattern whose words go on after it. */
export const LABEL_SLOT = '{label}';

/** Cap on phrasings per pattern: a pattern of many groups multiplies out (6 groups of 5 = 15,625). */
export const MAX_STEM_PHRASINGS = 4096;

interface PatternElement {
  alternatives: string[];
  /** written against the previous element without a space */
  glued: boolean;
}

class StemPatternProblem extends Error {}

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/u.test(ch);
}

function readElements(pattern: string): PatternElement[] {
  const elements: PatternElement[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (isSpace(ch)) {
      i++;
      continue;
    }
    const glued = elements.length > 0 && !isSpace(pattern[i - 1]);
    if (ch === '(') {
      let close = i + 1;
      while (close < pattern.length && pattern[close] !== ')') {
        if (pattern[close] === '(') throw new StemPatternProblem(`nested "(" at character ${close + 1}: a group cannot contain a group`);
        close++;
      }
      if (close >= pattern.length) throw new StemPatternProblem(`"(" at character ${i + 1} is never closed with ")"`);
      const inner = pattern.slice(i + 1, close);
      if (inner.includes('/'))
        throw new StemPatternProblem(`"/" inside the group at character ${i + 1}: separate a group's alternatives with "|"`);
      const alternatives = inner.split('|');
      if (alternatives.every((a) => normalizeForMatching(a) === '')) {
        throw new StemPatternProblem(`the group "(${inner})" at character ${i + 1} has no words`);
      }
      if (alternatives.length === 1) alternatives.push('');
      elements.push({ alternatives, glued });
      i = close + 1;
    } else if (ch === ')') {
      throw new StemPatternProblem(`")" at character ${i + 1} has no "(" before it`);
    } else if (ch === '|') {
      throw new StemPatternProblem(`"|" at character ${i + 1} is outside a group: write alternatives as (a|b)`);
    } else {
      let end = i;
      while (end < pattern.length && !isSpace(pattern[end]) && !'()|'.includes(pattern[end]!)) end++;
      const word = pattern.slice(i, end);
      const alternatives = word.split('/');
      if (alternatives.length > 1 && alternatives.some((a) => normalizeForMatching(a) === '')) {
        throw new StemPatternProblem(
          `"${word}" at character ${i + 1} has an empty alternative: write a/b/c with a word on each side of "/"`,
        );
      }
      elements.push({ alternatives, glued });
      i = end;
    }
  }
  return elements;
}

function expand(elements: PatternElement[]): string[][] {
  let partial = [''];
  for (const element of elements) {
    const next = new Set<string>();
    for (const prefix of partial) {
      for (const alternative of element.alternatives) next.add(element.glued ? prefix + alternative : `${prefix} ${alternative}`);
    }
    if (next.size > MAX_STEM_PHRASINGS) {
      throw new StemPatternProblem(`the pattern allows more than ${MAX_STEM_PHRASINGS} phrasings: use fewer or smaller groups`);
    }
    partial = [...next];
  }
  const phrasings = new Map<string, string[]>();
  for (const text of partial) {
    const normalised = normalizeForMatching(text);
    if (normalised === '') {
      throw new StemPatternProblem(
        'every word of the pattern is optional, so it would match nothing at all: make at least one word required',
      );
    }
    phrasings.set(normalised, normalised.split(' '));
  }
  return [...phrasings.values()];
}

function compilePart(part: string): string[][] {
  if (normalizeForMatching(part.replace(/[()|/]/g, ' ')) === '') throw new StemPatternProblem('the stem pattern has no words');
  return expand(readElements(part));
}

function compile(pattern: string): CompiledStem {
  if (typeof pattern !== 'string') throw new StemPatternProblem('a stem pattern must be a string');
  const [head, tail, ...more] = pattern.split(LABEL_SLOT);
  if (more.length > 0) throw new StemPatternProblem(`${LABEL_SLOT} stands more than once: a phrase names one label`);
  if (tail !== undefined && normalizeForMatching(tail.replace(/[()|/]/g, ' ')) === '') {
    throw new StemPatternProblem(`nothing follows ${LABEL_SLOT}: leave it out when the label ends the phrase`);
  }
  return { pattern, phrasings: compilePart(head!), tail: tail === undefined ? null : compilePart(tail) };
}

/** The problem with a stem pattern, in one line, or null when the pattern is well-formed. */
export function validateStemPattern(pattern: string): string | null {
  try {
    compile(pattern);
    return null;
  } catch (e) {
    if (e instanceof StemPatternProblem) return e.message;
    throw e;
  }
}

/** Compile a stem pattern into its phrasings; throws an Error naming the pattern and what is wrong. */
export function compileStemPattern(pattern: string): CompiledStem {
  try {
    return compile(pattern);
  } catch (e) {
    if (e instanceof StemPatternProblem) throw new Error(`invalid stem pattern ${JSON.stringify(pattern)}: ${e.message}`);
    throw e;
  }
}
