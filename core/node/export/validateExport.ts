import { stat } from 'node:fs/promises';
import path from 'node:path';
import { exportFormatFromFileName } from '../../common/export/exportFormats';
import { receiptFileName, receiptProblems } from '../../common/export/exportReceipt';
import { validateExportText, type ExportFileValidation, type ExportValidation } from '../../common/export/exportValidation';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import type { InputLimits } from '../../common/io/inputText';
import { readInputFile } from '../importing/inputFile';
import { ItemsFileError } from '../project/itemsFile';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { isScriptedModel } from '../engine/scriptedEngine';
import { sha256OfFile } from '../fs/sha256';
import { projectFacts } from './exportSessions';
import { settleExportPair } from './exportTarget';
import { exportedWavProblems } from './wavCheck';
import { isProcessRewardText } from '../../common/reasoning/processReward';
import { validateProcessRewardFile } from './validateProcessReward';
import { deidentifiedExportProblems, receiptDeidentification } from '../deidentify/validateDeidentified';

/** Whether any record of a validated export came from a scripted engine. */
export function hasScriptedModel(result: ExportFileValidation): boolean {
  return result.scripted_records > 0;
}

/**
 * Every stage on an export file (input, parse, schema, rule; the project's items and labels when a project is
 * given), then its receipt when FILE.receipt.json is beside it. Problems are collected, never thrown.
 */
export async function validateExportFile(file: string, options: { project?: OpenProject; limits?: InputLimits } = {}): Promise<ExportFileValidation> {
  const problems: InputProblem[] = [];
  // an export pair a crash cut short is finished (or undone) first: what is validated is the old pair or the new one
  await settleExportPair(file).catch(() => undefined);
  const format = exportFormatFromFileName(file);
  let records: number | null = null;
  let summaries: ExportValidation['summaries'] = null;
  let scripted = 0;
  // a de-identified export's recordings are the masked copies beside it, not the project's
  const deidentified = await receiptDeidentification(receiptFileName(file));
  if (format === null) {
    problems.push({ file, line: null, field: null, stage: 'input', message: 'unknown export file type: use .jsonl, .json or .csv' });
  } else {
    try {
      const input = await readInputFile(file, { lineBased: format !== 'json', ...(options.limits ? { limits: options.limits } : {}) });
      // told by content, not the receipt: the receipt may be absent and is itself under check
      if (format === 'jsonl' && isProcessRewardText(input.text)) return await validateProcessRewardFile(file, input.text, options);
      let facts = null;
      if (options.project) {
        try {
          facts = projectFacts(options.project, await loadProjectItems(options.project));
        } catch (e) {
          if (!(e instanceof ItemsFileError)) throw e;
          problems.push(...e.problems);
        }
      }
      const checked = validateExportText(input.text, file, format, facts);
      records = checked.parsedRecords;
      summaries = checked.summaries;
      scripted = checked.records.filter((r) => {
        const model = (r as { model?: unknown; model_sha256?: unknown }).model ?? { sha256: (r as { model_sha256?: unknown }).model_sha256 };
        return isScriptedModel(model as { sha256: string | null });
      }).length;
      problems.push(...checked.problems);
      if (options.project && !deidentified) problems.push(...(await exportedWavProblems(options.project.dir, checked.records, file)));
      if (deidentified) problems.push(...(await deidentifiedExportProblems(file, receiptFileName(file), deidentified, checked.records as unknown as Array<Record<string, unknown>>, options.project)));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      problems.push(...e.problems);
    }
  }

  const receiptFile = receiptFileName(file);
  const receiptExists = await stat(receiptFile).then((s) => s.isFile(), () => false);
  let receipt: ExportFileValidation['receipt'] = 'absent';
  if (receiptExists) {
    let receiptIssues: InputProblem[];
    try {
      const receiptInput = await readInputFile(receiptFile, { lineBased: false, ...(options.limits ? { limits: options.limits } : {}) });
      const size = (await stat(file).catch(() => null))?.size ?? 0;
      const sha256 = await sha256OfFile(file).catch(() => '');
      receiptIssues = receiptProblems(receiptInput.text, receiptFile, { fileName: path.basename(file), format, sha256, bytes: size, records, summaries });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      receiptIssues = e.problems;
    }
    receipt = receiptIssues.length === 0 ? 'ok' : 'invalid';
    problems.push(...receiptIssues);
  }
  return { file, format, records, receipt, problems, scripted_records: scripted };
}
