import { findCode } from '../codebook/codebook';
import { parseCsv, unescapeCsvFormula } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import type { SessionEntry } from '../session/sessionFold';
import type { CodingFold } from './codingFold';
import { sameName } from '../names/personNames';
import { codeActData, type CodingContext, type ProtocolFacts } from './codingRules';

/** The columns of `aloud import --codings FILE.csv`; memo is optional. `annotator` is whose protocol, `coder` who coded it. */
export const CODINGS_CSV_COLUMNS = ['item', 'annotator', 'unit', 'coder', 'code'] as const;
export const CODINGS_CSV_OPTIONAL = ['memo'] as const;

/** The rows one codings import checks (its check is linear: 200,000 rows take seconds; see bench/codingsImport.ts). */
export const MAX_CODINGS_ROWS = 1_000_000;
/**
 * The coders one codings import brings: each new coder is a session of her own (a folder, a lock, a log made durable),
 * milliseconds each, so a table of a team's coders imports in seconds and one of 200,000 "coders" is refused at once.
 */
export const MAX_CODINGS_CODERS = 1_000;

export interface CodingRow {
  line: number;
  item: string;
  annotator: string;
  unit: string;
  coder: string;
  code: string;
  memo: string | null;
}

/** The rows of a codings table (any column order; memo optional, no other columns); every problem names its line and column. */
export function parseCodingsCsv(text: string, file: string, maxRows: number = MAX_CODINGS_ROWS): CodingRow[] {
  const table = parseCsv(text, file);
  if (table.rows.length > maxRows)
    // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
    throw new InputError([
      {
        file,
        line: null,
        field: null,
        stage: 'input',
        message: `${table.rows.length} rows are more than one codings import takes (at most ${maxRows}); split the table`,
      },
    ]);
  const problems: InputProblem[] = [];
  const column = new Map(table.header.map((name, i) => [name, i]));
  const expected = `expected ${[...CODINGS_CSV_COLUMNS, '[memo]'].join(',')}`;
  for (const name of CODINGS_CSV_COLUMNS) {
    if (!column.has(name))
      problems.push({
        file,
        line: table.headerLine,
        field: name,
        stage: 'schema',
        message: `the header has no column "${name}" (${expected})`,
      });
  }
  for (const name of table.header) {
    if (![...CODINGS_CSV_COLUMNS, ...CODINGS_CSV_OPTIONAL].includes(name as never))
      problems.push({ file, line: table.headerLine, field: name, stage: 'schema', message: `unknown column "${name}" (${expected})` });
  }
  // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
  if (problems.length > 0) throw new InputError(problems);
  const rows: CodingRow[] = [];
  for (const row of table.rows) {
    const cell = (name: string): string => unescapeCsvFormula(row.fields[column.get(name)!] ?? '').trim();
    const values = Object.fromEntries(CODINGS_CSV_COLUMNS.map((name) => [name, cell(name)])) as Record<
      (typeof CODINGS_CSV_COLUMNS)[number],
      string
    >;
    let ok = true;
    for (const name of CODINGS_CSV_COLUMNS) {
      if (values[name] === '') {
        ok = false;
        problems.push({ file, line: row.line, field: name, stage: 'schema', message: `the ${name} is empty` });
      }
    }
    const memo = column.has('memo') ? cell('memo') : '';
    if (ok) rows.push({ line: row.line, ...values, memo: memo === '' ? null : memo });
  }
  // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
  if (problems.length > 0) throw new InputError(problems);
  if (rows.length === 0)
    // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
    throw new InputError([{ file, line: table.headerLine, field: null, stage: 'rule', message: 'the table has no codings' }]);
  const coders = new Set<string>();
  for (const row of rows) {
    coders.add(row.coder);
    if (coders.size > MAX_CODINGS_CODERS) {
      const total = new Set(rows.map((r) => r.coder)).size;
      // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
      throw new InputError([
        {
          file,
          line: row.line,
          field: 'coder',
          stage: 'input',
          message: `${total} coders are more than one codings import takes (at most ${MAX_CODINGS_CODERS}, each a session of her own; this row names coder ${MAX_CODINGS_CODERS + 1}); split the table by coder`,
        },
      ]);
    }
  }
  return rows;
}

/** What the import decides with: each protocol as its annotator's log holds it (or why it cannot be coded), each coder's log. */
export interface CodingImportFacts {
  file: string;
  /** the protocol of `annotator` on `item`, or a reason there is none (no such item, no session, nothing transcribed) */
  protocol(annotator: string, item: string): ProtocolFacts | string;
  /** what the coder's log holds of a protocol so far, or null when they have no session yet */
  coderFold(coder: string): Pick<CodingFold, 'protocolCoding'> | null;
  /** a coder name that cannot be a session name: why */
  coderProblem(coder: string): string | null;
  context: Omit<CodingContext, 'coder'>;
}

/**
 * Codings made elsewhere, all or nothing: every row is checked (the item and the annotator's protocol exist and are
 * final, the unit is one of its units, the code is in the codebook, the coder may code it, no row twice, one code per
 * unit in an exclusive codebook, a protocol the coder has not coded in Aloud already), and any problem refuses the
 * whole file. Each coder gets their codings as their own events: code_applied (source "import") and coding_memo per
 * row, then coding_finished per protocol (a protocol coded elsewhere is coded whole: its other units have no code).
 */
export function decideImportedCodings(rows: readonly CodingRow[], facts: CodingImportFacts): Map<string, SessionEntry[]> {
  const { file, context } = facts;
  const problems: InputProblem[] = [];
  const say = (line: number, field: string, message: string): void => {
    problems.push({ file, line, field, stage: 'rule', message });
  };
  const codebook = context.codebook;
  if (!codebook)
    // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
    throw new InputError([
      {
        file,
        line: null,
        field: null,
        stage: 'rule',
        message: context.problem ?? "the project has no codebook.yaml: codings name codes of the project's codebook",
      },
    ]);
  const seen = new Map<string, number>();
  const perUnit = new Map<string, number>();
  const accepted: Array<{ row: CodingRow; protocol: ProtocolFacts; code: string; unit: ProtocolFacts['units'][number] }> = [];
  for (const row of rows) {
    const coderProblem = facts.coderProblem(row.coder);
    if (coderProblem !== null) say(row.line, 'coder', coderProblem);
    const protocol = facts.protocol(row.annotator, row.item);
    if (typeof protocol === 'string') {
      say(row.line, 'item', protocol);
      continue;
    }
    if (!protocol.final) {
      say(
        row.line,
        'item',
        `the transcript of "${row.item}" by ${row.annotator} is not final (the item is not completed): its units could still change`,
      );
      continue;
    }
    if (!context.config.own_protocols && sameName(protocol.annotator, row.coder)) {
      say(
        row.line,
        'coder',
        `"${row.coder}" codes their own protocol, and this project codes only other annotators' protocols (aloud.yaml coding.own_protocols: false)`,
      );
    }
    const unit = protocol.units.find((u) => u.unit === row.unit);
    if (!unit) {
      say(
        row.line,
        'unit',
        `"${row.unit}" is not a unit of "${row.item}" by ${row.annotator} (units: ${protocol.units.map((u) => u.unit).join(', ')}; see aloud session units)`,
      );
      continue;
    }
    const def = findCode(codebook.codebook, row.code);
    if (!def) {
      say(
        row.line,
        'code',
        `"${row.code}" is not a code of the codebook (codes: ${codebook.codebook.codes.map((c) => c.name).join(', ')})`,
      );
      continue;
    }
    const key = JSON.stringify([row.coder, protocol.annotator, protocol.item_id, unit.unit, def.name]);
    const before = seen.get(key);
    if (before !== undefined) {
      say(row.line, 'code', `"${def.name}" on ${unit.unit} by ${row.coder} is also on line ${before}`);
      continue;
    }
    seen.set(key, row.line);
    const unitKey = JSON.stringify([row.coder, protocol.annotator, protocol.item_id, unit.unit]);
    const other = perUnit.get(unitKey);
    if (codebook.codebook.exclusive && other !== undefined)
      say(
        row.line,
        'code',
        `a second code on ${unit.unit} by ${row.coder} (the first is on line ${other}); the codebook is exclusive: one code per unit`,
      );
    perUnit.set(unitKey, row.line);
    const coded = facts.coderFold(row.coder)?.protocolCoding(protocol.annotator, protocol.item_id);
    if (coded && (coded.finished || coded.units.some((u) => u.codes.length > 0))) {
      say(
        row.line,
        'coder',
        `${row.coder} has coded "${protocol.item_id}" by ${protocol.annotator} in Aloud already; import codings only for protocols not coded yet`,
      );
      continue;
    }
    accepted.push({ row, protocol, code: def.name, unit });
  }
  // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
  if (problems.length > 0) throw new InputError(problems);

  const byCoder = new Map<string, SessionEntry[]>();
  const finished = new Map<string, { coder: string; protocol: ProtocolFacts }>();
  for (const { row, protocol, code, unit } of accepted) {
    const entries = byCoder.get(row.coder) ?? [];
    byCoder.set(row.coder, entries);
    const data = codeActData(protocol, unit, code, row.coder, codebook.version, 'import', false);
    entries.push({ type: 'code_applied', data });
    if (row.memo !== null)
      entries.push({
        type: 'coding_memo',
        data: {
          annotator: protocol.annotator,
          item_id: protocol.item_id,
          unit: unit.unit,
          code,
          coder: row.coder,
          text: row.memo,
          codebook_version: codebook.version,
        },
      });
    finished.set(JSON.stringify([row.coder, protocol.annotator, protocol.item_id]), { coder: row.coder, protocol });
  }
  for (const { coder, protocol } of finished.values()) {
    byCoder.get(coder)!.push({
      type: 'coding_finished',
      data: {
        annotator: protocol.annotator,
        item_id: protocol.item_id,
        coder,
        units: protocol.units.map((u) => u.unit),
        codebook_version: codebook.version,
      },
    });
  }
  return byCoder;
}
