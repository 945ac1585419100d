/**
 * Finding which label words name: a label name, a synonym or (where asked for) a derived spoken form, longest phrase
 * first, names before synonyms before derived forms at equal length. `resolve` then tries a fuzzy match, accepted
 * only when exactly one label is close enough: for a whole answer written by a model, never for free speech (the
 * commit parser and label mentions use `exact` only).
 */
import type { LabelDef } from './parseTypes';
import { normalizeForMatching } from './matchText';
import { spokenFormsOf } from './spokenForms';

/** Fuzzy matches need at least this normalised edit similarity to a label name or synonym. */
export const FUZZY_MIN_SIMILARITY = 0.8;

interface PhraseNode {
  next: Map<string, PhraseNode>;
  /** labels (by index) this exact phrase names */
  names: number[];
  /** labels (by index) that have this exact phrase as a synonym */
  synonyms: number[];
  /** labels (by index) that have this exact phrase as a derived spoken form (spokenForms.ts) */
  derived: number[];
}

export type LabelResolution =
  /** one label, named by words [start, end) */
  | { kind: 'label'; label: number; end: number; via: LabelMatchVia }
  /** several labels are equally good for the words [start, end): nothing can be decided */
  | { kind: 'tie'; labels: number[]; end: number; via: LabelMatchVia };

export type LabelMatchVia = 'name' | 'synonym' | 'derived' | 'fuzzy';

interface FuzzyPhrase {
  label: number;
  text: string;
  wordCount: number;
}

function newNode(): PhraseNode {
  return { next: new Map(), names: [], synonyms: [], derived: [] };
}

function addPhrase(root: PhraseNode, words: string[], label: number, kind: 'names' | 'synonyms' | 'derived'): void {
  let node = root;
  for (const word of words) {
    let child = node.next.get(word);
    if (!child) {
      child = newNode();
      node.next.set(word, child);
    }
    node = child;
  }
  if (!node[kind].includes(label)) node[kind].push(label);
}

/** 1 - levenshtein(a, b) / max(len a, len b), over UTF-16 units of normalised strings. */
export function editSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return 1 - previous[b.length]! / longest;
}

export class LabelMatcher {
  /** names, and synonyms of the active languages: what may match exactly */
  private readonly active = newNode();
  /** names and synonyms of every language: words that must never be fuzzily taken for another label */
  private readonly everyPhrase = newNode();
  private readonly fuzzyPhrases: FuzzyPhrase[] = [];
  private readonly longestFuzzyWords: number;

  /** `derivedForms`: also match the derived spoken forms (the commit parser); off for text that was written, not heard */
  constructor(labels: readonly LabelDef[], languages: readonly string[], options: { derivedForms?: boolean } = {}) {
    const fuzzySeen = new Set<string>();
    const addFuzzy = (label: number, text: string): void => {
      const key = `${label}\u0000${text}`;
      if (fuzzySeen.has(key)) return;
      fuzzySeen.add(key);
      this.fuzzyPhrases.push({ label, text, wordCount: text.split(' ').length });
    };
    labels.forEach((label, index) => {
      const name = normalizeForMatching(label.name);
      if (name !== '') {
        addPhrase(this.active, name.split(' '), index, 'names');
        addPhrase(this.everyPhrase, name.split(' '), index, 'names');
        addFuzzy(index, name);
      }
      for (const [language, synonyms] of Object.entries(label.synonyms ?? {})) {
        const isActive = languages.includes(language);
        for (const synonym of synonyms) {
          const phrase = normalizeForMatching(synonym);
          if (phrase === '') continue;
          addPhrase(this.everyPhrase, phrase.split(' '), index, 'synonyms');
          if (!isActive) continue;
          addPhrase(this.active, phrase.split(' '), index, 'synonyms');
          addFuzzy(index, phrase);
        }
      }
    });
    this.longestFuzzyWords = Math.max(1, ...this.fuzzyPhrases.map((p) => p.wordCount));
    if (options.derivedForms) {
      spokenFormsOf(labels, languages).forEach(({ forms }, index) => {
        for (const form of forms) if (form.source === 'derived') addPhrase(this.active, form.text.split(' '), index, 'derived');
      });
    }
  }

  /** The longest exact label name or active synonym starting at words[start], or null. */
  exact(words: readonly string[], start: number): LabelResolution | null {
    return longestExact(this.active, words, start);
  }

  /** The exact match, else a fuzzy one; null when the words at `start` name no label. */
  resolve(words: readonly string[], start: number): LabelResolution | null {
    return this.exact(words, start) ?? this.fuzzy(words, start);
  }

  /**
   * Fuzzy match: the single word at `start` against every name and synonym, and for a multi-word
   * label the same number of words joined. Accepted only when exactly one label comes close enough.
   */
  fuzzy(words: readonly string[], start: number): LabelResolution | null {
    if (start >= words.length) return null;
    const best = new Map<number, { similarity: number; end: number }>();
    for (const phrase of this.fuzzyPhrases) {
      for (const wordCount of phrase.wordCount === 1 ? [1] : [1, phrase.wordCount]) {
        if (start + wordCount > words.length || wordCount > this.longestFuzzyWords) continue;
        const candidate = wordCount === 1 ? words[start]! : words.slice(start, start + wordCount).join(' ');
        // cheap bound: the length difference alone already costs that many edits
        const longest = Math.max(candidate.length, phrase.text.length);
        if (1 - Math.abs(candidate.length - phrase.text.length) / longest < FUZZY_MIN_SIMILARITY) continue;
        const similarity = editSimilarity(candidate, phrase.text);
        if (similarity < FUZZY_MIN_SIMILARITY) continue;
        if (this.namesAnotherLabel(words, start, start + wordCount, phrase.label)) continue;
        const previous = best.get(phrase.label);
        const end = start + wordCount;
        if (!previous || similarity > previous.similarity || (similarity === previous.similarity && end > previous.end)) {
          best.set(phrase.label, { similarity, end });
        }
      }
    }
    if (best.size === 0) return null;
    if (best.size > 1) {
      return {
        kind: 'tie',
        labels: [...best.keys()].sort((a, b) => a - b),
        end: Math.max(...[...best.values()].map((b) => b.end)),
        via: 'fuzzy',
      };
    }
    const [label, match] = [...best.entries()][0]!;
    return { kind: 'label', label, end: match.end, via: 'fuzzy' };
  }

  /** Whether any word in [start, end) begins an exact name or synonym (any language) of a label other than `label`. */
  private namesAnotherLabel(words: readonly string[], start: number, end: number, label: number): boolean {
    for (let i = start; i < end; i++) {
      let node: PhraseNode | undefined = this.everyPhrase;
      for (let j = i; j < words.length; j++) {
        node = node.next.get(words[j]!);
        if (!node) break;
        if (node.names.some((l) => l !== label) || node.synonyms.some((l) => l !== label)) return true;
      }
    }
    return false;
  }
}

function longestExact(root: PhraseNode, words: readonly string[], start: number): LabelResolution | null {
  let node: PhraseNode | undefined = root;
  let found: LabelResolution | null = null;
  for (let j = start; j < words.length; j++) {
    node = node.next.get(words[j]!);
    if (!node) break;
    const via = node.names.length > 0 ? 'name' : node.synonyms.length > 0 ? 'synonym' : node.derived.length > 0 ? 'derived' : null;
    if (via === null) continue;
    const labels = via === 'name' ? node.names : via === 'synonym' ? node.synonyms : node.derived;
    found =
      labels.length === 1 ? { kind: 'label', label: labels[0]!, end: j + 1, via } : { kind: 'tie', labels: [...labels], end: j + 1, via };
  }
  return found;
}
