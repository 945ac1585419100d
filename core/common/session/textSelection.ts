import type { SessionEntry } from './sessionFold';
import type { SessionFacts, SessionRuleContext } from './sessionRules';
import { requireOpenItem } from './sessionRules';
import { SessionUsageError } from './sessionRefusals';
import { say } from '../refusal/refusalMessage';

/** Words the annotator can select in an item text: letters, marks, digits and "_", joined by an inner apostrophe. */
const WORD = /[\p{L}\p{M}\p{N}_]+(?:['\u2019][\p{L}\p{M}\p{N}_]+)*/gu;

/** A run of words of the item text: [start, end) in UTF-16 offsets, and the text it covers. */
export interface TextSpan {
  start: number;
  end: number;
  quote: string;
}

/** The words of a text, in order: where each starts and ends (UTF-16 offsets, as the page counts). */
export function textWords(text: string): Array<{ start: number; end: number; word: string }> {
  return [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, word: m[0] }));
}

/** The span from the word holding `from` to the word holding `to` (either order), or null when either is not a word. */
export function wordSpan(text: string, from: number, to: number): TextSpan | null {
  const words = textWords(text);
  const at = (offset: number) => words.findIndex((w) => w.start <= offset && offset < w.end);
  const a = at(Math.min(from, to));
  const b = at(Math.max(from, to));
  if (a < 0 || b < 0) return null;
  const start = words[a]!.start;
  const end = words[b]!.end;
  return { start, end, quote: text.slice(start, end) };
}

/**
 * The annotator selects words of the open item's text (the span she is looking at, for her own record and for a
 * shadow room's trainees); null clears it. A selection runs from the start of a word to the end of a word of the
 * text she sees; the same selection again, or clearing none, logs nothing.
 */
export function decideTextSelection(
  facts: Pick<SessionFacts, 'currentItemId' | 'itemState'>,
  context: Pick<SessionRuleContext, 'items'>,
  span: { start: number; end: number } | null,
): SessionEntry[] {
  const itemId = requireOpenItem(facts, 'select words of its text');
  const current = facts.itemState(itemId)?.selection ?? null;
  if (span === null) return current === null ? [] : [{ type: 'text_selected', data: { item_id: itemId, span: null } }];
  const item = context.items?.get(itemId);
  if (!item) throw new SessionUsageError(say('refusal.session.theTextOfIsNot', { itemId }));
  const { start, end } = span;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > item.text.length || start >= end) {
    throw new SessionUsageError(say('refusal.session.aSelectionOfRunsFrom', { itemId, length: item.text.length, start, end }));
  }
  const words = textWords(item.text);
  if (!words.some((w) => w.start === start) || !words.some((w) => w.end === end)) {
    throw new SessionUsageError(say('refusal.session.aSelectionCoversWholeWords', { start, end, itemId }));
  }
  if (current && current.start === start && current.end === end) return [];
  return [{ type: 'text_selected', data: { item_id: itemId, span: { start, end, quote: item.text.slice(start, end) } } }];
}
