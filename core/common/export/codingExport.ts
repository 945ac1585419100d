import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import type { ExportCodings, ExportRecordV2 } from './exportRecord';
import { checkReceipt } from '../io/fileReceipt';
import { escapeCsvFormula, formatCsv, parseCsv, unescapeCsvFormula } from '../io/csv';
import type { InputProblem } from '../io/inputProblem';
import type { CodingUnitKind } from '../project/projectConfig';
import { compareUnits, type ProtocolCoding } from '../coding/codingFold';
import type { CodingUnit } from '../coding/codingUnits';

/**
 * The `codings` of a protocol's export record: its current units with the codes each coder gave their words, then
 * the units of an earlier transcript that still carry codes (`current: false`, with the words they were given to),
 * and the coders with when they finished. Null when no coder coded it.
 */
export function protocolCodings(
  units: readonly CodingUnit[],
  kind: CodingUnitKind,
  coders: ReadonlyArray<{ coder: string; coding: ProtocolCoding | null }>,
): ExportCodings | null {
  const coding = coders.filter(
    (c): c is { coder: string; coding: ProtocolCoding } =>
      c.coding !== null && (c.coding.finished !== null || c.coding.units.some((u) => u.codes.length > 0)),
  );
  if (coding.length === 0) return null;
  const current = new Map(units.map((u) => [u.unit, u]));
  const rows = new Map<string, ExportCodings['units'][number]>(
    units.map((u) => [
      `${u.unit}\u0000${u.text}`,
      { unit: u.unit, text: u.text, t0_ms: u.t0_ms, t1_ms: u.t1_ms, current: true, codes: {} },
    ]),
  );
  for (const { coder, coding: own } of coding) {
    for (const u of own.units) {
      if (u.codes.length === 0) continue;
      const key = `${u.unit}\u0000${u.unit_text}`;
      let row = rows.get(key);
      if (!row)
        rows.set(
          key,
          (row = {
            unit: u.unit,
            text: u.unit_text,
            t0_ms: u.t0_ms,
            t1_ms: u.t1_ms,
            current: current.get(u.unit)?.text === u.unit_text,
            codes: {},
          }),
        );
      row.codes[coder] = u.codes.map((c) => ({
        code: c.code,
        memo: c.memo,
        applied_at: c.applied_at,
        codebook_version: c.codebook_version,
        after_finished: c.after_finished,
      }));
    }
  }
  return {
    unit_kind: kind,
    coders: coding.map(({ coder, coding: own }) => ({ coder, finished_at: own.finished?.at ?? null })),
    units: [...rows.values()].sort((a, b) => Number(b.current) - Number(a.current) || compareUnits(a.unit, b.unit)),
  };
}

/** The columns of `<export>.units.csv`: one row per unit of every coded protocol. */
export const UNITS_CSV_COLUMNS = [
  'project',
  'annotator',
  'item_id',
  'unit',
  'text',
  't0_ms',
  't1_ms',
  'current',
  'final_label',
  'blind_label',
  'coders',
  'codes',
  'memos',
] as const;

/** Inside a list cell, `\`, `|` and `=` of a name are escaped with `\`; entries are joined with " | ". */
const escapeEntry = (value: string): string => value.replace(/[\\|=]/g, (c) => `\\${c}`);
const list = (entries: readonly string[]): string => entries.join(' | ');

/**
 * units.csv beside a CSV export (RFC 4180, CRLF; no JSON in cells): per unit its words, times, whether it is a unit of
 * the current transcript, the annotator's labels, the coders who finished the item (`coders`), the codes as
 * `coder=code` entries and the memos as `coder=code=memo` entries, joined with " | " (names escaped as above).
 */
export function unitsCsv(
  records: ReadonlyArray<Pick<ExportRecordV2, 'project' | 'annotator' | 'item_id' | 'final_label' | 'blind_label' | 'codings'>>,
): { text: string; rows: number } {
  const rows: string[][] = [];
  for (const r of records) {
    if (!r.codings) continue;
    for (const u of r.codings.units) {
      const codes = Object.entries(u.codes).flatMap(([coder, given]) => given.map((c) => `${escapeEntry(coder)}=${escapeEntry(c.code)}`));
      const memos = Object.entries(u.codes).flatMap(([coder, given]) =>
        given.filter((c) => c.memo !== null).map((c) => `${escapeEntry(coder)}=${escapeEntry(c.code)}=${escapeEntry(c.memo!)}`),
      );
      const cells: Array<string | number | boolean | null> = [
        r.project,
        r.annotator,
        r.item_id,
        u.unit,
        u.text,
        u.t0_ms,
        u.t1_ms,
        u.current,
        r.final_label,
        r.blind_label,
        list(r.codings.coders.filter((c) => c.finished_at !== null).map((c) => escapeEntry(c.coder))),
        list(codes),
        list(memos),
      ];
      rows.push(cells.map((c) => (c === null ? '' : typeof c === 'string' ? escapeCsvFormula(c) : String(c))));
    }
  }
  return { text: formatCsv([...UNITS_CSV_COLUMNS], rows), rows: rows.length };
}

/** `<export>.units.csv.receipt.json`, written after the units file: what it holds and how to check it. */
export interface UnitsReceiptV1 {
  receipt_version: 1;
  kind: 'units';
  file: string;
  /** the records export the units belong to (beside it) */
  records_file: string;
  sha256: string;
  bytes: number;
  rows: number;
  project: string;
  app_version: string;
  created_at: string;
}

export const unitsReceiptSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['receipt_version', 'kind', 'file', 'records_file', 'sha256', 'bytes', 'rows', 'project', 'app_version', 'created_at'],
  properties: {
    receipt_version: { const: 1 },
    kind: { const: 'units' },
    file: { type: 'string', minLength: 1 },
    records_file: { type: 'string', minLength: 1 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    bytes: { type: 'integer', minimum: 0 },
    rows: { type: 'integer', minimum: 0 },
    project: { type: 'string' },
    app_version: { type: 'string' },
    created_at: { type: 'string', minLength: 1 },
  },
} as const;

// compiled when first used (an import costs nothing), its schema checked against the meta-schema by a test
const validateUnitsReceipt = compileOnFirstUse(() => sharedAjv({ allErrors: true, strict: true }).compile(unitsReceiptSchema));

/** The units file's name beside a CSV records export: `records.csv` → `records.units.csv`. */
export function unitsFileName(recordsFile: string): string {
  return recordsFile.replace(/\.csv$/i, '') + '.units.csv';
}

/** Whether a CSV's header is a units file's. */
export function isUnitsCsvText(text: string): boolean {
  return text.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0] === UNITS_CSV_COLUMNS.join(',');
}

/** A units receipt against the file it names (sha256, size, name) and the rows the file holds. */
export function unitsReceiptProblems(
  receiptText: string,
  receiptFile: string,
  actual: { fileName: string; sha256: string; bytes: number; rows: number | null },
): InputProblem[] {
  const { problems, receipt, rule } = checkReceipt<UnitsReceiptV1>(receiptText, receiptFile, validateUnitsReceipt, actual);
  if (receipt && actual.rows !== null && receipt.rows !== actual.rows)
    rule('/rows', `the file has ${actual.rows} rows, the receipt says ${receipt.rows}`);
  return problems;
}

/** The stages on a units.csv: parse (RFC 4180), the header, and each row's cells (numbers, booleans, unit ids). */
export function validateUnitsCsvText(text: string, file: string): { rows: number | null; problems: InputProblem[] } {
  let table;
  try {
    table = parseCsv(text, file, { rawControls: 'allow' });
  } catch (e) {
    const problems = (e as { problems?: InputProblem[] }).problems;
    if (problems) return { rows: null, problems };
    throw e;
  }
  const problems: InputProblem[] = [];
  if (table.header.join(',') !== UNITS_CSV_COLUMNS.join(',')) {
    return {
      rows: null,
      problems: [
        { file, line: table.headerLine, field: null, stage: 'schema', message: `the header must be ${UNITS_CSV_COLUMNS.join(',')}` },
      ],
    };
  }
  for (const row of table.rows) {
    const cell = (name: (typeof UNITS_CSV_COLUMNS)[number]): string =>
      unescapeCsvFormula(row.fields[UNITS_CSV_COLUMNS.indexOf(name)] ?? '');
    const bad = (field: string, message: string): void => {
      problems.push({ file, line: row.line, field, stage: 'schema', message });
    };
    if (!/^u(0|[1-9]\d*)(\.s(0|[1-9]\d*))?$/.test(cell('unit'))) bad('unit', `"${cell('unit')}" is not a unit id`);
    for (const name of ['t0_ms', 't1_ms'] as const) if (!/^\d+(\.\d+)?$/.test(cell(name))) bad(name, `"${cell(name)}" is not a time in ms`);
    if (cell('current') !== 'true' && cell('current') !== 'false') bad('current', `"${cell('current')}" is not true or false`);
    for (const name of ['project', 'annotator', 'item_id'] as const) if (cell(name) === '') bad(name, `the ${name} is empty`);
  }
  return { rows: table.rows.length, problems };
}
