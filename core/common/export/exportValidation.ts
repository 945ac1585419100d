import type { ValidateFunction } from 'ajv/dist/2020.js';
import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { parseCsv } from '../io/csv';
import { InputError, type InputProblem } from '../io/inputProblem';
import { parseJsonArrayDocument, readJsonLines, type LocatedValue } from '../io/jsonInput';
import { schemaProblems } from '../io/schemaProblems';
import { csvRowJsonSchema } from './exportCsvColumns';
import { csvExportVersion, exportCsvToValues, exportCsvV2ToValues, type ExportFormat } from './exportFormats';
import type { ExportSummaryRecord } from './exportReceipt';
import { exportRecordJsonSchemas, READABLE_SCHEMA_VERSIONS, type AnyExportRecord } from './exportRecord';
import { csvRowRuleProblems, exportRuleProblems, type ExportProjectFacts } from './exportRules';

const ajv = sharedAjv({ allErrors: true, strict: true, allowUnionTypes: true });
const recordValidators = new Map(READABLE_SCHEMA_VERSIONS.map((v) => [v, compileOnFirstUse(() => ajv.compile<AnyExportRecord>(exportRecordJsonSchemas[v]!))]));
const validateCsvRow = compileOnFirstUse(() => ajv.compile(csvRowJsonSchema()));

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
  summaries: ExportSummaryRecord[] | null;
  problems: InputProblem[];
}

/** The summary fields of a flat (v2) CSV row: its audio columns stand for the record's audio object. */
function csvRowSummary(row: Record<string, unknown>): ExportSummaryRecord {
  const audioPath = row.audio_path as string | null;
  return {
    schema_version: row.schema_version as 2,
    project: row.project as string,
    annotator: row.annotator as string,
    item_id: row.item_id as string,
    transcript: row.transcript as string | null,
    final_label: row.final_label as string | null,
    audio: audioPath === null ? null : { path: audioPath, sha256: row.audio_sha256 as string | null, duration_ms: row.audio_duration_ms as number },
  };
}

/**
 * Parse, schema and rule stages on the text of an export (the input stage ran before, on bytes). A record that
 * fails a stage is left out of the later ones, so every problem is listed once, at the earliest stage it shows.
 */
export function validateExportText(text: string, file: string, format: ExportFormat, project: ExportProjectFacts | null): ExportValidation {
  const problems: InputProblem[] = [];
  let parsed: LocatedValue[];
  let parsedRecords: number;
  let flatCsv = false;
  try {
    if (format === 'jsonl') {
      const read = readJsonLines(text, file);
      problems.push(...read.problems);
      parsed = read.records;
      parsedRecords = parsed.length + read.problems.length;
    } else if (format === 'json') {
      parsed = parseJsonArrayDocument(text, file, 'export records');
      parsedRecords = parsed.length;
    } else {
      // an export's text cells hold what sessions hold (a note may carry a control character): JSONL escapes it, CSV cannot
      const table = parseCsv(text, file, { rawControls: 'allow' });
      flatCsv = csvExportVersion(table.header) === 2;
      const converted = flatCsv ? exportCsvV2ToValues(table, file) : exportCsvToValues(table, file);
      problems.push(...converted.problems);
      parsed = converted.records;
      parsedRecords = table.rows.length;
    }
  } catch (e) {
    if (e instanceof InputError) return { records: [], parsedRecords: null, summaries: null, problems: e.problems };
    throw e;
  }
  if (parsedRecords === 0 && problems.length === 0) {
    problems.push({ file, line: null, field: null, stage: 'rule', message: 'the export has no records' });
  }
  const valid: LocatedValue[] = [];
  for (const record of parsed) {
    const validate = flatCsv ? validateCsvRow : validatorFor(record.value);
    if (validate(record.value)) valid.push(record);
    else problems.push(...schemaProblems(validate.errors, file, record));
  }
  const whole = problems.length === 0 && valid.length === parsedRecords;
  problems.push(...(flatCsv ? csvRowRuleProblems(valid, file, project) : exportRuleProblems(valid, file, project)));
  return {
    records: valid.map((r) => r.value as AnyExportRecord),
    parsedRecords,
    summaries: whole ? valid.map((r) => (flatCsv ? csvRowSummary(r.value as Record<string, unknown>) : (r.value as AnyExportRecord))) : null,
    problems,
  };
}
