import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import type { InputProblem } from '../io/inputProblem';
import { checkReceipt, RecordsTally, type RecordsFileReceipt } from '../io/fileReceipt';
import { EXPORT_SCHEMA_VERSION, exportGaps, READABLE_SCHEMA_VERSIONS, type AnyExportRecord, type ExportGap } from './exportRecord';
import type { ExportFormat } from './exportFormats';
import { deidentificationReceiptJsonSchema, type DeidentificationReceipt } from '../deidentified/deidentifyReceipt';

/** Written as FILE.receipt.json only after FILE is complete on disk: what was exported and how to check it. */
export interface ExportReceiptV1 extends RecordsFileReceipt {
  /** the export's schema_version */
  schema_version: number;
  format: ExportFormat;
  counts: {
    annotators: number;
    items: number;
    with_audio: number;
    with_transcript: number;
    with_final_label: number;
    gaps: number;
  };
  gaps: ExportGap[];
  /**
   * the project's aloud.yaml the export was made under, whole (a methods section quotes the thresholds, phrases and
   * labels from it) with its sha256 (the records' config_sha256); absent in receipts written before it was kept
   */
  config?: { sha256: string; yaml: string };
  /** present only on a de-identified export: the list, the method and what was hidden (core/common/deidentify) */
  deidentification?: DeidentificationReceipt;
}

export function receiptFileName(exportFile: string): string {
  return `${exportFile}.receipt.json`;
}

/** What a records receipt summarises of each record: all its summary fields are recomputed from these. */
export type ExportSummaryRecord = Pick<
  AnyExportRecord,
  'schema_version' | 'project' | 'annotator' | 'item_id' | 'audio' | 'transcript' | 'final_label'
>;

/** What a records receipt says of the file and the export beside the records' counts. */
export interface ExportReceiptFile {
  file: string;
  format: ExportFormat;
  sha256: string;
  bytes: number;
  project: string;
  appVersion: string;
  createdAt: string;
  config?: { sha256: string; yaml: string };
  deidentification?: DeidentificationReceipt;
}

export function buildExportReceipt(args: ExportReceiptFile & { records: readonly ExportSummaryRecord[] }): ExportReceiptV1 {
  const tally = new ExportReceiptTally();
  for (const record of args.records) tally.add(record);
  return tally.receipt(args);
}

/**
 * A records receipt's counts and gaps kept as records go by (an export writing them, a validator reading them), so
 * nobody holds the records to build or check it.
 */
export class ExportReceiptTally extends RecordsTally {
  private withAudio = 0;
  private withTranscript = 0;
  private withFinalLabel = 0;
  readonly gaps: ExportGap[] = [];
  /** distinct project names and schema versions of the records, in first-seen order */
  readonly projects = new Set<string>();
  readonly schemaVersions = new Set<number>();

  add(record: ExportSummaryRecord): void {
    this.countRecord(record.annotator, record.item_id);
    if (record.audio !== null) this.withAudio++;
    if (record.transcript !== null && record.transcript !== '') this.withTranscript++;
    if (record.final_label !== null) this.withFinalLabel++;
    this.projects.add(record.project);
    this.schemaVersions.add(record.schema_version);
    this.gaps.push(...exportGaps(record));
  }

  counts(): ExportReceiptV1['counts'] {
    return {
      ...this.distinct(),
      with_audio: this.withAudio,
      with_transcript: this.withTranscript,
      with_final_label: this.withFinalLabel,
      gaps: this.gaps.length,
    };
  }

  receipt(args: ExportReceiptFile): ExportReceiptV1 {
    return {
      receipt_version: 1,
      schema_version: EXPORT_SCHEMA_VERSION,
      file: args.file,
      format: args.format,
      sha256: args.sha256,
      bytes: args.bytes,
      records: this.records,
      project: args.project,
      counts: this.counts(),
      gaps: this.gaps,
      ...(args.config ? { config: { sha256: args.config.sha256, yaml: args.config.yaml } } : {}),
      app_version: args.appVersion,
      created_at: args.createdAt,
      ...(args.deidentification ? { deidentification: args.deidentification } : {}),
    };
  }
}

const count = { type: 'integer', minimum: 0 } as const;

export const exportReceiptJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/export-receipt.v1.json',
  title: 'Aloud export receipt',
  type: 'object',
  additionalProperties: false,
  required: [
    'receipt_version',
    'schema_version',
    'file',
    'format',
    'sha256',
    'bytes',
    'records',
    'project',
    'counts',
    'gaps',
    'app_version',
    'created_at',
  ],
  properties: {
    receipt_version: { const: 1 },
    schema_version: { type: 'integer', minimum: 1 },
    file: { type: 'string', minLength: 1 },
    format: { enum: ['jsonl', 'json', 'csv'] },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    bytes: count,
    records: count,
    project: { type: 'string' },
    counts: {
      type: 'object',
      additionalProperties: false,
      required: ['annotators', 'items', 'with_audio', 'with_transcript', 'with_final_label', 'gaps'],
      properties: { annotators: count, items: count, with_audio: count, with_transcript: count, with_final_label: count, gaps: count },
    },
    gaps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['annotator', 'item_id', 'reason'],
        properties: {
          annotator: { type: 'string' },
          item_id: { type: 'string' },
          reason: { enum: ['no_audio', 'audio_file_missing', 'no_transcript', 'no_label'] },
        },
      },
    },
    config: {
      type: 'object',
      additionalProperties: false,
      required: ['sha256', 'yaml'],
      properties: { sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' }, yaml: { type: 'string' } },
    },
    app_version: { type: 'string' },
    created_at: { type: 'string', minLength: 1 },
    deidentification: deidentificationReceiptJsonSchema,
  },
} as const;

const ajv = sharedAjv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateReceipt = compileOnFirstUse(() => ajv.compile(exportReceiptJsonSchema));

/** What the export file actually is, to compare with its receipt. */
export interface ExportFileFacts {
  fileName: string;
  /** null when the file name does not say */
  format: ExportFormat | null;
  sha256: string;
  bytes: number;
  /** records found, or null when the export itself could not be read far enough to count them */
  records: number | null;
  /**
   * every record's summary fields (or their tally, kept as a stream was read), when the whole file passed the parse
   * and schema stages: the receipt's project, schema_version, counts and gaps are then recomputed from them
   */
  summaries?: readonly ExportSummaryRecord[] | ExportReceiptTally | null;
}

/** Every stage on a records export's receipt: checkReceipt, then its format, schema version, record and gap counts. */
export function receiptProblems(receiptText: string, receiptFile: string, actual: ExportFileFacts): InputProblem[] {
  const { problems, receipt, rule } = checkReceipt<ExportReceiptV1>(receiptText, receiptFile, validateReceipt, actual);
  if (!receipt) return problems;
  if (actual.format !== null && receipt.format !== actual.format)
    rule('/format', `the receipt says format ${receipt.format}, the file is ${actual.format}`);
  if (!READABLE_SCHEMA_VERSIONS.includes(receipt.schema_version)) {
    rule(
      '/schema_version',
      `schema_version ${receipt.schema_version} is not supported (this Aloud writes ${EXPORT_SCHEMA_VERSION} and reads ${READABLE_SCHEMA_VERSIONS.join(', ')})`,
    );
  }
  if (actual.records !== null && receipt.records !== actual.records)
    rule('/records', `the export has ${actual.records} records, the receipt says ${receipt.records}`);
  if (receipt.counts.gaps !== receipt.gaps.length)
    rule('/counts', `counts.gaps is ${receipt.counts.gaps} but ${receipt.gaps.length} gaps are listed`);
  if (actual.summaries) summaryProblems(receipt, actual.summaries, rule);
  return problems;
}

/** Every summary field of a records receipt against the same summary recomputed from the records themselves. */
function summaryProblems(
  receipt: ExportReceiptV1,
  records: readonly ExportSummaryRecord[] | ExportReceiptTally,
  rule: (pointer: string, message: string) => void,
): void {
  let tally: ExportReceiptTally;
  if (records instanceof ExportReceiptTally) tally = records;
  else {
    tally = new ExportReceiptTally();
    for (const r of records) tally.add(r);
  }
  const expected = { counts: tally.counts(), gaps: tally.gaps };
  const projects = [...tally.projects];
  if (projects.length > 0 && !(projects.length === 1 && projects[0] === receipt.project)) {
    rule(
      '/project',
      `the export's records are of project ${projects.map((p) => JSON.stringify(p)).join(', ')}, the receipt says ${JSON.stringify(receipt.project)}`,
    );
  }
  const versions = [...tally.schemaVersions];
  if (versions.length === 1 && versions[0] !== receipt.schema_version) {
    rule('/schema_version', `the export's records have schema_version ${versions[0]}, the receipt says ${receipt.schema_version}`);
  }
  for (const key of Object.keys(expected.counts) as Array<keyof ExportReceiptV1['counts']>) {
    if (receipt.counts[key] !== expected.counts[key])
      rule(`/counts/${key}`, `the export's records give counts.${key} ${expected.counts[key]}, the receipt says ${receipt.counts[key]}`);
  }
  const gapText = (g: ExportGap | undefined) => (g ? `${g.annotator} / ${g.item_id}: ${g.reason}` : 'none');
  const at = Math.max(expected.gaps.length, receipt.gaps.length);
  for (let i = 0; i < at; i++) {
    const want = expected.gaps[i];
    const have = receipt.gaps[i];
    if (want && have && want.annotator === have.annotator && want.item_id === have.item_id && want.reason === have.reason) continue;
    rule(
      have ? `/gaps/${i}` : '/gaps',
      `gap ${i + 1} is ${gapText(want)} in the export's records, the receipt says ${gapText(have)}${expected.gaps.length !== receipt.gaps.length ? ` (the records have ${expected.gaps.length} gaps, the receipt lists ${receipt.gaps.length})` : ''}`,
    );
    break;
  }
}
