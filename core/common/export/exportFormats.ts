import { escapeCsvFormula, formatCsv, unescapeCsvFormula, type CsvTable } from '../io/csv';
import type { InputProblem } from '../io/inputProblem';
import type { LocatedValue } from '../io/jsonInput';
import { JsonSyntaxError, parseStrictJson } from '../io/strictJson';
import type { Item } from '../items/item';
import { csvColumnsOf, ITEM_CSV_COLUMNS, readCsvCell, type CsvColumn } from './exportCsvColumns';
import { EXPORT_FIELDS, EXPORT_FIELDS_V3, type ExportRecord } from './exportRecord';

export type ExportFormat = 'jsonl' | 'json' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'json', 'csv'];

/** CSV columns holding nested values, written as JSON text. */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['commitments', 'segments', 'signals', 'audio', 'model']);
/** CSV columns that may be null; an empty cell is null (so in CSV an empty transcript and no transcript look alike). */
const NULLABLE_COLUMNS: ReadonlySet<string> = new Set([
  'item_context_sha256', 'final_label', 'label_source', 'blind_label', 'transcript', 'started_at', 'completed_at',
]);

function inFieldOrder(record: ExportRecord): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of EXPORT_FIELDS_V3) ordered[key] = record[key];
  return ordered;
}

/**
 * The bytes of an export file: JSON Lines (one record a line), a JSON array, or CSV (RFC 4180, CRLF) with the flat
 * columns of CSV_COLUMNS (no JSON in cells; segments and tokens only in JSONL and JSON). `items` (CSV only, `--with-items`):
 * the item's text, context and further fields in columns of their own at the end.
 */
export function serializeExport(records: readonly ExportRecord[], format: ExportFormat, options: { items?: ReadonlyMap<string, Item> } = {}): string {
  if (format === 'jsonl') return records.map((r) => `${JSON.stringify(inFieldOrder(r))}\n`).join('');
  if (format === 'json') return `${JSON.stringify(records.map(inFieldOrder), null, 2)}\n`;
  const columns = csvColumnsOf(3);
  const items = options.items;
  return formatCsv(
    [...columns.map((c) => c.name), ...(items ? ITEM_CSV_COLUMNS.map((c) => c.name) : [])],
    records.map((r) => [...columns.map((c) => csvCell(c.value(r))), ...(items ? ITEM_CSV_COLUMNS.map((c) => csvCell(c.value(items.get(r.item_id)))) : [])]),
  );
}

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  return typeof value === 'string' ? escapeCsvFormula(value) : String(value);
}

/** Which export a CSV header is: v1 (JSON columns such as `commitments`), v2 (flat columns) or v3 (flat, with `completed`). */
export function csvExportVersion(header: readonly string[]): 1 | 2 | 3 {
  if (header.includes('commitments') && !header.includes('label_history')) return 1;
  return header.includes('completed') ? 3 : 2;
}

/** Flat (v2, v3) CSV rows back to typed cell objects for the schema stage: the header must be exactly that version's columns. */
export function exportCsvFlatToValues(table: CsvTable, file: string, version: 2 | 3): { records: LocatedValue[]; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const header = new Set(table.header);
  const CSV_COLUMNS = csvColumnsOf(version);
  for (const c of CSV_COLUMNS) {
    if (!header.has(c.name) && !c.optional) problems.push({ file, line: table.headerLine, field: c.name, stage: 'schema', message: `the header has no column "${c.name}"` });
  }
  // columns added to v2 later come all together or not at all (a file cut down by hand is not a v2 export)
  const optional = CSV_COLUMNS.filter((c) => c.optional);
  const optionalPresent = optional.filter((c) => header.has(c.name));
  if (optionalPresent.length > 0 && optionalPresent.length < optional.length) {
    for (const c of optional) {
      if (!header.has(c.name)) problems.push({ file, line: table.headerLine, field: c.name, stage: 'schema', message: `the header has no column "${c.name}" (it has ${optionalPresent.map((p) => p.name).join(', ')}: the vad_* columns come all together)` });
    }
  }
  const itemColumns = version === 3 ? ITEM_CSV_COLUMNS.filter((c) => header.has(c.name)) : [];
  if (itemColumns.length > 0 && itemColumns.length < ITEM_CSV_COLUMNS.length) {
    for (const c of ITEM_CSV_COLUMNS) {
      if (!header.has(c.name)) problems.push({ file, line: table.headerLine, field: c.name, stage: 'schema', message: `the header has no column "${c.name}" (the item columns of --with-items come all together)` });
    }
  }
  const cellTypes: Array<Pick<CsvColumn, 'name' | 'type' | 'nullable'>> = [...CSV_COLUMNS, ...(version === 3 ? ITEM_CSV_COLUMNS.map((c) => ({ name: c.name, type: 'string' as const, nullable: true })) : [])];
  const known = new Map(cellTypes.map((c) => [c.name, c]));
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
