import { stat } from 'node:fs/promises';
import path from 'node:path';
import { receiptFileName } from '../../common/export/exportReceipt';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import type { InputLimits } from '../../common/io/inputText';
import type { ExportFileValidation } from '../../common/export/exportValidation';
import { processRewardReceiptProblems, validateProcessRewardText } from '../../common/reasoning/processReward';
import { sha256OfFile } from '../fs/sha256';
import { readInputFile } from '../importing/inputFile';
import { ItemsFileError } from '../project/itemsFile';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';

/**
 * `aloud validate` on a process-reward export (its text already read): parse, schema and rule stages; with a
 * project, every instance_id must be one of its items; then FILE.receipt.json when present, recounted from the records.
 */
export async function validateProcessRewardFile(file: string, text: string, options: { project?: OpenProject; limits?: InputLimits }): Promise<ExportFileValidation> {
  const problems: InputProblem[] = [];
  let itemIds: Set<string> | undefined;
  if (options.project) {
    try {
      itemIds = new Set((await loadProjectItems(options.project)).map((item) => item.id));
    } catch (e) {
      if (!(e instanceof ItemsFileError)) throw e;
      problems.push(...e.problems);
    }
  }
  const checked = validateProcessRewardText(text, file, itemIds);
  problems.push(...checked.problems);
  // a file that did not parse whole has no record count to hold the receipt to
  const parsedWhole = !checked.problems.some((p) => p.stage === 'parse' || p.stage === 'schema');
  const receiptFile = receiptFileName(file);
  let receipt: ExportFileValidation['receipt'] = 'absent';
  if (await stat(receiptFile).then((s) => s.isFile(), () => false)) {
    let receiptIssues: InputProblem[];
    try {
      const receiptInput = await readInputFile(receiptFile, { lineBased: false, ...(options.limits ? { limits: options.limits } : {}) });
      const bytes = (await stat(file)).size;
      receiptIssues = processRewardReceiptProblems(receiptInput.text, receiptFile, { fileName: path.basename(file), sha256: await sha256OfFile(file), bytes, records: parsedWhole ? checked.records : null });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      receiptIssues = e.problems;
    }
    receipt = receiptIssues.length === 0 ? 'ok' : 'invalid';
    problems.push(...receiptIssues);
  }
  return { file, format: 'process-reward', records: parsedWhole ? checked.records.length : null, receipt, problems, scripted_records: 0 };
}
