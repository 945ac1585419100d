import { parseCsv } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import { describeJsonType, type LocatedValue, parseJsonArrayDocument, parseJsonLines } from '../io/jsonInput';
import type { LabelRecord } from './agreementAnalysis';
import { countedLabels, type CountableItem, type CountingReport, type CountingRules } from './countingRules';

/** The columns of a label table for `aloud agreement --csv`: one label per annotator and item. */
export const LABEL_CSV_COLUMNS = ['item', 'annotator', 'label'] as const;

/**
 * `item,annotator,label` rows (any column order, no other columns). An empty label is missing; item and annotator
 * must not be empty and a pair must not repeat. Every problem names its line.
 */
export function parseLabelCsv(text: string, file: string): LabelRecord[] {
  const table = parseCsv(text, file);
  const problems: InputProblem[] = [];
  const column = new Map(table.header.map((name, i) => [name, i]));
  for (const name of LABEL_CSV_COLUMNS) {
    if (!column.has(name)) problems.push({ file, line: table.headerLine, field: name, stage: 'schema', message: `the header has no column "${name}" (expected item,annotator,label)` });
  }
  for (const name of table.header) {
    if (!(LABEL_CSV_COLUMNS as readonly string[]).includes(name)) problems.push({ file, line: table.headerLine, field: name, stage: 'schema', message: `unknown column "${name}" (expected item,annotator,label)` });
  }
  if (problems.length > 0) throw new InputError(problems);
  const firstLine = new Map<string, number>();
  const records: LabelRecord[] = [];
  for (const row of table.rows) {
    const [item, annotator, label] = LABEL_CSV_COLUMNS.map((name) => row.fields[column.get(name)!]!.trim());
    if (item === '') problems.push({ file, line: row.line, field: 'item', stage: 'rule', message: 'the item is empty' });
    if (annotator === '') problems.push({ file, line: row.line, field: 'annotator', stage: 'rule', message: 'the annotator is empty' });
    if (item === '' || annotator === '') continue;
    const key = JSON.stringify([item, annotator]);
    const before = firstLine.get(key);
    if (before !== undefined) {
      problems.push({ file, line: row.line, field: 'label', stage: 'rule', message: `a second label for item "${item}" by "${annotator}" (the first is on line ${before}); give one label per pair` });
      continue;
    }
    firstLine.set(key, row.line);
    records.push({ item_id: item!, annotator: annotator!, blind_label: null, final_label: label === '' ? null : label! });
  }
  if (problems.length > 0) throw new InputError(problems);
  return records;
}

/** Fields every export schema version has (v1 and v2); anything else in a record (v2's label_history…) is left alone. */
const EXPORT_LABEL_FIELDS = ['item_id', 'annotator', 'blind_label', 'final_label'] as const;

/** The annotator, kind and countable work of one export record (v1, v2 or v3; JSON or a CSV row). */
interface CountableRecord extends CountableItem {
  annotator: string;
  kind: 'annotator' | 'room';
}

/**
 * What a record says about counting, read as its version recorded it: v3 says whether the item was completed, the kind
 * of session and who made each act; v1 and v2 (and CSV rows) say when it was completed and, in v3 CSV, the
 * annotator's own final label beside the final one.
 */
function countableOf(record: Record<string, unknown>, labels: LabelRecord): CountableRecord {
  const completed = typeof record.completed === 'boolean' ? record.completed : typeof record.completed_at === 'string' && record.completed_at !== '';
  const kind = record.session_kind === 'room' ? 'room' : 'annotator';
  const history = record.label_history;
  let acts: CountableItem['acts'];
  if (Array.isArray(history) && history.every((a) => typeof (a as { label?: unknown })?.label === 'string')) {
    acts = (history as Array<{ label: string; reviewer?: unknown }>).map((a) => ({ label: a.label, reviewer: typeof a.reviewer === 'string' ? a.reviewer : null }));
  } else {
    // a row without the timeline: the blind and the final label, the annotator's own final beside a reviewer's (v3 CSV)
    const own = typeof record.own_final_label === 'string' && record.own_final_label !== '' ? record.own_final_label : 'own_final_label' in record ? null : labels.final_label;
    acts = [
      ...(labels.blind_label !== null ? [{ label: labels.blind_label, reviewer: null }] : []),
      ...(own !== null ? [{ label: own, reviewer: null }] : []),
      ...(labels.final_label !== null && labels.final_label !== own ? [{ label: labels.final_label, reviewer: 'a reviewer' }] : []),
    ];
  }
  return { item_id: labels.item_id, annotator: labels.annotator, kind, completed, acts };
}

function exportRecordLabels(located: LocatedValue, file: string, problems: InputProblem[]): CountableRecord | null {
  const v = located.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.push({ file, line: located.line, field: null, stage: 'schema', message: `an export record must be an object, not ${describeJsonType(v)}` });
    return null;
  }
  const record = v as Record<string, unknown>;
  let ok = true;
  for (const field of EXPORT_LABEL_FIELDS) {
    const x = record[field];
    const nullable = field === 'blind_label' || field === 'final_label';
    if (!(typeof x === 'string' && x !== '') && !(nullable && x === null)) {
      ok = false;
      problems.push({ file, line: located.locate(`/${field}`), field, stage: 'schema', message: `${field} must be ${nullable ? 'a label or null' : 'a non-empty string'}, not ${x === undefined ? 'missing' : x === '' ? 'empty' : describeJsonType(x)}` });
    }
  }
  if (!ok) return null;
  return countableOf(record, { item_id: record.item_id as string, annotator: record.annotator as string, blind_label: record.blind_label as string | null, final_label: record.final_label as string | null });
}

/** The CSV columns that say how to count a record, when the file has them (v2: completed_at; v3: completed, session_kind, own_final_label). */
const EXPORT_COUNTING_COLUMNS = ['completed_at', 'completed', 'session_kind', 'own_final_label'] as const;

/** Labels from an `aloud export` file (jsonl, json or csv; schema v1, v2 or v3), every label as it is (no counting rule applied). */
export function parseExportLabels(text: string, file: string, format: 'jsonl' | 'json' | 'csv'): LabelRecord[] {
  return readExportLabels(text, file, format, { includeIncomplete: true, includeReviewers: true, includeRooms: true }).records;
}

/**
 * Labels from an `aloud export` file read tolerantly (only the label fields and those that say how to count them),
 * counted under the rules (countingRules): a v1 or v2 record counts as completed when it has a completion time.
 */
export function readExportLabels(text: string, file: string, format: 'jsonl' | 'json' | 'csv', rules: CountingRules): { records: LabelRecord[]; report: CountingReport } {
  const problems: InputProblem[] = [];
  let located: LocatedValue[];
  if (format === 'csv') {
    const table = parseCsv(text, file);
    const column = new Map(table.header.map((name, i) => [name, i]));
    for (const field of EXPORT_LABEL_FIELDS) {
      if (!column.has(field)) problems.push({ file, line: table.headerLine, field, stage: 'schema', message: `the header has no column "${field}" (is this an aloud export?)` });
    }
    if (problems.length > 0) throw new InputError(problems);
    located = table.rows.map((row) => {
      const value: Record<string, unknown> = Object.fromEntries(EXPORT_LABEL_FIELDS.map((f) => {
        const cell = row.fields[column.get(f)!]!;
        return [f, cell === '' && (f === 'blind_label' || f === 'final_label') ? null : cell];
      }));
      for (const f of EXPORT_COUNTING_COLUMNS) {
        if (!column.has(f)) continue;
        const cell = row.fields[column.get(f)!]!;
        value[f] = f === 'completed' ? cell === 'true' : cell;
      }
      return { line: row.line, pointer: '', value, locate: () => row.line };
    });
  } else {
    located = format === 'jsonl' ? parseJsonLines(text, file) : parseJsonArrayDocument(text, file, 'export records');
  }
  const records: CountableRecord[] = [];
  const firstLine = new Map<string, number>();
  for (const value of located) {
    const r = exportRecordLabels(value, file, problems);
    if (!r) continue;
    const key = JSON.stringify([r.item_id, r.annotator]);
    const before = firstLine.get(key);
    if (before !== undefined) {
      problems.push({ file, line: value.line, field: 'item_id', stage: 'rule', message: `a second record for item "${r.item_id}" by "${r.annotator}" (the first is on line ${before})` });
      continue;
    }
    firstLine.set(key, value.line);
    records.push(r);
  }
  if (problems.length > 0) throw new InputError(problems);
  // one counting session per annotator (and kind), in the file's order
  const sessions = new Map<string, { annotator: string; kind: 'annotator' | 'room'; items: CountableRecord[] }>();
  for (const r of records) {
    const key = JSON.stringify([r.annotator, r.kind]);
    if (!sessions.has(key)) sessions.set(key, { annotator: r.annotator, kind: r.kind, items: [] });
    sessions.get(key)!.items.push(r);
  }
  return countedLabels([...sessions.values()], rules);
}
