import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../../core/common/items/item';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { checkEventData } from '../../../../core/common/session/sessionEventSchema';
import { EVENT_VERSIONS, type SessionEvent } from '../../../../core/common/session/sessionEvents';
import { SessionFold, type SessionEntry } from '../../../../core/common/session/sessionFold';
import { parseEventLine } from '../../../../core/common/session/sessionLog';
import { SessionUsageError } from '../../../../core/common/session/sessionRefusals';
import { decideOpenItem } from '../../../../core/common/session/sessionRules';
import { decideTextSelection, textWords, wordSpan } from '../../../../core/common/session/textSelection';

const here = path.dirname(fileURLToPath(import.meta.url));
const config = parseProjectConfig(readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8'));
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const TEXT = "Sure — I'd be glad to help, but don't expect miracles.";
const items: Item[] = [
  { id: 'i1', text: TEXT },
  { id: 'i2', text: 'No.' },
];
const ctx = { items: new Map(items.map((i) => [i.id, i])), sha256 };

function session() {
  const fold = new SessionFold(config);
  let seq = 0;
  const write = (entries: readonly SessionEntry[]): SessionEvent[] =>
    entries.map((entry) => {
      const event = {
        v: EVENT_VERSIONS[entry.type],
        seq: ++seq,
        ts: new Date(Date.UTC(2025, 0, 1, 10, 0, seq)).toISOString(),
        type: entry.type,
        data: entry.data,
      } as SessionEvent;
      fold.apply(event);
      return event;
    });
  write([
    {
      type: 'session_started',
      data: {
        annotator: 'ana',
        project_name: 'p',
        sample_rate: 16000,
        config_sha256: null,
        parser_version: null,
        parser_inputs_sha256: null,
        kind: null,
        room: null,
      },
    },
  ]);
  return { fold, write };
}

describe('selecting words of the item text (a session event)', () => {
  it('words are letters and digits joined by an inner apostrophe; a span snaps out to whole words', () => {
    expect(textWords(TEXT).map((w) => w.word)).toEqual(['Sure', "I'd", 'be', 'glad', 'to', 'help', 'but', "don't", 'expect', 'miracles']);
    const glad = TEXT.indexOf('glad');
    expect(wordSpan(TEXT, glad + 2, TEXT.indexOf('help') + 1)).toEqual({
      start: glad,
      end: TEXT.indexOf('help') + 4,
      quote: 'glad to help',
    });
    // dragged backwards: the same span
    expect(wordSpan(TEXT, TEXT.indexOf('help') + 1, glad + 2)?.quote).toBe('glad to help');
    // between words (the dash) is not a word
    expect(wordSpan(TEXT, TEXT.indexOf('—'), glad)).toBeNull();
  });

  it('is logged for the open item with its quote; the same selection again logs nothing; null clears it', () => {
    const { fold, write } = session();
    expect(() => decideTextSelection(fold, ctx, { start: 0, end: 4 })).toThrow(/no item is open/);
    write(decideOpenItem(ctx, { itemId: 'i1', recording: false }).entries);
    const start = TEXT.indexOf("don't");
    const end = TEXT.length - 1;
    const entries = decideTextSelection(fold, ctx, { start, end });
    expect(entries).toEqual([{ type: 'text_selected', data: { item_id: 'i1', span: { start, end, quote: "don't expect miracles" } } }]);
    const [event] = write(entries);
    expect(fold.itemState('i1')?.selection).toEqual({ start, end, quote: "don't expect miracles", at: event!.ts });
    expect(decideTextSelection(fold, ctx, { start, end })).toEqual([]);
    const cleared = decideTextSelection(fold, ctx, null);
    expect(cleared).toEqual([{ type: 'text_selected', data: { item_id: 'i1', span: null } }]);
    write(cleared);
    expect(fold.itemState('i1')?.selection).toBeNull();
    expect(decideTextSelection(fold, ctx, null)).toEqual([]);
  });

  it('refuses a span that cuts a word, lies outside the text, is empty, or whose text the session does not know', () => {
    const { fold, write } = session();
    write(decideOpenItem(ctx, { itemId: 'i1', recording: false }).entries);
    expect(() => decideTextSelection(fold, ctx, { start: 1, end: 4 })).toThrow(/whole words/);
    expect(() => decideTextSelection(fold, ctx, { start: 0, end: 5 })).toThrow(/whole words/);
    expect(() => decideTextSelection(fold, ctx, { start: 0, end: TEXT.length + 1 })).toThrow(SessionUsageError);
    expect(() => decideTextSelection(fold, ctx, { start: 4, end: 4 })).toThrow(/to a later one/);
    expect(() => decideTextSelection(fold, { items: null }, { start: 0, end: 4 })).toThrow(/not known to this session/);
  });

  it('a logged selection reads back through the log parser and the schema; a broken one names its field', () => {
    const line = JSON.stringify({
      v: 1,
      seq: 7,
      ts: '2025-01-01T10:00:00.000Z',
      type: 'text_selected',
      data: { item_id: 'i1', span: { start: 0, end: 4, quote: 'Sure' } },
    });
    const event = parseEventLine(line, 'events.jsonl', 7);
    expect(event.type).toBe('text_selected');
    expect(checkEventData('text_selected', { item_id: 'i1', span: null })).toBeNull();
    expect(checkEventData('text_selected', { item_id: 'i1', span: { start: 0, end: 4 } })).toMatch(/missing field "quote"/);
    expect(checkEventData('text_selected', { item_id: 'i1' })).toMatch(/missing field "span"/);
  });
});
