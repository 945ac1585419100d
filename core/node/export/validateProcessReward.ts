import path from 'node:path';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import { JsonLinesStream } from '../../common/io/jsonInput';
import { parseStrictJson } from '../../common/io/strictJson';
import { ProcessRewardCheck, processRewardReceiptProblems } from '../../common/reasoning/processReward';
import { streamInputFile, type StreamLimits } from '../importing/inputStream';
import { ItemsFileError } from '../project/itemsFile';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { checkReceiptBeside } from '../exportFiles/receiptBeside';
import type { ExportFileValidation } from '../../common/export/exportValidation';

/** Stops reading once the kind of a JSON Lines export is known. */
class KindKnown extends Error {}

/**
 * Whether a JSON Lines export is a process-reward export rather than records: some line is an object with
 * `instance_id` and none has the records' `item_id` (isProcessRewardText, read as a stream). A records export says
 * so on its first line, so reading stops there; a process-reward export is read to its end (its lines are short).
 * A line counts only when the strict parser reads it; a file the input stage refuses is not one.
 */
export async function isProcessRewardFile(file: string, limits: StreamLimits): Promise<boolean> {
  let instance = false;
  const consider = (raw: string): void => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // a fast look first; the strict parser decides for the lines that could count
    if (!text.includes('"instance_id"') && !text.includes('"item_id"') && !text.includes('\\u')) return;
    let value: unknown;
    try {
      value = parseStrictJson(text).value;
    } catch {
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    if ('item_id' in value) throw new KindKnown();
    if ('instance_id' in value) instance = true;
  };
  let partial = '';
  try {
    const input = await streamInputFile(file, { limits, lineBased: true }, (text) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const line of lines) consider(line);
    });
    if (input.problems.length > 0) return false;
    consider(partial);
  } catch (e) {
    if (e instanceof KindKnown) return false;
    throw e;
  }
  return instance;
}

/**
 * `aloud validate` on a process-reward export, read as a stream: parse, schema and rule stages; with a project,
 * every instance_id must be one of its items; then FILE.receipt.json when present, recounted from the records.
 */
export async function validateProcessRewardFile(
  file: string,
  options: { project?: OpenProject; limits: StreamLimits },
): Promise<ExportFileValidation> {
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
  const check = new ProcessRewardCheck(file, itemIds);
  const lines = new JsonLinesStream(
    file,
    (r) => check.record(r),
    (p) => check.unreadable(p),
  );
  const input = await streamInputFile(file, { limits: options.limits, lineBased: true }, (text) => lines.push(text));
  if (input.problems.length > 0) throw new InputError(input.problems);
  lines.end();
  const checked = check.finish();
  problems.push(...checked.problems);
  // a file that did not parse whole has no record count to hold the receipt to
  const parsedWhole = !checked.problems.some((p) => p.stage === 'parse' || p.stage === 'schema');
  const beside = await checkReceiptBeside(file, input.bytes, (text, receiptFile) =>
    processRewardReceiptProblems(text, receiptFile, {
      fileName: path.basename(file),
      sha256: input.sha256,
      bytes: input.bytes,
      records: parsedWhole ? check.tally : null,
    }),
  );
  return {
    file,
    format: 'process-reward',
    records: parsedWhole ? check.tally.records : null,
    receipt: beside.receipt,
    problems: [...problems, ...beside.problems],
    scripted_records: 0,
  };
}
