import { joinSegments } from '../transcript/joinSegments';
import type { SpanMatcher } from './spanMatcher';

/** One text of an exported record, named by its field path ("segments[2].tokens", "notes[0].text"). */
export interface RecordText {
  field: string;
  text: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';

/**
 * Every text field of a record as exported, JSON (v2 and later) or a CSV row: transcripts, segments and their
 * tokens (joined, so a pattern split over two tokens is seen whole), corrections, superseded transcripts, quotes,
 * notes, the model's steps. Fields it does not know are not texts a person said or wrote.
 */
export function recordTexts(record: Record<string, unknown>): RecordText[] {
  const out: RecordText[] = [];
  const add = (field: string, v: unknown): void => {
    if (str(v)) out.push({ field, text: v });
  };
  const each = (key: string, fields: readonly string[]): void => {
    const list = record[key];
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => {
      if (isObject(entry)) for (const f of fields) add(`${key}[${i}].${f}`, entry[f]);
    });
  };
  add('transcript', record.transcript);
  add('transcript_corrected', record.transcript_corrected);
  // CSV rows hold lists joined in cells
  for (const column of ['notes', 'commitment_quotes', 'label_history']) if (str(record[column])) add(column, record[column]);
  each('corrections', ['text', 'original_text']);
  each('superseded_transcripts', ['text', 'corrected_text']);
  each('notes', ['text']);
  each('label_history', ['quote']);
  each('commitments', ['quote']);
  each('step_judgments', ['quote']);
  each('segments', ['text']);
  if (Array.isArray(record.segments)) {
    const tokenTexts: string[] = [];
    record.segments.forEach((s, i) => {
      if (!isObject(s) || !Array.isArray(s.tokens)) return;
      const joined = s.tokens.map((t) => (isObject(t) && str(t.text) ? t.text : '')).join('');
      add(`segments[${i}].tokens`, joined);
      tokenTexts.push(joined);
    });
    // what is said across a pause is one text: a name over two utterances ("… Jonas" | "Weber …") is seen whole
    const segmentTexts = record.segments.map((s) => (isObject(s) && str(s.text) ? s.text : ''));
    if (segmentTexts.length > 1) add('segments[*].text', joinSegments(segmentTexts.map((text) => ({ text, t0_ms: 0, t1_ms: 0 }))).text);
    if (tokenTexts.length > 1) add('segments[*].tokens', joinSegments(tokenTexts.map((text) => ({ text, t0_ms: 0, t1_ms: 0 }))).text);
  }
  const codings = record.codings;
  if (isObject(codings) && Array.isArray(codings.units)) {
    codings.units.forEach((u, i) => {
      if (!isObject(u)) return;
      add(`codings.units[${i}].text`, u.text);
      if (isObject(u.codes))
        for (const given of Object.values(u.codes))
          if (Array.isArray(given)) given.forEach((c) => isObject(c) && add(`codings.units[${i}].memo`, c.memo));
    });
  }
  const reasoning = record.model_reasoning;
  if (isObject(reasoning) && Array.isArray(reasoning.steps)) reasoning.steps.forEach((s, i) => add(`model_reasoning.steps[${i}]`, s));
  return out;
}

/** What a de-identified record still holds: the field and class of each listed term or pattern found, never the text. */
export function leaksIn(record: Record<string, unknown>, matcher: SpanMatcher): Array<{ field: string; class: string; at: number }> {
  return recordTexts(record).flatMap(({ field, text }) => matcher.find(text).map((s) => ({ field, class: s.class, at: s.start })));
}
