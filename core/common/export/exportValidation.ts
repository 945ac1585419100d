import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { CsvStream } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import { JsonLinesStream, syntaxProblem, type LocatedValue } from '../io/jsonInput';
import { JsonArrayStream } from '../io/jsonArrayStream';
import { schemaProblems } from '../io/schemaProblems';
import { parseStrictJson, parseStrictJsonValueAt } from '../io/strictJson';
import { csvColumnsOf, csvRowJsonSchema } from './exportCsvColumns';
import { csvRowCells, exportCsvRows, type ExportCsvRows, type ExportFormat } from './exportFormats';
import { ExportReceiptTally, type ExportSummaryRecord } from './exportReceipt';
import { exportRecordJsonSchemas, READABLE_SCHEMA_VERSIONS, type AnyExportRecord, type ExportRecord } from './exportRecord';
import { csvRowRuleChecker, exportRuleChecker, type ExportProjectFacts, type RuleChecker } from './exportRules';

/** What `aloud validate` found in one file: its format, its records, its receipt and every problem of every stage. */
export interface ExportFileValidation {
  file: string;
  format: string | null;
  /** records the file holds, when it could be parsed */
  records: number | null;
  /** "ok" when a receipt is beside the file and matches, "absent" without one, "invalid" otherwise */
  receipt: 'ok' | 'absent' | 'invalid';
  problems: InputProblem[];
  /** records transcribed by a scripted engine (tests, demos), never by whisper.cpp */
  scripted_records: number;
}

const ajv = sharedAjv({ allErrors: true, strict: true, allowUnionTypes: true });
const recordValidators = new Map(
  READABLE_SCHEMA_VERSIONS.map((v) => [v, compileOnFirstUse(() => ajv.compile<AnyExportRecord>(exportRecordJsonSchemas[v]!))]),
);
const csvRowValidators = {
  2: compileOnFirstUse(() => ajv.compile(csvRowJsonSchema(2))),
  3: compileOnFirstUse(() => ajv.compile(csvRowJsonSchema(3))),
  4: compileOnFirstUse(() => ajv.compile(csvRowJsonSchema(4))),
  5: compileOnFirstUse(() => ajv.compile(csvRowJsonSchema(5))),
};

/** The schema a record claims (schema_version), or the newest when it claims none this Aloud reads. */
function validatorFor(value: unknown): ValidateFunction {
  const version = (value as { schema_version?: unknown } | null)?.schema_version;
  return recordValidators.get(typeof version === 'number' ? version : -1) ?? recordValidators.get(Math.max(...READABLE_SCHEMA_VERSIONS))!;
}

export interface ExportValidation {
  /** records that passed the schema stage (rule problems are about these); for a v2 CSV, its rows as typed cells */
  records: AnyExportRecord[];
  /** records the parse stage could read (for comparing with a receipt); null when the file could not be read */
  parsedRecords: number | null;
  /** every record's summary fields (a receipt's counts and gaps are recomputed from them); null unless every record passed the parse and schema stages */
  summaries: ExportReceiptTally | null;
  problems: InputProblem[];
}

/** The summary fields of a flat (v2, v3) CSV row: its audio columns stand for the record's audio object. */
function csvRowSummary(row: Record<string, unknown>): ExportSummaryRecord {
  const audioPath = row.audio_path as string | null;
  return {
    schema_version: row.schema_version as 2 | 3 | 4 | 5,
    project: row.project as string,
    annotator: row.annotator as string,
    item_id: row.item_id as string,
    transcript: row.transcript as string | null,
    final_label: row.final_label as string | null,
    audio:
      audioPath === null
        ? null
        : { path: audioPath, sha256: row.audio_sha256 as string | null, duration_ms: row.audio_duration_ms as number },
  };
}

/**
 * The schema and rule stages of an export, one record at a time, keeping only what a receipt is checked against (the
 * tally) and the problems. A record that fails a stage is left out of the later ones, so every problem is listed
 * once, at the earliest stage it shows; problems come out grouped by stage (parse, schema, rule), each in file order,
 * as when the whole file was checked at once.
 */
export class ExportRecordsCheck {
  private readonly parseProblems: InputProblem[] = [];
  private readonly schemaStage: InputProblem[] = [];
  private readonly ruleStage: InputProblem[] = [];
  private ruleCheck: RuleChecker;
  /** records the parse stage read, well-formed or not */
  parsedRecords = 0;
  private valid = 0;
  readonly tally = new ExportReceiptTally();

  constructor(
    private readonly file: string,
    private readonly project: ExportProjectFacts | null,
    /** a record that passed the schema stage (its rule problems, if any, are listed) */
    private readonly onValid?: (record: AnyExportRecord) => void,
    private flat: 2 | 3 | 4 | 5 | null = null,
  ) {
    this.ruleCheck = flat ? csvRowRuleChecker(file, project) : exportRuleChecker(file, project);
  }

  /** From here on the records are the typed rows of a flat (v2, v3) CSV (their own schema and rules). */
  flatRows(version: 2 | 3 | 4 | 5): void {
    this.flat = version;
    this.ruleCheck = csvRowRuleChecker(this.file, this.project);
  }

  /** A record the parse stage read: its schema stage, then its rule stage when it passes. */
  record(located: LocatedValue): void {
    this.parsedRecords++;
    const validate = this.flat ? csvRowValidators[this.flat] : validatorFor(located.value);
    if (!validate(located.value)) {
      this.schemaStage.push(...schemaProblems(validate.errors, this.file, located));
      return;
    }
    this.valid++;
    this.tally.add(this.flat ? csvRowSummary(located.value as Record<string, unknown>) : (located.value as AnyExportRecord));
    this.ruleStage.push(...this.ruleCheck(located));
    this.onValid?.(located.value as AnyExportRecord);
  }

  /** A record the parse stage could not read: it counts, and its problems are listed. */
  unreadable(problems: readonly InputProblem[]): void {
    this.parsedRecords++;
    this.parseProblems.push(...problems);
  }

  /** Parse-stage problems of the file as a whole (a CSV header that is not an export's). */
  fileProblems(problems: readonly InputProblem[]): void {
    this.parseProblems.push(...problems);
  }

  finish(): { parsedRecords: number; summaries: ExportReceiptTally | null; problems: InputProblem[] } {
    const problems = [...this.parseProblems];
    if (this.parsedRecords === 0 && problems.length === 0)
      problems.push({ file: this.file, line: null, field: null, stage: 'rule', message: 'the export has no records' });
    problems.push(...this.schemaStage);
    const whole = problems.length === 0 && this.valid === this.parsedRecords;
    problems.push(...this.ruleStage);
    return { parsedRecords: this.parsedRecords, summaries: whole ? this.tally : null, problems };
  }
}

/**
 * Feeds the text of an export, a piece at a time, through its format's parse stage into an ExportRecordsCheck. A
 * parse failure of the whole file (a JSON syntax error, a CSV that is not a table) throws InputError from push or end,
 * as the whole-text parsers throw it.
 */
export class ExportTextReader {
  private readonly feed: { push(text: string): void; end(): void };
  private csvRows: ExportCsvRows | null = null;

  constructor(file: string, format: ExportFormat, check: ExportRecordsCheck, maxRecordBytes?: number) {
    if (format === 'jsonl')
      this.feed = new JsonLinesStream(
        file,
        (r) => check.record(r),
        (p) => check.unreadable([p]),
      );
    else if (format === 'json') this.feed = new JsonArrayStream(file, 'export records', (r) => check.record(r), maxRecordBytes);
    else {
      // an export's text cells hold what sessions hold (a note may carry a control character): JSONL escapes it, CSV cannot
      this.feed = new CsvStream(
        file,
        { rawControls: 'allow' },
        {
          onHeader: (header) => {
            this.csvRows = exportCsvRows(header.fields, header.line, file);
            if (this.csvRows.flat) check.flatRows(this.csvRows.flat);
            check.fileProblems(this.csvRows.headerProblems);
          },
          onRow: (row) => {
            const rows = this.csvRows!;
            if (rows.headerProblems.length > 0) {
              check.parsedRecords++;
              return;
            }
            const read = rows.row(row);
            if (read.problems) check.unreadable(read.problems);
            else check.record(read.value);
          },
        },
        maxRecordBytes,
      );
    }
  }

  push(text: string): void {
    this.feed.push(text);
  }

  end(): void {
    this.feed.end();
  }
}

/**
 * Parse, schema and rule stages on the text of an export (the input stage ran before, on bytes). A record that
 * fails a stage is left out of the later ones, so every problem is listed once, at the earliest stage it shows.
 */
export function validateExportText(text: string, file: string, format: ExportFormat, project: ExportProjectFacts | null): ExportValidation {
  const records: AnyExportRecord[] = [];
  const check = new ExportRecordsCheck(file, project, (r) => records.push(r));
  try {
    const reader = new ExportTextReader(file, format, check);
    reader.push(text);
    reader.end();
  } catch (e) {
    if (e instanceof InputError) return { records: [], parsedRecords: null, summaries: null, problems: e.problems };
    throw e;
  }
  return { records, ...check.finish() };
}

/** A lone surrogate JSON.stringify escaped (\udXXX not part of a pair): the strict reader refuses it. */
const ESCAPED_SURROGATE = /\\ud[89a-f]/i;

/**
 * What an export checks of each record as it writes it, instead of reading its own file back: the record's text
 * read back as a reader gets it (JSON.parse of exactly that text, a lone surrogate refused as the strict reader
 * refuses it; a CSV row's cells typed as `validate` types them), then the schema and rule stages of `aloud validate`,
 * located at the lines of the file being written (worked out only for a record with problems).
 */
export class ExportWriteCheck {
  private readonly check: ExportRecordsCheck;
  private readonly csvRows: ExportCsvRows | null;
  /** the line the next text written starts on */
  private line = 1;
  /** JSON: the first syntax problem refuses the whole file, as a reader stops at it */
  private jsonSyntax: InputProblem | null = null;

  constructor(
    private readonly file: string,
    private readonly format: ExportFormat,
    project: ExportProjectFacts | null,
  ) {
    this.check = new ExportRecordsCheck(file, project);
    this.csvRows =
      format === 'csv'
        ? exportCsvRows(
            csvColumnsOf(5).map((c) => c.name),
            1,
            file,
          )
        : null;
    if (this.csvRows?.flat) this.check.flatRows(this.csvRows.flat);
  }

  /** Text written that is not a record (a header, the brackets of a JSON array). */
  written(text: string): void {
    this.line += lineBreaks(text);
  }

  /** A record and its text, as the writer is about to write them (record `index` of the file). */
  record(record: ExportRecord, text: string, index: number): void {
    const line = this.line;
    this.line += lineBreaks(text);
    if (this.jsonSyntax) return;
    if (this.format === 'csv') {
      this.check.record(this.csvRows!.row({ line, fields: csvRowCells(record) }).value!);
      return;
    }
    if (this.format === 'jsonl') {
      const body = text.endsWith('\n') ? text.slice(0, -1) : text;
      if (ESCAPED_SURROGATE.test(body)) {
        try {
          parseStrictJson(body, { firstLine: line });
        } catch (e) {
          this.check.unreadable([syntaxProblem(e, this.file)]);
          return;
        }
      }
      this.check.record({ line, pointer: '', value: JSON.parse(body) as unknown, locate: () => line });
      return;
    }
    // JSON: the text is ",\n  {…}" (or "\n  {…}" first); its lines are worked out only when a problem asks for one
    const start = text.startsWith(',') ? 1 : 0;
    const at = { start, line, lineStart: 0, path: [index] };
    if (ESCAPED_SURROGATE.test(text)) {
      try {
        parseStrictJsonValueAt(text, at);
      } catch (e) {
        this.jsonSyntax = syntaxProblem(e, this.file);
        return;
      }
    }
    let lines: Map<string, number> | null = null;
    const prefix = `/${index}`;
    const locate = (pointer: string): number => {
      lines ??= parseStrictJsonValueAt(text, at, { trackLinesToDepth: 3 }).lines;
      for (let p = prefix + pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
        const found = lines.get(p);
        if (found !== undefined) return found;
        if (p === prefix || p === '') return lines.get(prefix) ?? line + 1;
      }
    };
    this.check.record({ line: line + 1, pointer: prefix, value: JSON.parse(text.slice(start)) as unknown, locate });
  }

  /** The problems of everything written, as `aloud validate` would list them for the file. */
  finish(): InputProblem[] {
    if (this.jsonSyntax) return [this.jsonSyntax];
    return this.check.finish().problems;
  }
}

function lineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
