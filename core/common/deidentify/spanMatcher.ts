import { foldForMatching, foldedKey, isWordEdge, normalizeForPatterns, type CapitalIReading, type FoldedText } from '../text/textFold';
import { termKeys, type DeidentifyList } from './deidentifyList';
import { AFTER, BEFORE, isPhoneNumber, PATTERN_CLASSES, patternKey, patternSources } from './deidentifyPatterns';
import type { PatternName } from '../deidentified/deidentifyTerms';
import { TermAutomaton } from './termAutomaton';

/** A stretch of text to hide: [start, end) in UTF-16 offsets, its placeholder class and its identity for numbering. */
export interface TextSpan {
  start: number;
  end: number;
  class: string;
  /** what makes two spans the same thing ("term:sarah", "phone:5551234"): they get the same number */
  key: string;
  origin: 'term' | PatternName | 'added';
}

/** Text the patterns can read as it is: nothing to normalise. */
const ASCII = /^[\u0000-\u007f]*$/u;

/** The identity of a listed term for numbering and duplicates: its canonical form (textFold). */
export const termKey = (text: string): string => `term:${foldedKey(text)}`;

/**
 * The verbatim span of folded characters [start, end): from the first one's source to the next folded character's
 * source, so invisibles and combining marks right after the match (which fold to nothing) are hidden with it.
 */
function verbatimSpan(folded: FoldedText, start: number, end: number, textLength: number): { start: number; end: number } {
  const after = end < folded.text.length ? folded.starts[end]! : textLength;
  return { start: folded.starts[start]!, end: Math.max(folded.ends[end - 1]!, after) };
}

/**
 * Finds what a list hides in a text: every listed term and every built-in pattern in force. Terms are found in the
 * canonical form of core/common/text/textFold (case, compatibility forms such as full-width and mathematical
 * letters, invisibles, combining marks, Unicode confusables, any run of spaces, hyphens, underscores or dots between
 * words), under both readings of a capital "I", by one automaton over all terms, on word edges of the folded text;
 * each match is mapped back to its exact span of the verbatim text. Overlaps are settled longest first (so an e-mail
 * address holding a listed name is hidden as one EMAIL), then by start. Deterministic: the same text and list give
 * the same spans.
 */
export class SpanMatcher {
  private readonly automaton: TermAutomaton | null;
  /** per automaton key: the index of its term */
  private readonly termOfKey: number[] = [];
  private readonly termKeys: string[];
  private readonly patterns: Array<{ name: PatternName; regex: RegExp }>;

  constructor(readonly list: Pick<DeidentifyList, 'terms' | 'patterns' | 'languages'>) {
    const keys: string[] = [];
    list.terms.forEach((t, i) => {
      for (const key of termKeys(t)) {
        keys.push(key);
        this.termOfKey.push(i);
      }
    });
    this.automaton = keys.length === 0 ? null : new TermAutomaton(keys);
    this.termKeys = list.terms.map((t) => `term:${termKeys(t)[0]!}`);
    this.patterns = list.patterns.map((name) => ({
      name,
      regex: new RegExp(`${BEFORE}(?:${patternSources(name, list.languages).join('|')})${AFTER}`, 'giu'),
    }));
  }

  /** Every span to hide in `text`, in text order, none overlapping. */
  find(text: string): TextSpan[] {
    const found = this.findTerms(text);
    // patterns read compatibility forms as their plain characters, without invisibles ("５５５ １２３４", "anna@exa\u200bmple.com")
    const plain = ASCII.test(text) ? null : normalizeForPatterns(text);
    for (const { name, regex } of this.patterns) {
      for (const m of (plain?.text ?? text).matchAll(regex)) {
        if (name === 'phone' && !isPhoneNumber(m[0])) continue;
        const span = plain
          ? verbatimSpan(plain, m.index, m.index + m[0].length, text.length)
          : { start: m.index, end: m.index + m[0].length };
        found.push({ ...span, class: PATTERN_CLASSES[name], key: patternKey(name, m[0]), origin: name });
      }
    }
    return settleOverlaps(found);
  }

  /** The listed terms in `text`, overlapping ones included. */
  private findTerms(text: string): TextSpan[] {
    if (this.automaton === null) return [];
    const out: TextSpan[] = [];
    const seen = new Set<string>();
    // a capital "I" reads as "i" or as "l": the text is folded both ways when it has one
    const readings: CapitalIReading[] = text.includes('I') ? ['i', 'l'] : ['i'];
    for (const reading of readings) {
      const folded = foldForMatching(text, reading);
      for (const m of this.automaton.findAll(folded.text)) {
        if (!isWordEdge(folded.text, m.start - 1) || !isWordEdge(folded.text, m.end)) continue;
        const span = verbatimSpan(folded, m.start, m.end, text.length);
        const term = this.list.terms[this.termOfKey[m.key]!]!;
        const id = `${span.start}/${span.end}/${term.class}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({ ...span, class: term.class, key: this.termKeys[this.termOfKey[m.key]!]!, origin: 'term' });
      }
    }
    return out;
  }
}

/** Which of two equally long spans wins: a reviewer's, a listed term, then the more specific pattern ("2024-01-05" is a DATE, "12345678" a NUMBER). */
const ORIGIN_RANK: Readonly<Record<TextSpan['origin'], number>> = { added: 0, term: 1, email: 2, url: 3, date: 4, digits: 5, phone: 6 };

/** Longest first, then by origin, then earliest; a span overlapping one already kept is dropped. Returned in text order. */
export function settleOverlaps(spans: readonly TextSpan[]): TextSpan[] {
  const kept: TextSpan[] = [];
  const order = [...spans].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin] || a.start - b.start,
  );
  for (const s of order) if (!kept.some((k) => s.start < k.end && k.start < s.end)) kept.push(s);
  return kept.sort((a, b) => a.start - b.start);
}
