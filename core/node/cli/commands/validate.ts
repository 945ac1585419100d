import { stat } from 'node:fs/promises';
import { hasScriptedModel, validateExportFile } from '../../export/validateExport';
import { interopFormatOfFile, validateInteropFile } from '../../export/interop/validateInterop';
import { streamLimitsFrom } from '../../importing/inputLimitsOption';
import { loadProjectConfig } from '../../project/projectFolder';
import path from 'node:path';
import { isGoldFile, validateGoldFile } from '../../adjudication/goldExport';
import { deidentifiedCopyProblems, deidentifiedInteropProblems } from '../../deidentify/validateDeidentified';
import { type CliCommand, printJson, UsageError, parseOptions, withUsageErrors } from '../cliSupport';
import { progressLine } from '../progressLine';
import { problemsSummary } from '../../../common/export/pipelineSummary';

type ValidationProblem = { stage: string };

/** What --json prints: whether the file is valid, how many problems by stage, and the first few. */
function validationSummary(file: string, problems: readonly ValidationProblem[]): unknown {
  return { file, valid: problems.length === 0, ...(problemsSummary(problems) as object) };
}

export const validateCommand: CliCommand = {
  name: 'validate',
  usage:
    'validate FILE [--project DIR] [--require-receipt] [--max-line-bytes N] [--max-record-bytes N] [--max-file-bytes N] [--json]\n\n' +
    'The file is read record by record: exports of any size, limited per line (1 MiB) and per record (4 MiB: an element of a\n' +
    '.json, a CSV record across its lines); per file only with --max-file-bytes.\n' +
    'Stages: input (size, UTF-8), parse (one JSON value per line/file, duplicate keys, NaN), schema (JSON Schema),\n' +
    'rule (duplicates, quotes at their offsets; with --project: item ids, texts, labels). FILE.receipt.json, when\n' +
    'present, must match the file (sha256, bytes, records); without one, a warning (a problem with --require-receipt).\n' +
    'Reads schema_version 1 and 2, process-reward exports (told by their records: instance_id, no item_id) and gold\n' +
    'exports (aloud export --gold: told by their receipt or gold_source; with --project, gold labels against its schema).\n' +
    'FILE.eaf: against the ELAN EAF 3.0 XSD; FILE.qdpx: the zip layout and project.qde against the REFI-QDA XSD;\n' +
    'both against the export receipt (<format>.receipt.json) beside them or one folder up, when there is one.\n' +
    "A de-identified export (its receipt says so): no term of the project's deidentify.yaml (with --project) and no\n" +
    'pattern the receipt names in any text field, and every hidden audio range silence (or the tone). Without the\n' +
    "receipt, each v4 record that says it is de-identified (deidentification; a CSV row's deidentified) is checked so\n" +
    '(its texts; the audio needs the receipt).\n' +
    "FILE.qdpx|.TextGrid|.txt|.srt|.vtt|.parquet and a dataset's metadata.jsonl: when the file says it is de-identified\n" +
    '(or a receipt beside it or one folder up does; an .srt in a cue 0 that lasts no time), no listed term (with --project) and no\n' +
    'pattern in any of its texts.\n' +
    'Prints [{file, line, field, stage, message}, ...] (the whole list); with --json a summary for a pipeline instead, for\n' +
    'every kind of file: {file, valid, problems_count, problems_by_stage, first_problems (the first 20)};\n' +
    'exit 0 when the list is empty, 1 otherwise, 2 for a bad argument.',
  async run(argv, io) {
    const { values, positionals } = parseOptions(
      argv,
      {
        project: 'string',
        'require-receipt': false,
        'max-file-bytes': 'string',
        'max-line-bytes': 'string',
        'max-record-bytes': 'string',
        json: false,
      },
      { positionals: true },
    );
    if (positionals.length !== 1)
      throw new UsageError(positionals.length === 0 ? 'missing FILE to validate' : `expected one FILE, got ${positionals.length}`);
    const file = positionals[0]!;
    const print = (problems: readonly ValidationProblem[]): void =>
      printJson(io, values.json ? validationSummary(file, problems) : problems);
    const limits = withUsageErrors(() => streamLimitsFrom(values));
    if (!(await stat(file).catch(() => null))) throw new UsageError(`${file}: file not found`);
    if (await isGoldFile(file)) {
      const result = await validateGoldFile(file, values.project === undefined ? undefined : await loadProjectConfig(values.project));
      if (result.receipt === 'absent') {
        if (values['require-receipt'])
          result.problems.push({
            file: `${file}.receipt.json`,
            line: null,
            field: null,
            stage: 'input',
            message: 'no receipt beside the gold export: it cannot be checked against what Aloud wrote (--require-receipt)',
          });
        else io.err(`aloud validate: warning: no receipt (${file}.receipt.json): the file cannot be checked against what Aloud wrote\n`);
      }
      print(result.problems);
      return result.problems.length === 0 ? 0 : 1;
    }
    const interop = interopFormatOfFile(file);
    if (interop !== null) {
      const result = await validateInteropFile(file, interop);
      // a de-identified export: its texts and hidden audio too
      result.problems.push(
        ...(await deidentifiedInteropProblems(
          file,
          interop,
          values.project === undefined ? undefined : await loadProjectConfig(values.project),
        )),
      );
      if (result.receipt === 'absent') {
        if (values['require-receipt'])
          result.problems.push({
            file,
            line: null,
            field: null,
            stage: 'input',
            message: `no ${interop}.receipt.json lists this file: it cannot be checked against what Aloud wrote (--require-receipt)`,
          });
        else io.err(`aloud validate: warning: no export receipt lists ${file}: checked against its schema only\n`);
      }
      print(result.problems);
      return result.problems.length === 0 ? 0 : 1;
    }
    const project = values.project === undefined ? undefined : await loadProjectConfig(values.project);
    // the other files an export writes (TextGrid, MAXQDA and transcript texts, SRT, WebVTT, a dataset's rows): what a
    // de-identified one must not hold, whether its receipt is beside it or only the file says it is de-identified
    const copy =
      /\.(textgrid|txt|srt|vtt|parquet)$/iu.test(file) || path.basename(file) === 'metadata.jsonl'
        ? await deidentifiedCopyProblems(file, project)
        : null;
    if (copy !== null) {
      print(copy);
      return copy.length === 0 ? 0 : 1;
    }
    if (path.basename(file) === 'metadata.jsonl') {
      // a Hugging Face dataset's rows, not a records export: their schema is the dataset card's
      io.err(
        `aloud validate: warning: ${file} is a Hugging Face dataset's rows (not a records export); they are checked only when de-identified\n`,
      );
      print([]);
      return 0;
    }
    const progress = progressLine(io, 'aloud validate', 'bytes');
    const result = await validateExportFile(file, { limits, onProgress: progress.report, ...(project ? { project } : {}) });
    progress.end();
    if (result.receipt === 'absent') {
      const missing = `${file}.receipt.json`;
      if (values['require-receipt'])
        result.problems.push({
          file: missing,
          line: null,
          field: null,
          stage: 'input',
          message: 'no receipt beside the export: it cannot be checked against what Aloud wrote (--require-receipt)',
        });
      else io.err(`aloud validate: warning: no receipt (${missing}): the file cannot be checked against what Aloud wrote\n`);
    }
    if (hasScriptedModel(result)) {
      io.err(
        'aloud validate: warning: records were transcribed by a SCRIPTED engine (model sha256 scripted:…): test or demo data, not whisper.cpp\n',
      );
    }
    print(result.problems);
    return result.problems.length === 0 ? 0 : 1;
  },
};
