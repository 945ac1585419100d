import { escapeCsvFormula, formatCsv, unescapeCsvFormula, type CsvTable } from '../io/csv';
import type { InputProblem } from '../io/inputProblem';
import type { LocatedValue } from '../io/jsonInput';
import { JsonSyntaxError, parseStrictJson } from '../io/strictJson';
import { CSV_COLUMNS, readCsvCell } from './exportCsvColumns';
import { EXPORT_FIELDS, EXPORT_FIELDS_V2, type ExportRecordV2 } from './exportRecord';

export type ExportFormat = 'jsonl' | 'json' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'json', 'csv'];

/** CSV columns holding nested values, written as JSON text. */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['commitments', 'segments', 'signals', 'audio', 'model']);
/** CSV columns that may be null; an empty cell is null (so in CSV an empty transcript and no transcript look alike). */
const NULLABLE_COLUMNS: ReadonlySet<string> = new Set([
  'item_context_sha256', 'final_label', 'label_source', 'blind_label', 'transcript', 'started_at', 'completed_at',
]);

function inFieldOrder(record: ExportRecordV2): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of EXPORT_FIELDS_V2) ordered[key] = record[key];
  return ordered;
}

/**
 * The bytes of an export file: JSON Lines (one record a line), a JSON array, or CSV (RFC 4180, CRLF) with the flat
 * columns of CSV_COLUMNS (no JSON in cells; segments and tokens only in JSONL and JSON).
 */
export function serializeExport(records: readonly ExportRecordV2[], format: ExportFormat): string {
  if (format === 'jsonl') return records.map((r) => `${JSON.stringify(inFieldOrder(r))}\n`).join('');
  if (format === 'json') return `${JSON.stringify(records.map(inFieldOrder), null, 2)}\n`;
  return formatCsv(
    CSV_COLUMNS.map((c) => c.name),
    records.map((r) => CSV_COLUMNS.map((c) => csvCell(c.value(r)))),
  );
}

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  return typeof value === 'string' ? escapeCsvFormula(value) : String(value);
}

/** Which export a CSV header is: v1 (JSON columns such as `commitments`) or v2 (flat columns). */
export function csvExportVersion(header: readonly string[]): 1 | 2 {
  return header.includes('commitments') && !header.includes('label_history') ? 1 : 2;
}

/** v2 CSV rows back to typed cell objects for the schema stage: the header must be exactly the v2 columns. */
export function exportCsvV2ToValues(table: CsvTable, file: string): { records: LocatedValue[]; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const header = new Set(table.header);
  for (const c of CSV_COLUMNS) {
    if (!header.has(c.name) && !c.optional) problems.push({ file, line: table.headerLine, field: c.name, stage: 'schema', message: `the header has no column "${c.name}"` });
  }
  // columns added to v2 later come all together, group by group, or not at all (a file cut down by hand is not a v2 export)
  for (const group of new Set(CSV_COLUMNS.flatMap((c) => (c.optional ? [c.optional] : [])))) {
    const optional = CSV_COLUMNS.filter((c) => c.optional === group);
    const optionalPresent = optional.filter((c) => header.has(c.name));
    if (optionalPresent.length === 0 || optionalPresent.length === optional.length) continue;
    for (const c of optional) {
      if (!header.has(c.name)) problems.push({ file, line: table.headerLine, field: c.name, stage: 'schema', message: `the header has no column "${c.name}" (it has ${optionalPresent.map((p) => p.name).join(', ')}: the ${group === 'vad' ? 'vad_*' : group} columns come all together)` });
    }
  }
  const known = new Map(CSV_COLUMNS.map((c) => [c.name, c]));
  for (const name of table.header) {
    if (!known.has(name)) problems.push({ file, line: table.headerLine, field: name, stage: 'schema', message: 'unknown column (no additional properties are allowed)' });
  }
  if (problems.length > 0) return { records: [], problems };
  const records = table.rows.map((row): LocatedValue => {
    const value: Record<string, unknown> = {};
    table.header.forEach((name, i) => {
      value[name] = readCsvCell(known.get(name)!, unescapeCsvFormula(row.fields[i] ?? ''));
    });
    return { line: row.line, pointer: '', value, locate: () => row.line };
  });
  return { records, problems };
}

/**
 * v1 CSV export rows back to record objects for the schema stage: the header must name exactly the v1 export fields;
 * JSON columns are parsed strictly (a bad cell is a parse problem of that column), empty nullable cells are null.
 */
export function exportCsvToValues(table: CsvTable, file: string): { records: LocatedValue[]; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const header = new Set(table.header);
  for (const field of EXPORT_FIELDS) {
    if (!header.has(field)) problems.push({ file, line: table.headerLine, field, stage: 'schema', message: `the header has no column "${field}"` });
  }
  const known: ReadonlySet<string> = new Set(EXPORT_FIELDS);
  for (const name of table.header) {
    if (!known.has(name)) problems.push({ file, line: table.headerLine, field: name, stage: 'schema', message: 'unknown column (no additional properties are allowed)' });
  }
  if (problems.length > 0) return { records: [], problems };
  const records: LocatedValue[] = [];
  for (const row of table.rows) {
    const value: Record<string, unknown> = {};
    let rowOk = true;
    table.header.forEach((name, i) => {
      const cell = unescapeCsvFormula(row.fields[i] ?? '');
      if (name === 'schema_version') value[name] = /^-?\d+$/.test(cell) ? Number(cell) : cell;
      else if (JSON_COLUMNS.has(name)) {
        if (cell === '') value[name] = null;
        else {
          try {
            value[name] = parseStrictJson(cell).value;
          } catch (e) {
            if (!(e instanceof JsonSyntaxError)) throw e;
            rowOk = false;
            problems.push({ file, line: row.line, field: name, stage: 'parse', message: `cell is not valid JSON: ${e.message}` });
          }
        }
      } else value[name] = NULLABLE_COLUMNS.has(name) && cell === '' ? null : cell;
    });
    if (rowOk) records.push({ line: row.line, pointer: '', value, locate: () => row.line });
  }
  return { records, problems };
}

export function exportFormatFromFileName(file: string): ExportFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.csv')) return 'csv';
  return null;
}
