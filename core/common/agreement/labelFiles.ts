import { CsvStream, type CsvRow } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import { describeJsonType, JsonLinesStream, type LocatedValue } from '../io/jsonInput';
import { JsonArrayStream } from '../io/jsonArrayStream';
import type { LabelRecord } from './agreementAnalysis';

/** The columns of a label table for `aloud agreement --csv`: one label per annotator and item. */
export const LABEL_CSV_COLUMNS = ['item', 'annotator', 'label'] as const;

/**
 * `item,annotator,label` rows (any column order, no other columns). An empty label is missing; item and annotator
 * must not be empty and a pair must not repeat. Every problem names its line.
 */
export function parseLabelCsv(text: string, file: string): LabelRecord[] {
  const records: LabelRecord[] = [];
  const reader = new LabelCsvReader(file, (r) => records.push(r));
  reader.push(text);
  reader.end();
  return records;
}

/** parseLabelCsv a piece of text at a time; every problem is thrown together at the end (a syntax error at once). */
export class LabelCsvReader {
  private readonly csv: CsvStream;
  private readonly headerProblems: InputProblem[] = [];
  private readonly problems: InputProblem[] = [];
  private readonly firstLine = new Map<string, number>();
  private column = new Map<string, number>();

  constructor(
    private readonly file: string,
    private readonly onRecord: (record: LabelRecord) => void,
  ) {
    this.csv = new CsvStream(file, {}, { onHeader: (h) => this.header(h), onRow: (r) => this.row(r) });
  }

  push(text: string): void {
    this.csv.push(text);
  }

  end(): void {
    this.csv.end();
    if (this.headerProblems.length > 0) throw new InputError(this.headerProblems);
    if (this.problems.length > 0) throw new InputError(this.problems);
  }

  private header(header: CsvRow): void {
    const { file } = this;
    this.column = new Map(header.fields.map((name, i) => [name, i]));
    for (const name of LABEL_CSV_COLUMNS) {
      if (!this.column.has(name)) this.headerProblems.push({ file, line: header.line, field: name, stage: 'schema', message: `the header has no column "${name}" (expected item,annotator,label)` });
    }
    for (const name of header.fields) {
      if (!(LABEL_CSV_COLUMNS as readonly string[]).includes(name)) this.headerProblems.push({ file, line: header.line, field: name, stage: 'schema', message: `unknown column "${name}" (expected item,annotator,label)` });
    }
  }

  private row(row: CsvRow): void {
    if (this.headerProblems.length > 0) return;
    const { file, problems } = this;
    const [item, annotator, label] = LABEL_CSV_COLUMNS.map((name) => (row.fields[this.column.get(name)!] ?? '').trim());
    if (item === '') problems.push({ file, line: row.line, field: 'item', stage: 'rule', message: 'the item is empty' });
    if (annotator === '') problems.push({ file, line: row.line, field: 'annotator', stage: 'rule', message: 'the annotator is empty' });
    if (item === '' || annotator === '') return;
    const key = JSON.stringify([item, annotator]);
    const before = this.firstLine.get(key);
    if (before !== undefined) {
      problems.push({ file, line: row.line, field: 'label', stage: 'rule', message: `a second label for item "${item}" by "${annotator}" (the first is on line ${before}); give one label per pair` });
      return;
    }
    this.firstLine.set(key, row.line);
    this.onRecord({ item_id: item!, annotator: annotator!, blind_label: null, final_label: label === '' ? null : label! });
  }
}

/** Fields every export schema version has (v1 and v2); anything else in a record (v2's label_history…) is left alone. */
const EXPORT_LABEL_FIELDS = ['item_id', 'annotator', 'blind_label', 'final_label'] as const;

function exportRecordLabels(located: LocatedValue, file: string, problems: InputProblem[]): LabelRecord | null {
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
  return { item_id: record.item_id as string, annotator: record.annotator as string, blind_label: record.blind_label as string | null, final_label: record.final_label as string | null };
}

/** Labels from an `aloud export` file (jsonl, json or csv; schema v1 or v2), read tolerantly: only the label fields count. */
export function parseExportLabels(text: string, file: string, format: 'jsonl' | 'json' | 'csv'): LabelRecord[] {
  const records: LabelRecord[] = [];
  const reader = new ExportLabelsReader(file, format, (r) => records.push(r));
  reader.push(text);
  reader.end();
  return records;
}

/**
 * parseExportLabels a piece of text at a time, keeping only each record's labels (so an export of any size is read
 * in the memory of its labels). Problems are thrown together at the end, as the whole-text reading throws them: the
 * lines that do not parse (JSON Lines) alone when there are any, else the records it cannot use; a JSON syntax error
 * or a CSV that is not a table at once.
 */
export class ExportLabelsReader {
  private readonly feed: { push(text: string): void; end(): void };
  private readonly parseProblems: InputProblem[] = [];
  private readonly headerProblems: InputProblem[] = [];
  private readonly problems: InputProblem[] = [];
  private readonly firstLine = new Map<string, number>();
  private column = new Map<string, number>();

  constructor(
    private readonly file: string,
    format: 'jsonl' | 'json' | 'csv',
    private readonly onRecord: (record: LabelRecord) => void,
    maxRecordBytes?: number,
  ) {
    if (format === 'jsonl') this.feed = new JsonLinesStream(file, (v) => this.record(v), (p) => this.parseProblems.push(p));
    else if (format === 'json') this.feed = new JsonArrayStream(file, 'export records', (v) => this.record(v), maxRecordBytes);
    else this.feed = new CsvStream(file, {}, { onHeader: (h) => this.header(h), onRow: (r) => this.row(r) }, maxRecordBytes);
  }

  push(text: string): void {
    this.feed.push(text);
  }

  end(): void {
    this.feed.end();
    for (const problems of [this.parseProblems, this.headerProblems, this.problems]) if (problems.length > 0) throw new InputError(problems);
  }

  private header(header: CsvRow): void {
    this.column = new Map(header.fields.map((name, i) => [name, i]));
    for (const field of EXPORT_LABEL_FIELDS) {
      if (!this.column.has(field)) this.headerProblems.push({ file: this.file, line: header.line, field, stage: 'schema', message: `the header has no column "${field}" (is this an aloud export?)` });
    }
  }

  private row(row: CsvRow): void {
    if (this.headerProblems.length > 0) return;
    const value = Object.fromEntries(EXPORT_LABEL_FIELDS.map((f) => {
      const cell = row.fields[this.column.get(f)!] ?? '';
      return [f, cell === '' && (f === 'blind_label' || f === 'final_label') ? null : cell];
    }));
    this.record({ line: row.line, pointer: '', value, locate: () => row.line });
  }

  private record(located: LocatedValue): void {
    const r = exportRecordLabels(located, this.file, this.problems);
    if (!r) return;
    const key = JSON.stringify([r.item_id, r.annotator]);
    const before = this.firstLine.get(key);
    if (before !== undefined) {
      this.problems.push({ file: this.file, line: located.line, field: 'item_id', stage: 'rule', message: `a second record for item "${r.item_id}" by "${r.annotator}" (the first is on line ${before})` });
      return;
    }
    this.firstLine.set(key, located.line);
    this.onRecord(r);
  }
}
