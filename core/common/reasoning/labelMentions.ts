import { SINGLE_WORD_CUES } from '../parser/negationCues';
import { LabelMatcher } from '../parser/labelMatch';
import { GAP_CLAUSE_END, matchWords } from '../parser/matchText';
import type { LabelSchemaContext } from './modelLabel';

/** Words before a label within which a negation cue still negates it ("not very polite"), as in the commit parser. */
export const MENTION_NEGATION_WORDS = 3;

/** A label named anywhere in a text (a transcript or a reasoning step), with where and whether it was negated. */
export interface LabelMention {
  label: string;
  /** a negation cue ("not", "n't", "nicht", …) stands up to three words before it in the same clause */
  negated: boolean;
  /** exact text.slice(start, end) */
  quote: string;
  start: number;
  end: number;
}

/**
 * Every mention of a label name or active synonym in a text, in order. Exact matches only (longest first, as the
 * commit parser): free reasoning text is full of words near a label, and a mark must not be a guess. A label that
 * itself holds a cue ("Not toxic") is a mention, not a negation.
 */
export function createMentionFinder(schema: LabelSchemaContext): (text: string) => LabelMention[] {
  const matcher = new LabelMatcher(schema.labels, schema.languages);
  return (text) => {
    const { words, starts, ends, gaps } = matchWords(text);
    const mentions: LabelMention[] = [];
    let lastCue = -1;
    for (let i = 0; i < words.length;) {
      if (gaps[i]! & GAP_CLAUSE_END) lastCue = -1;
      const found = matcher.exact(words, i);
      if (found?.kind === 'label') {
        const negated = lastCue >= 0 && i - lastCue <= MENTION_NEGATION_WORDS;
        const start = starts[i]!;
        const end = ends[found.end - 1]!;
        mentions.push({ label: schema.labels[found.label]!.name, negated, quote: text.slice(start, end), start, end });
        for (let j = i + 1; j < found.end; j++) if (gaps[j]! & GAP_CLAUSE_END) lastCue = -1;
        i = found.end;
        continue;
      }
      // a tie ("ok" naming two labels) is no mention of either; skip its words like any other
      const word = words[i]!;
      if (SINGLE_WORD_CUES.has(word) || word.endsWith("n't")) lastCue = i;
      i = found ? found.end : i + 1;
    }
    return mentions;
  };
}

/** The labels a text names, in order, negated mentions left out and a label repeated at once counted once. */
export function labelsInOrder(mentions: readonly LabelMention[]): string[] {
  const labels: string[] = [];
  for (const m of mentions) if (!m.negated && labels.at(-1) !== m.label) labels.push(m.label);
  return labels;
}
