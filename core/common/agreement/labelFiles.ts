import { CsvStream, type CsvRow } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import { describeJsonType, JsonLinesStream, type LocatedValue } from '../io/jsonInput';
import { JsonArrayStream } from '../io/jsonArrayStream';
import type { LabelRecord } from './agreementAnalysis';
import { countedLabels, type CountableItem, type CountingReport, type CountingRules } from './countingRules';

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

/**
 * What the two label readers share: the CSV header's columns, the problems found so far, and the line each
 * (item, annotator) pair was first given on, so a second one is refused naming it.
 */
abstract class PairLabelReader {
  protected readonly headerProblems: InputProblem[] = [];
  protected readonly problems: InputProblem[] = [];
  protected column = new Map<string, number>();
  private readonly firstLine = new Map<string, number>();

  constructor(protected readonly file: string) {}

  /** The line the pair was first given on; undefined when this is its first, which `line` then becomes. */
  protected earlierLine(item: string, annotator: string, line: number): number | undefined {
    const key = JSON.stringify([item, annotator]);
    const before = this.firstLine.get(key);
    if (before === undefined) this.firstLine.set(key, line);
    return before;
  }
}

/** parseLabelCsv a piece of text at a time; every problem is thrown together at the end (a syntax error at once). */
export class LabelCsvReader extends PairLabelReader {
  private readonly csv: CsvStream;

  constructor(
    file: string,
    private readonly onRecord: (record: LabelRecord) => void,
  ) {
    super(file);
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
      if (!this.column.has(name))
        this.headerProblems.push({
          file,
          line: header.line,
          field: name,
          stage: 'schema',
          message: `the header has no column "${name}" (expected item,annotator,label)`,
        });
    }
    for (const name of header.fields) {
      if (!(LABEL_CSV_COLUMNS as readonly string[]).includes(name))
        this.headerProblems.push({
          file,
          line: header.line,
          field: name,
          stage: 'schema',
          message: `unknown column "${name}" (expected item,annotator,label)`,
        });
    }
  }

  private row(row: CsvRow): void {
    if (this.headerProblems.length > 0) return;
    const { file, problems } = this;
    const [item, annotator, label] = LABEL_CSV_COLUMNS.map((name) => (row.fields[this.column.get(name)!] ?? '').trim());
    if (item === '') problems.push({ file, line: row.line, field: 'item', stage: 'rule', message: 'the item is empty' });
    if (annotator === '') problems.push({ file, line: row.line, field: 'annotator', stage: 'rule', message: 'the annotator is empty' });
    if (item === '' || annotator === '') return;
    const before = this.earlierLine(item!, annotator!, row.line);
    if (before !== undefined) {
      problems.push({
        file,
        line: row.line,
        field: 'label',
        stage: 'rule',
        message: `a second label for item "${item}" by "${annotator}" (the first is on line ${before}); give one label per pair`,
      });
      return;
    }
    this.onRecord({ item_id: item!, annotator: annotator!, blind_label: null, final_label: label === '' ? null : label! });
  }
}

/** Fields every export schema version has (v1, v2, v3); anything else in a record (v2's label_history…) is left alone. */
const EXPORT_LABEL_FIELDS = ['item_id', 'annotator', 'blind_label', 'final_label'] as const;

/** The CSV columns that say how to count a record, when the file has them (v1, v2: completed_at; v3: completed, session_kind, own_final_label). */
const EXPORT_COUNTING_COLUMNS = ['completed_at', 'completed', 'session_kind', 'own_final_label'] as const;

/** One export record as agreement counts it: whose, which kind of session, completed or not, each act with whose it is. */
export interface CountableRecord extends CountableItem {
  annotator: string;
  kind: 'annotator' | 'room';
}

/**
 * What a record says about counting, read as its version recorded it: v3 says whether the item was completed, the kind
 * of session and who made each act; v1 and v2 (and CSV rows) say when it was completed and, in v3 CSV, the
 * annotator's own final label beside the final one. The record's blind label stays its first label.
 */
function countableOf(record: Record<string, unknown>, labels: LabelRecord): CountableRecord {
  const completed =
    typeof record.completed === 'boolean' ? record.completed : typeof record.completed_at === 'string' && record.completed_at !== '';
  const kind = record.session_kind === 'room' ? 'room' : 'annotator';
  const history = record.label_history;
  let acts: CountableItem['acts'];
  if (Array.isArray(history) && history.length > 0 && history.every((a) => typeof (a as { label?: unknown } | null)?.label === 'string')) {
    acts = (history as Array<{ label: string; reviewer?: unknown }>).map((a) => ({
      label: a.label,
      reviewer: typeof a.reviewer === 'string' ? a.reviewer : null,
    }));
  } else {
    // a row without the timeline: the final label, and the annotator's own final before a reviewer's (v3 CSV)
    const own =
      typeof record.own_final_label === 'string' && record.own_final_label !== ''
        ? record.own_final_label
        : 'own_final_label' in record
          ? null
          : labels.final_label;
    acts = [
      ...(own !== null ? [{ label: own, reviewer: null }] : []),
      ...(labels.final_label !== null && labels.final_label !== own ? [{ label: labels.final_label, reviewer: 'a reviewer' }] : []),
    ];
  }
  return {
    item_id: labels.item_id,
    annotator: labels.annotator,
    kind,
    completed,
    acts,
    blind: labels.blind_label,
    final: labels.final_label,
  };
}

/** Export records counted under the rules, one counting session per annotator and kind (in the file's order). */
export function countExportRecords(
  records: readonly CountableRecord[],
  rules: CountingRules,
): { records: LabelRecord[]; report: CountingReport } {
  const sessions = new Map<string, { annotator: string; kind: 'annotator' | 'room'; items: CountableRecord[] }>();
  for (const r of records) {
    const key = JSON.stringify([r.annotator, r.kind]);
    if (!sessions.has(key)) sessions.set(key, { annotator: r.annotator, kind: r.kind, items: [] });
    sessions.get(key)!.items.push(r);
  }
  return countedLabels([...sessions.values()], rules);
}

function exportRecordLabels(located: LocatedValue, file: string, problems: InputProblem[]): CountableRecord | null {
  const v = located.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.push({
      file,
      line: located.line,
      field: null,
      stage: 'schema',
      message: `an export record must be an object, not ${describeJsonType(v)}`,
    });
    return null;
  }
  const record = v as Record<string, unknown>;
  let ok = true;
  for (const field of EXPORT_LABEL_FIELDS) {
    const x = record[field];
    const nullable = field === 'blind_label' || field === 'final_label';
    if (!(typeof x === 'string' && x !== '') && !(nullable && x === null)) {
      ok = false;
      problems.push({
        file,
        line: located.locate(`/${field}`),
        field,
        stage: 'schema',
        message: `${field} must be ${nullable ? 'a label or null' : 'a non-empty string'}, not ${x === undefined ? 'missing' : x === '' ? 'empty' : describeJsonType(x)}`,
      });
    }
  }
  if (!ok) return null;
  return countableOf(record, {
    item_id: record.item_id as string,
    annotator: record.annotator as string,
    blind_label: record.blind_label as string | null,
    final_label: record.final_label as string | null,
  });
}

/** Labels from an `aloud export` file (jsonl, json or csv; schema v1, v2 or v3), read tolerantly, every label as it is (no counting rule). */
export function parseExportLabels(text: string, file: string, format: 'jsonl' | 'json' | 'csv'): LabelRecord[] {
  return readExportLabels(text, file, format, { includeIncomplete: true, includeReviewers: true, includeRooms: true }).records;
}

/** Labels from an `aloud export` file's text counted under the rules (countingRules). */
export function readExportLabels(
  text: string,
  file: string,
  format: 'jsonl' | 'json' | 'csv',
  rules: CountingRules,
): { records: LabelRecord[]; report: CountingReport } {
  const records: CountableRecord[] = [];
  const reader = new ExportLabelsReader(file, format, (r) => records.push(r));
  reader.push(text);
  reader.end();
  return countExportRecords(records, rules);
}

/**
 * parseExportLabels a piece of text at a time, keeping only each record's labels (so an export of any size is read
 * in the memory of its labels). Problems are thrown together at the end, as the whole-text reading throws them: the
 * lines that do not parse (JSON Lines) alone when there are any, else the records it cannot use; a JSON syntax error
 * or a CSV that is not a table at once.
 */
export class ExportLabelsReader extends PairLabelReader {
  private readonly feed: { push(text: string): void; end(): void };
  private readonly parseProblems: InputProblem[] = [];

  constructor(
    file: string,
    format: 'jsonl' | 'json' | 'csv',
    private readonly onRecord: (record: CountableRecord) => void,
    maxRecordBytes?: number,
  ) {
    super(file);
    if (format === 'jsonl')
      this.feed = new JsonLinesStream(
        file,
        (v) => this.record(v),
        (p) => this.parseProblems.push(p),
      );
    else if (format === 'json') this.feed = new JsonArrayStream(file, 'export records', (v) => this.record(v), maxRecordBytes);
    else this.feed = new CsvStream(file, {}, { onHeader: (h) => this.header(h), onRow: (r) => this.row(r) }, maxRecordBytes);
  }

  push(text: string): void {
    this.feed.push(text);
  }

  end(): void {
    this.feed.end();
    for (const problems of [this.parseProblems, this.headerProblems, this.problems])
      if (problems.length > 0) throw new InputError(problems);
  }

  private header(header: CsvRow): void {
    this.column = new Map(header.fields.map((name, i) => [name, i]));
    for (const field of EXPORT_LABEL_FIELDS) {
      if (!this.column.has(field))
        this.headerProblems.push({
          file: this.file,
          line: header.line,
          field,
          stage: 'schema',
          message: `the header has no column "${field}" (is this an aloud export?)`,
        });
    }
  }

  private row(row: CsvRow): void {
    if (this.headerProblems.length > 0) return;
    const value: Record<string, unknown> = Object.fromEntries(
      EXPORT_LABEL_FIELDS.map((f) => {
        const cell = row.fields[this.column.get(f)!] ?? '';
        return [f, cell === '' && (f === 'blind_label' || f === 'final_label') ? null : cell];
      }),
    );
    for (const f of EXPORT_COUNTING_COLUMNS) {
      if (!this.column.has(f)) continue;
      const cell = row.fields[this.column.get(f)!] ?? '';
      value[f] = f === 'completed' ? cell === 'true' : cell;
    }
    this.record({ line: row.line, pointer: '', value, locate: () => row.line });
  }

  private record(located: LocatedValue): void {
    const r = exportRecordLabels(located, this.file, this.problems);
    if (!r) return;
    const before = this.earlierLine(r.item_id, r.annotator, located.line);
    if (before !== undefined) {
      this.problems.push({
        file: this.file,
        line: located.line,
        field: 'item_id',
        stage: 'rule',
        message: `a second record for item "${r.item_id}" by "${r.annotator}" (the first is on line ${before})`,
      });
      return;
    }
    this.onRecord(r);
  }
}
