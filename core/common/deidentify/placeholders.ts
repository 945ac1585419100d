import type { TextSpan } from './spanMatcher';

/**
 * Numbers placeholders within one item and annotator: the first thing of a class is 1, the next different one 2,
 * and the same thing (same key) gets its number again wherever it recurs ("[PERSON-1]" is one person).
 */
export class PlaceholderNumbers {
  private readonly byClass = new Map<string, Map<string, number>>();

  placeholder(span: Pick<TextSpan, 'class' | 'key'>): string {
    let numbers = this.byClass.get(span.class);
    if (!numbers) this.byClass.set(span.class, (numbers = new Map()));
    let n = numbers.get(span.key);
    if (n === undefined) numbers.set(span.key, (n = numbers.size + 1));
    return `[${span.class}-${n}]`;
  }

  /** the classes given a placeholder so far, sorted */
  classes(): string[] {
    return [...this.byClass.keys()].sort();
  }
}

/** A placeholder as written into text: what validate skips when it looks for leaks. */
export const PLACEHOLDER = /\[[A-Z][A-Z0-9_]{0,31}-\d+\]/gu;

export interface TextEdit {
  start: number;
  end: number;
  replacement: string;
}

export interface EditedText {
  text: string;
  /**
   * An offset of the old text in the new one. An offset inside a replaced stretch goes to the placeholder's start
   * (side 'start') or end (side 'end'), so a quote that held part of a name holds its whole placeholder.
   */
  offsetOf(offset: number, side: 'start' | 'end'): number;
}

/** Applies edits that do not overlap (in any order) to a text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): EditedText {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  const placed: Array<{ start: number; end: number; newStart: number; newEnd: number }> = [];
  for (const e of sorted) {
    out += text.slice(at, e.start);
    placed.push({ start: e.start, end: e.end, newStart: out.length, newEnd: out.length + e.replacement.length });
    out += e.replacement;
    at = e.end;
  }
  out += text.slice(at);
  return {
    text: out,
    offsetOf(offset, side) {
      let shift = 0;
      for (const p of placed) {
        if (offset <= p.start) break;
        if (offset < p.end) return side === 'start' ? p.newStart : p.newEnd;
        shift = p.newEnd - p.end;
      }
      return offset + shift;
    },
  };
}
