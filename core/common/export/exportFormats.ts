import { escapeCsvFormula, formatCsvRecord, unescapeCsvFormula, type CsvRow } from '../io/csv';
import type { InputProblem } from '../io/inputProblem';
import type { LocatedValue } from '../io/jsonInput';
import { JsonSyntaxError, parseStrictJson } from '../io/strictJson';
import type { Item } from '../items/item';
import { csvColumnsOf, ITEM_CSV_COLUMNS, readCsvCell, type CsvColumn } from './exportCsvColumns';
import { EXPORT_FIELDS, EXPORT_FIELDS_V5, type ExportRecord } from './exportRecord';

export type ExportFormat = 'jsonl' | 'json' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'json', 'csv'];

/** CSV columns holding nested values, written as JSON text. */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['commitments', 'segments', 'signals', 'audio', 'model']);
/** CSV columns that may be null; an empty cell is null (so in CSV an empty transcript and no transcript look alike). */
const NULLABLE_COLUMNS: ReadonlySet<string> = new Set([
  'item_context_sha256',
  'final_label',
  'label_source',
  'blind_label',
  'transcript',
  'started_at',
  'completed_at',
]);

/** The record with its keys in EXPORT_FIELDS_V5 order (itself when they already are, as buildExportRecord makes them). */
function inFieldOrder(record: ExportRecord): Record<string, unknown> {
  let i = 0;
  let inOrder = true;
  for (const key in record) {
    if (key !== EXPORT_FIELDS_V5[i++]) {
      inOrder = false;
      break;
    }
  }
  if (inOrder && i === EXPORT_FIELDS_V5.length) return record as unknown as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of EXPORT_FIELDS_V5) ordered[key] = record[key];
  return ordered;
}

/**
 * The bytes of an export file: JSON Lines (one record a line), a JSON array, or CSV (RFC 4180, CRLF) with the flat
 * columns of CSV_COLUMNS (no JSON in cells; segments and tokens only in JSONL and JSON).
 */
export function serializeExport(records: readonly ExportRecord[], format: ExportFormat, options: ExportTextOptions = {}): string {
  const writer = exportTextWriter(format, options);
  return writer.head + records.map((r, i) => writer.record(r, i)).join('') + writer.tail(records.length);
}

/** An export's text in pieces, so it can be written record by record: head, each record's text in turn, tail. */
export interface ExportTextWriter {
  head: string;
  /** the text of the record at `index` (the separator before it included) */
  record(record: ExportRecord, index: number): string;
  tail(records: number): string;
}

/** `items` (CSV only, `--with-items`): the item's text, context and further fields in columns of their own at the end. */
export interface ExportTextOptions {
  items?: ReadonlyMap<string, Item>;
}

/** The pieces of serializeExport: their concatenation is byte for byte the text serializeExport gives. */
export function exportTextWriter(format: ExportFormat, options: ExportTextOptions = {}): ExportTextWriter {
  if (format === 'jsonl') return { head: '', record: (r) => `${JSON.stringify(inFieldOrder(r))}\n`, tail: () => '' };
  if (format === 'json') {
    // JSON.stringify(array, null, 2) puts each element on its own lines one level in: a one-element array, without its
    // brackets ("[\n" and "\n]"), is the element as the whole array holds it (no second pass to indent it)
    return {
      head: '[',
      record: (r, index) => `${index === 0 ? '\n' : ',\n'}${JSON.stringify([inFieldOrder(r)], null, 2).slice(2, -2)}`,
      tail: (records) => (records === 0 ? ']\n' : '\n]\n'),
    };
  }
  const items = options.items;
  const names = [...csvColumnsOf(5).map((c) => c.name), ...(items ? ITEM_CSV_COLUMNS.map((c) => c.name) : [])];
  const cells = (r: ExportRecord) => [
    ...csvRowCells(r),
    ...(items ? ITEM_CSV_COLUMNS.map((c) => csvCell(c.value(items.get(r.item_id)))) : []),
  ];
  return { head: `${formatCsvRecord(names)}\r\n`, record: (r) => `${formatCsvRecord(cells(r))}\r\n`, tail: () => '' };
}

/** A record's CSV cells, in the v4 column order, formula-escaped as exports write them. */
export function csvRowCells(record: ExportRecord): string[] {
  return csvColumnsOf(5).map((c) => csvCell(c.value(record)));
}

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  return typeof value === 'string' ? escapeCsvFormula(value) : String(value);
}

/** Which export a CSV header is: v1 (JSON columns such as `commitments`), v2 (flat columns), v3 (flat, with `completed`), v4 (with `commitment_spans`) or v5 (with `time_on_item_active_ms`). */
export function csvExportVersion(header: readonly string[]): 1 | 2 | 3 | 4 | 5 {
  if (header.includes('commitments') && !header.includes('label_history')) return 1;
  if (header.includes('time_on_item_active_ms')) return 5;
  return header.includes('commitment_spans') ? 4 : header.includes('completed') ? 3 : 2;
}

/**
 * How the rows of an export CSV become values for the schema stage, one row at a time: the header's problems (a v2
 * header must be exactly the v2 columns, a v1 header the v1 export fields), and each row's value or its problems.
 */
export interface ExportCsvRows {
  /** a flat CSV (v2 or v3): rows are typed cells, checked by that version's row schema; null: v1 */
  flat: 2 | 3 | 4 | 5 | null;
  headerProblems: InputProblem[];
  row(row: CsvRow): { value: LocatedValue; problems?: undefined } | { value?: undefined; problems: InputProblem[] };
}

export function exportCsvRows(header: readonly string[], headerLine: number, file: string): ExportCsvRows {
  const version = csvExportVersion(header);
  return version === 1 ? exportCsvV1Rows(header, headerLine, file) : exportCsvFlatRows(header, headerLine, file, version);
}

/** Flat (v2, v3) CSV rows back to typed cell objects for the schema stage: the header must be exactly that version's columns. */
function exportCsvFlatRows(header: readonly string[], headerLine: number, file: string, version: 2 | 3 | 4 | 5): ExportCsvRows {
  const problems: InputProblem[] = [];
  const names = new Set(header);
  const CSV_COLUMNS = csvColumnsOf(version);
  const required = CSV_COLUMNS.filter((c) => !c.optional).map((c) => c.name);
  problems.push(...missingColumnProblems(required, names, headerLine, file));
  // columns added to v2 later come all together, group by group, or not at all (a file cut down by hand is not a v2 export)
  for (const group of new Set(CSV_COLUMNS.flatMap((c) => (c.optional ? [c.optional] : [])))) {
    const optional = CSV_COLUMNS.filter((c) => c.optional === group);
    const optionalPresent = optional.filter((c) => names.has(c.name));
    if (optionalPresent.length === 0 || optionalPresent.length === optional.length) continue;
    problems.push(
      ...missingColumnProblems(
        optional.map((c) => c.name),
        names,
        headerLine,
        file,
        ` (it has ${optionalPresent.map((p) => p.name).join(', ')}: the ${group === 'vad' ? 'vad_*' : group} columns come all together)`,
      ),
    );
  }
  const itemColumns = version >= 3 ? ITEM_CSV_COLUMNS.filter((c) => names.has(c.name)) : [];
  if (itemColumns.length > 0 && itemColumns.length < ITEM_CSV_COLUMNS.length) {
    problems.push(
      ...missingColumnProblems(
        ITEM_CSV_COLUMNS.map((c) => c.name),
        names,
        headerLine,
        file,
        ' (the item columns of --with-items come all together)',
      ),
    );
  }
  const cellTypes: Array<Pick<CsvColumn, 'name' | 'type' | 'nullable'>> = [
    ...CSV_COLUMNS,
    ...(version >= 3 ? ITEM_CSV_COLUMNS.map((c) => ({ name: c.name, type: 'string' as const, nullable: true })) : []),
  ];
  const known = new Map(cellTypes.map((c) => [c.name, c]));
  problems.push(...unknownColumnProblems(header, known, headerLine, file));
  const columns = header.map((name) => known.get(name)!);
  return {
    flat: version,
    headerProblems: problems,
    row: (row) => {
      const value: Record<string, unknown> = {};
      columns.forEach((column, i) => {
        value[column.name] = readCsvCell(column, unescapeCsvFormula(row.fields[i] ?? ''));
      });
      return { value: { line: row.line, pointer: '', value, locate: () => row.line } };
    },
  };
}

/** One schema problem per wanted column the header lacks, in the wanted order; `why` follows the message. */
function missingColumnProblems(
  wanted: readonly string[],
  names: ReadonlySet<string>,
  headerLine: number,
  file: string,
  why = '',
): InputProblem[] {
  return wanted
    .filter((name) => !names.has(name))
    .map((name) => ({
      file,
      line: headerLine,
      field: name,
      stage: 'schema' as const,
      message: `the header has no column "${name}"${why}`,
    }));
}

/** One schema problem per header column the export version does not have, in header order. */
function unknownColumnProblems(
  header: readonly string[],
  known: { has(name: string): boolean },
  headerLine: number,
  file: string,
): InputProblem[] {
  return header
    .filter((name) => !known.has(name))
    .map((name) => ({
      file,
      line: headerLine,
      field: name,
      stage: 'schema' as const,
      message: 'unknown column (no additional properties are allowed)',
    }));
}

/**
 * v1 CSV export rows back to record objects for the schema stage: the header must name exactly the v1 export fields;
 * JSON columns are parsed strictly (a bad cell is a parse problem of that column), empty nullable cells are null.
 */
function exportCsvV1Rows(header: readonly string[], headerLine: number, file: string): ExportCsvRows {
  const problems: InputProblem[] = [];
  const names = new Set(header);
  problems.push(...missingColumnProblems(EXPORT_FIELDS, names, headerLine, file));
  problems.push(...unknownColumnProblems(header, new Set(EXPORT_FIELDS), headerLine, file));
  return {
    flat: null,
    headerProblems: problems,
    row: (row) => {
      const value: Record<string, unknown> = {};
      const cellProblems: InputProblem[] = [];
      header.forEach((name, i) => {
        const cell = unescapeCsvFormula(row.fields[i] ?? '');
        if (name === 'schema_version') value[name] = /^-?\d+$/.test(cell) ? Number(cell) : cell;
        else if (JSON_COLUMNS.has(name)) {
          if (cell === '') value[name] = null;
          else {
            try {
              value[name] = parseStrictJson(cell).value;
            } catch (e) {
              if (!(e instanceof JsonSyntaxError)) throw e;
              cellProblems.push({ file, line: row.line, field: name, stage: 'parse', message: `cell is not valid JSON: ${e.message}` });
            }
          }
        } else value[name] = NULLABLE_COLUMNS.has(name) && cell === '' ? null : cell;
      });
      return cellProblems.length > 0
        ? { problems: cellProblems }
        : { value: { line: row.line, pointer: '', value, locate: () => row.line } };
    },
  };
}

export function exportFormatFromFileName(file: string): ExportFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.csv')) return 'csv';
  return null;
}
