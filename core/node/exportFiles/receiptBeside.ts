import { stat } from 'node:fs/promises';
import { receiptFileName } from '../../common/export/exportReceipt';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import { DEFAULT_INPUT_LIMITS } from '../../common/io/inputText';
import { readInputFile } from '../fs/inputFile';

/**
 * The receipt beside an export, checked against the export's facts. A receipt lists every gap of the export, so it
 * grows with the study: it may be as large as the export itself, or the default file limit, whichever is larger.
 */
export async function checkReceiptBeside(
  file: string,
  exportBytes: number,
  problemsOf: (receiptText: string, receiptFile: string) => InputProblem[],
): Promise<{ receipt: 'ok' | 'absent' | 'invalid'; problems: InputProblem[] }> {
  const receiptFile = receiptFileName(file);
  if (
    !(await stat(receiptFile).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    return { receipt: 'absent', problems: [] };
  let problems: InputProblem[];
  try {
    const limits = {
      maxFileBytes: Math.max(DEFAULT_INPUT_LIMITS.maxFileBytes, exportBytes),
      maxLineBytes: DEFAULT_INPUT_LIMITS.maxLineBytes,
    };
    const receiptInput = await readInputFile(receiptFile, { lineBased: false, limits });
    problems = problemsOf(receiptInput.text, receiptFile);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    problems = e.problems;
  }
  return { receipt: problems.length === 0 ? 'ok' : 'invalid', problems };
}
