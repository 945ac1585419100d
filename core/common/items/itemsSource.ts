import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { parseCsv, type CsvTable } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import { parseJsonArrayDocument, parseJsonLines, type LocatedValue } from '../io/jsonInput';
import { schemaProblems } from '../io/schemaProblems';
import { resolveModelLabel, type LabelSchemaContext } from '../reasoning/modelLabel';
import { LabelMatcher } from '../parser/labelMatch';
import { JsonSyntaxError, parseStrictJson } from '../io/strictJson';
import { itemIdKey, itemIdProblem } from '../names/nameRules';
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

/** JSON Schema (Draft 2020-12) of one item record; keys other than these are kept as metadata. */
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
    model_reasoning: nonBlank,
    model_steps: { type: 'array', minItems: 1, items: nonBlank },
    model_label: nonBlank,
    meta: { type: 'object' },
  },
} as const;

const ajv = sharedAjv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateItemRecord = compileOnFirstUse(() => ajv.compile(itemRecordJsonSchema));

/**
 * Where item records come from. An import source is new input: its ids are NFC-normalised and must be ids a
 * session can record (the file-name rules, counted as sessions count them; no invisible or text-direction
 * characters). The project's own items file is read as it was written, so the sessions that name its ids still
 * find them. Both refuse two ids that read the same (one id in two Unicode forms, or with an invisible character).
 */
export type ItemsSource = 'import' | 'project';

/**
 * Schema and rule stages for item records: every problem of the file is collected before rejecting. With the
 * project's label schema, `model_label` is resolved to a label name (and must name exactly one label).
 */
export function itemsFromRecords(
  records: readonly LocatedValue[],
  file: string,
  schema?: LabelSchemaContext,
  source: ItemsSource = 'project',
): Item[] {
  const schemaStage: InputProblem[] = [];
  for (const record of records) {
    if (!validateItemRecord(record.value)) schemaStage.push(...schemaProblems(validateItemRecord.errors, file, record));
  }
  if (schemaStage.length > 0) throw new InputError(schemaStage);

  const ruleStage: InputProblem[] = [];
  const firstLine = new Map<string, { line: number; id: string }>();
  const items: Item[] = [];
  const matcher = schema ? new LabelMatcher(schema.labels, schema.languages) : null;
  for (const record of records) {
    const {
      id: given,
      text,
      context,
      meta,
      model_reasoning,
      model_steps,
      model_label,
      ...rest
    } = record.value as Item & Record<string, unknown>;
    const at = (field: string, message: string): void => {
      ruleStage.push({ file, line: record.line, field: fieldIn(record, field), stage: 'rule', message });
    };
    const id = source === 'import' ? given.normalize('NFC') : given;
    // two ids that read the same are named first, with both lines: that is the problem to fix
    const key = itemIdKey(given);
    const first = firstLine.get(key);
    if (first === undefined) firstLine.set(key, { line: record.line, id: given });
    else if (first.id === given) at('id', `duplicate item id "${given}" (first on line ${first.line})`);
    else
      at(
        'id',
        `item id ${JSON.stringify(given)} is item id ${JSON.stringify(first.id)} of line ${first.line} in another form (Unicode normalisation or an invisible character): one id, two items; give each item its own id`,
      );
    if (/[\u0000-\u001f\u007f]/.test(id)) at('id', `item id ${JSON.stringify(id)} contains a control character`);
    else if (source === 'import') {
      const problem = itemIdProblem(id);
      if (problem !== null && first === undefined) at('id', problem);
    } else if (id !== id.trim()) at('id', `item id ${JSON.stringify(id)} has leading or trailing whitespace; ids are compared exactly`);
    for (const key of Object.keys(rest)) {
      if (meta && Object.hasOwn(meta, key)) at(key, `"${key}" is given both as a field and inside "meta"`);
    }
    if (model_reasoning !== undefined && model_steps !== undefined) {
      at(
        'model_steps',
        'give the model\'s reasoning either as "model_reasoning" (one text, split into steps) or as "model_steps" (a list), not both',
      );
    }
    let modelLabel = model_label;
    if (model_label !== undefined && schema && matcher) {
      const resolved = resolveModelLabel(model_label, schema, matcher);
      if (!('problem' in resolved)) modelLabel = resolved.label;
      else if (schema.unresolved !== 'keep') at('model_label', resolved.problem);
    }
    const metadata: Record<string, unknown> = { ...meta };
    for (const [key, value] of Object.entries(rest))
      Object.defineProperty(metadata, key, { value, enumerable: true, writable: true, configurable: true });
    items.push({
      id,
      text,
      ...(context !== undefined ? { context } : {}),
      ...(model_reasoning !== undefined ? { model_reasoning } : {}),
      ...(model_steps !== undefined ? { model_steps: [...model_steps] } : {}),
      ...(modelLabel !== undefined ? { model_label: modelLabel } : {}),
      ...(Object.keys(metadata).length > 0 ? { meta: metadata } : {}),
    });
  }
  if (ruleStage.length > 0) throw new InputError(ruleStage);
  return items;
}

function fieldIn(record: LocatedValue, field: string): string {
  return record.pointer === '' ? field : `[${record.pointer.slice(1)}].${field}`;
}

/** Items from the text of a JSONL, JSON-array or CSV file (CSV: header row with id and text; other columns are metadata). */
export function parseItemsText(
  text: string,
  file: string,
  format: TabularFormat,
  schema?: LabelSchemaContext,
  source: ItemsSource = 'project',
): Item[] {
  if (format !== 'csv') return itemsFromRecords(parseRecords(text, file, format, 'items'), file, schema, source);
  const table = parseCsv(text, file);
  requireColumns(table, file, ['id', 'text']);
  return itemsFromRecords(itemCsvRecords(csvRowsAsValues(table), file), file, schema, source);
}

/** Optional item columns where an empty CSV cell means "absent" (other empty cells are metadata, kept verbatim). */
export const ITEM_OPTIONAL_COLUMNS = ['context', 'model_reasoning', 'model_steps', 'model_label'];

/**
 * The CSV-only stage for item rows: empty optional cells become absent, and a `model_steps` cell, which holds a
 * JSON array of strings, is parsed strictly (a bad cell is a parse problem of that row and column).
 */
export function itemCsvRecords(records: LocatedValue[], file: string): LocatedValue[] {
  const problems: InputProblem[] = [];
  for (const record of records) {
    const row = record.value as Record<string, unknown>;
    for (const column of ITEM_OPTIONAL_COLUMNS) if (row[column] === '') delete row[column];
    if (typeof row.model_steps === 'string') {
      try {
        row.model_steps = parseStrictJson(row.model_steps).value;
      } catch (e) {
        if (!(e instanceof JsonSyntaxError)) throw e;
        problems.push({
          file,
          line: record.line,
          field: 'model_steps',
          stage: 'parse',
          message: `a model_steps cell holds a JSON array of strings, e.g. ["First …","Then …"]: ${e.message}`,
        });
      }
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return records;
}

/** Schema stage for a CSV header: names each missing column on the header line. */
export function requireColumns(table: CsvTable, file: string, columns: readonly string[]): void {
  const missing = columns.filter((c) => !table.header.includes(c));
  if (missing.length > 0) {
    throw new InputError(
      missing.map((c) => ({
        file,
        line: table.headerLine,
        field: c,
        stage: 'schema' as const,
        message: `the header must have a column "${c}" (found: ${table.header.join(', ')})`,
      })),
    );
  }
}
