import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  formatGoldFile,
  goldCounts,
  goldReceiptProblems,
  goldRecords,
  readGoldFile,
  type GoldFormat,
  type GoldReceipt,
  type GoldRecord,
} from '../../common/adjudication/goldRecord';
import { receiptFileName } from '../../common/export/exportReceipt';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import { appVersion } from '../exportFiles/appVersion';
import { writeExportPair } from '../exportFiles/exportTarget';
import { projectSessionSource } from '../session/projectSessions';
import { checkReceiptBeside } from '../exportFiles/receiptBeside';
import type { SessionSource } from '../session/sessionSource';
import { readInputFile } from '../fs/inputFile';
import type { OpenProject } from '../project/projectFolder';
import { configSha256Of } from '../session/sessionStore';
import { readAdjudication } from './projectAdjudication';

/**
 * `aloud export --gold`: one record per item with its gold label and source, checked against the gold schema and rules
 * before anything is written, then written with its receipt as a pair (writeExportPair). Read-only on the sessions
 * and the adjudication logs. `modelLabels` is the seam for label models (gold_source "model").
 */
export async function exportGold(options: {
  project: OpenProject;
  format: GoldFormat;
  out: string;
  force?: boolean;
  sessions?: SessionSource;
  modelLabels?: ReadonlyMap<string, string>;
  now?: () => Date;
}): Promise<{ file: string; receipt_file: string; receipt: GoldReceipt; warnings: string[] }> {
  const { project, format, out } = options;
  const read = await readAdjudication(project, options.sessions ?? projectSessionSource);
  const records = goldRecords(project.config.name, read.queue, options.modelLabels);
  const text = formatGoldFile(records, format);
  const checked = readGoldFile(text, format, out, new Set(project.config.schema.labels.map((l) => l.name)));
  if (checked.problems.length > 0) throw new InputError(checked.problems);
  const version = await appVersion();
  const { adjudication } = project.config;
  const { receiptFile, receipt } = await writeExportPair(
    out,
    async (sink) => {
      await sink.write(text);
    },
    (written): GoldReceipt => ({
      receipt_version: 1,
      kind: 'gold',
      schema_version: 1,
      file: path.basename(out),
      format,
      sha256: written.sha256,
      bytes: written.bytes,
      records: records.length,
      project: project.config.name,
      counts: goldCounts(records),
      adjudication: {
        threshold: adjudication.threshold,
        min_annotators: adjudication.min_annotators,
        accept_unanimous: adjudication.accept_unanimous,
      },
      config_sha256: configSha256Of(project),
      app_version: version,
      created_at: (options.now ?? (() => new Date()))().toISOString(),
    }),
    { project, force: options.force ?? false },
  );
  return { file: out, receipt_file: receiptFile, receipt, warnings: read.warnings };
}

const GOLD_CSV_HEADER = 'schema_version,project,item_id,gold_label,gold_source,';

/** Whether a file is a gold export: its receipt says so, or its first record or header is a gold one. */
export async function isGoldFile(file: string): Promise<boolean> {
  const receipt = await readFile(receiptFileName(file), 'utf8').catch(() => null);
  if (receipt !== null) {
    try {
      return (JSON.parse(receipt) as { kind?: unknown }).kind === 'gold';
    } catch {
      // an unreadable receipt: tell by the file itself
    }
  }
  const head = await readFile(file).then(
    (b) => b.subarray(0, 4096).toString('utf8'),
    () => '',
  );
  // a records export's first record has no gold_source; a gold export's first record (or CSV header) has
  return head.startsWith(GOLD_CSV_HEADER) || head.includes('"gold_source"');
}

export function goldFormatOf(file: string): GoldFormat | null {
  const ext = path.extname(file).toLowerCase().slice(1);
  return ext === 'jsonl' || ext === 'json' || ext === 'csv' ? ext : null;
}

/** `aloud validate` on a gold export: parse, schema and rule stages (with a project: its labels), then the receipt beside it. */
export async function validateGoldFile(
  file: string,
  project?: OpenProject,
): Promise<{ records: number | null; receipt: 'ok' | 'absent' | 'invalid'; problems: InputProblem[] }> {
  const format = goldFormatOf(file);
  if (format === null)
    return {
      records: null,
      receipt: 'absent',
      problems: [{ file, line: null, field: null, stage: 'input', message: 'a gold export ends in .jsonl, .json or .csv' }],
    };
  const input = await readInputFile(file, { lineBased: format !== 'json' });
  const { records, problems } = readGoldFile(
    input.text,
    format,
    file,
    project ? new Set(project.config.schema.labels.map((l) => l.name)) : undefined,
  );
  const whole: readonly GoldRecord[] | null = problems.some((p) => p.stage === 'parse' || p.stage === 'schema') ? null : records;
  const beside = await checkReceiptBeside(file, input.bytes.length, (text, receiptFile) =>
    goldReceiptProblems(text, receiptFile, {
      fileName: path.basename(file),
      sha256: input.sha256,
      bytes: input.bytes.length,
      records: whole,
    }),
  );
  return { records: whole?.length ?? null, receipt: beside.receipt, problems: [...problems, ...beside.problems] };
}
