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
  GOLD_SCHEMA_VERSION,
  type ModelGold,
} from '../../common/adjudication/goldRecord';
import { AdjudicationRefusal } from '../../common/adjudication/adjudicationRules';
import { modelGoldLabels } from '../../common/adjudication/modelGold';
import { LabelModelInputError } from '../../common/labelModels/annotationTable';
import { DEFAULT_GOLD_RESAMPLES } from '../../common/labelModels/bootstrapIntervals';
import { DEFAULT_GOLD_SEED } from '../../common/labelModels/goldReport';
import type { LabelModelName } from '../../common/labelModels/labelModel';
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
import { say } from '../../common/refusal/refusalMessage';

/**
 * `aloud export --gold`: one record per item with its gold label and source, checked against the gold schema and rules
 * before anything is written, then written with its receipt as a pair (writeExportPair). Read-only on the sessions
 * and the adjudication logs. With `goldModel`, a label model fitted on the counted final labels fills the items still
 * unresolved (gold_source "model", its probability and interval in the record); `modelLabels` gives such labels directly.
 */
export async function exportGold(options: {
  project: OpenProject;
  format: GoldFormat;
  out: string;
  force?: boolean;
  sessions?: SessionSource;
  goldModel?: LabelModelName | null;
  modelLabels?: ReadonlyMap<string, ModelGold>;
  now?: () => Date;
}): Promise<{ file: string; receipt_file: string; receipt: GoldReceipt; warnings: string[] }> {
  const { project, format, out } = options;
  const read = await readAdjudication(project, options.sessions ?? projectSessionSource);
  const goldModel = options.goldModel ?? null;
  let modelLabels = options.modelLabels;
  if (goldModel !== null) {
    try {
      modelLabels = modelGoldLabels(
        read.queue,
        project.config.schema.labels.map((l) => l.name),
        goldModel,
      );
    } catch (e) {
      if (!(e instanceof LabelModelInputError)) throw e;
      throw new AdjudicationRefusal('conflict', say('refusal.adjudication.goldModel', { goldModel, message: e.message }));
    }
  }
  const records = goldRecords(project.config.name, read.queue, modelLabels);
  const text = formatGoldFile(records, format);
  const checked = readGoldFile(text, format, out, new Set(project.config.schema.labels.map((l) => l.name)));
  // i18n-ignore: the strict import's problem list (file:line per row), English like every importer (io/inputProblem) for now
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
      schema_version: GOLD_SCHEMA_VERSION,
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
      gold_model: goldModel === null ? null : { model: goldModel, resamples: DEFAULT_GOLD_RESAMPLES, seed: DEFAULT_GOLD_SEED },
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
