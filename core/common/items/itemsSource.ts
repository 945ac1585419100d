import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseCsv, type CsvTable } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import { parseJsonArrayDocument, parseJsonLines, type LocatedValue } from '../io/jsonInput';
import { schemaProblems } from '../io/schemaProblems';
import type { Item } from './item';

/** Formats a file of items (or of conversation messages) may have, chosen by file name. */
export type TabularFormat = 'jsonl' | 'json' | 'csv';

export function formatFromFileName(file: string): TabularFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.csv')) return 'csv';
  return null;
}

/** The parse stage for any tabular file: one located JSON object (or CSV row as an object of strings) per record. */
export function parseRecords(text: string, file: string, format: TabularFormat, what: string): LocatedValue[] {
  if (format === 'jsonl') return parseJsonLines(text, file);
  if (format === 'json') return parseJsonArrayDocument(text, file, what);
  return csvRowsAsValues(parseCsv(text, file));
}

/** CSV rows as objects keyed by column name, so JSON and CSV share one schema stage; a field's line is its row's. */
export function csvRowsAsValues(table: CsvTable): LocatedValue[] {
  return table.rows.map((row) => {
    const value: Record<string, string> = {};
    table.header.forEach((name, i) => {
      Object.defineProperty(value, name, { value: row.fields[i] ?? '', enumerable: true, writable: true, configurable: true });
    });
    return { line: row.line, pointer: '', value, locate: () => row.line };
  });
}

const nonBlank = { type: 'string', minLength: 1, pattern: '\\S' } as const;

/** JSON Schema (Draft 2020-12) of one item record; keys other than these four are kept as metadata. */
export const itemRecordJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/item.json',
  title: 'Aloud item (one line of an items file)',
  type: 'object',
  required: ['id', 'text'],
  properties: {
    id: nonBlank,
    text: nonBlank,
    context: nonBlank,
    meta: { type: 'object' },
  },
} as const;

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validateItemRecord = ajv.compile(itemRecordJsonSchema);

/** Schema and rule stages for item records: every problem of the file is collected before rejecting. */
export function itemsFromRecords(records: readonly LocatedValue[], file: string): Item[] {
  const schemaStage: InputProblem[] = [];
  for (const record of records) {
    if (!validateItemRecord(record.value)) schemaStage.push(...schemaProblems(validateItemRecord.errors, file, record));
  }
  if (schemaStage.length > 0) throw new InputError(schemaStage);

  const ruleStage: InputProblem[] = [];
  const firstLine = new Map<string, number>();
  const items: Item[] = [];
  for (const record of records) {
    const { id, text, context, meta, ...rest } = record.value as { id: string; text: string; context?: string; meta?: Record<string, unknown> } & Record<string, unknown>;
    const at = (field: string, message: string): void => {
      ruleStage.push({ file, line: record.line, field: fieldIn(record, field), stage: 'rule', message });
    };
    if (id !== id.trim()) at('id', `item id ${JSON.stringify(id)} has leading or trailing whitespace; ids are compared exactly`);
    if (/[\u0000-\u001f\u007f]/.test(id)) at('id', `item id ${JSON.stringify(id)} contains a control character`);
    const first = firstLine.get(id);
    if (first !== undefined) at('id', `duplicate item id "${id}" (first on line ${first})`);
    else firstLine.set(id, record.line);
    for (const key of Object.keys(rest)) {
      if (meta && Object.hasOwn(meta, key)) at(key, `"${key}" is given both as a field and inside "meta"`);
    }
    const metadata: Record<string, unknown> = { ...meta };
    for (const [key, value] of Object.entries(rest)) Object.defineProperty(metadata, key, { value, enumerable: true, writable: true, configurable: true });
    items.push({ id, text, ...(context !== undefined ? { context } : {}), ...(Object.keys(metadata).length > 0 ? { meta: metadata } : {}) });
  }
  if (ruleStage.length > 0) throw new InputError(ruleStage);
  return items;
}

function fieldIn(record: LocatedValue, field: string): string {
  return record.pointer === '' ? field : `[${record.pointer.slice(1)}].${field}`;
}

/** Items from the text of a JSONL, JSON-array or CSV file (CSV: header row with id and text; other columns are metadata). */
export function parseItemsText(text: string, file: string, format: TabularFormat): Item[] {
  if (format !== 'csv') return itemsFromRecords(parseRecords(text, file, format, 'items'), file);
  const table = parseCsv(text, file);
  requireColumns(table, file, ['id', 'text']);
  const records = csvRowsAsValues(table);
  // An empty context cell means "no context"; other empty cells stay as given (metadata is kept verbatim).
  for (const record of records) {
    const row = record.value as Record<string, string>;
    if (row.context === '') delete row.context;
  }
  return itemsFromRecords(records, file);
}

/** Schema stage for a CSV header: names each missing column on the header line. */
export function requireColumns(table: CsvTable, file: string, columns: readonly string[]): void {
  const missing = columns.filter((c) => !table.header.includes(c));
  if (missing.length > 0) {
    throw new InputError(missing.map((c) => ({ file, line: table.headerLine, field: c, stage: 'schema' as const, message: `the header must have a column "${c}" (found: ${table.header.join(', ')})` })));
  }
}
