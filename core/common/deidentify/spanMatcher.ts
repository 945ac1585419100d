import { foldTerm, type DeidentifyList } from './deidentifyList';
import { AFTER, BEFORE, isPhoneNumber, PATTERN_CLASSES, patternKey, patternSources, type PatternName } from './deidentifyPatterns';

/** A stretch of text to hide: [start, end) in UTF-16 offsets, its placeholder class and its identity for numbering. */
export interface TextSpan {
  start: number;
  end: number;
  class: string;
  /** what makes two spans the same thing ("term:sarah", "phone:5551234"): they get the same number */
  key: string;
  origin: 'term' | PatternName | 'added';
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/** A term as a pattern: spaces and hyphens between its words match any run of them, straight or curly apostrophes alike. */
function termSource(text: string): string {
  return foldTerm(text)
    .split(/[\s-]+/u)
    .map((word) => escapeRegExp(word).replace(/['’]/gu, "['’]"))
    .join('[\\s-]+');
}

/**
 * Finds what a list hides in a text: every listed term (case-insensitive, on word boundaries, its words apart by
 * any spaces or hyphens) and every built-in pattern in force. Overlaps are settled longest first (so an e-mail
 * address holding a listed name is hidden as one EMAIL), then by start. Deterministic: the same text and list give
 * the same spans.
 */
export class SpanMatcher {
  private readonly termRegex: RegExp | null;
  private readonly termByFold: Map<string, { text: string; class: string }>;
  private readonly patterns: Array<{ name: PatternName; regex: RegExp }>;

  constructor(readonly list: Pick<DeidentifyList, 'terms' | 'patterns' | 'languages'>) {
    this.termByFold = new Map(list.terms.map((t) => [foldTerm(t.text).replace(/[\s-]+/gu, ' ').replace(/’/gu, "'"), t]));
    // longest first, so "Sarah Miller" wins over "Sarah" at the same place
    const sources = [...list.terms].sort((a, b) => b.text.length - a.text.length).map((t) => termSource(t.text));
    this.termRegex = sources.length === 0 ? null : new RegExp(`${BEFORE}(?:${sources.join('|')})${AFTER}`, 'giu');
    this.patterns = list.patterns.map((name) => ({ name, regex: new RegExp(`${BEFORE}(?:${patternSources(name, list.languages).join('|')})${AFTER}`, 'giu') }));
  }

  /** Every span to hide in `text`, in text order, none overlapping. */
  find(text: string): TextSpan[] {
    const found: TextSpan[] = [];
    if (this.termRegex) {
      for (const m of text.matchAll(this.termRegex)) {
        const term = this.termOf(m[0]);
        found.push({ start: m.index, end: m.index + m[0].length, class: term.class, key: `term:${foldTerm(term.text)}`, origin: 'term' });
      }
    }
    for (const { name, regex } of this.patterns) {
      for (const m of text.matchAll(regex)) {
        if (name === 'phone' && !isPhoneNumber(m[0])) continue;
        found.push({ start: m.index, end: m.index + m[0].length, class: PATTERN_CLASSES[name], key: patternKey(name, m[0]), origin: name });
      }
    }
    return settleOverlaps(found);
  }

  private termOf(matched: string): { text: string; class: string } {
    const direct = this.termByFold.get(foldTerm(matched).replace(/[\s-]+/gu, ' ').replace(/’/gu, "'"));
    if (direct) return direct;
    // case folding the regex did and toLowerCase did not (rare scripts): ask each term
    return this.list.terms.find((t) => new RegExp(`^(?:${termSource(t.text)})$`, 'iu').test(matched)) ?? { text: matched, class: 'TERM' };
  }
}

/** Which of two equally long spans wins: a reviewer's, a listed term, then the more specific pattern ("2024-01-05" is a DATE, "12345678" a NUMBER). */
const ORIGIN_RANK: Readonly<Record<TextSpan['origin'], number>> = { added: 0, term: 1, email: 2, url: 3, date: 4, digits: 5, phone: 6 };

/** Longest first, then by origin, then earliest; a span overlapping one already kept is dropped. Returned in text order. */
export function settleOverlaps(spans: readonly TextSpan[]): TextSpan[] {
  const kept: TextSpan[] = [];
  const order = [...spans].sort((a, b) => b.end - b.start - (a.end - a.start) || ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin] || a.start - b.start);
  for (const s of order) if (!kept.some((k) => s.start < k.end && k.start < s.end)) kept.push(s);
  return kept.sort((a, b) => a.start - b.start);
}
