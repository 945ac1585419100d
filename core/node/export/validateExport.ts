import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { exportFormatFromFileName } from '../../common/export/exportFormats';
import { receiptProblems } from '../../common/export/exportReceipt';
import { checkReceiptBeside } from '../exportFiles/receiptBeside';
import { ExportRecordsCheck, ExportTextReader, type ExportFileValidation } from '../../common/export/exportValidation';
import type { AnyExportRecord } from '../../common/export/exportRecord';
import { InputError, type InputProblem } from '../../common/io/inputProblem';
import { DEFAULT_STREAM_LIMITS, streamInputFile, type StreamLimits } from '../importing/inputStream';
import { ItemsFileError } from '../project/itemsFile';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { isScriptedModel } from '../engine/scriptedEngine';
import { sha256OfFile } from '../fs/sha256';
import { projectFacts } from './exportSessions';
import { settleExportPair } from '../exportFiles/exportTarget';
import { type ExportedAudio, exportedWavProblems } from '../audio/wavCheck';
import { isProcessRewardFile, validateProcessRewardFile } from './validateProcessReward';
import { isUnitsCsvText, unitsReceiptProblems, validateUnitsCsvText } from '../../common/export/codingExport';
import { readInputFile } from '../fs/inputFile';
import { DeidentifiedExportCheck, receiptDeidentification } from '../deidentify/validateDeidentified';

/** Whether any record of a validated export came from a scripted engine. */
export function hasScriptedModel(result: ExportFileValidation): boolean {
  return result.scripted_records > 0;
}

/** The audio a record references: `audio` of a JSON record, or the flat audio_* cells of a v2 CSV row. */
function recordAudio(record: AnyExportRecord): { path: string; sha256: string | null; duration_ms: number } | null {
  if ('audio' in record) return record.audio;
  const row = record as unknown as { audio_path: string | null; audio_sha256: string | null; audio_duration_ms: number | null };
  return row.audio_path === null ? null : { path: row.audio_path, sha256: row.audio_sha256, duration_ms: row.audio_duration_ms ?? 0 };
}

/**
 * Every stage on an export file (input, parse, schema, rule; the project's items and labels when a project is
 * given), then its receipt when FILE.receipt.json is beside it. Problems are collected, never thrown. The file is
 * read as a stream, record by record: the limits are per line and per record (and per file only when one is given),
 * and what the receipt is checked against (record count, counts, gaps, sha256, size) is kept as the records go by.
 */
export async function validateExportFile(
  file: string,
  options: { project?: OpenProject; limits?: StreamLimits; onProgress?: (readBytes: number, totalBytes: number) => void } = {},
): Promise<ExportFileValidation> {
  const limits = options.limits ?? DEFAULT_STREAM_LIMITS;
  const problems: InputProblem[] = [];
  // an export pair a crash cut short is finished (or undone) first: what is validated is the old pair or the new one
  await settleExportPair(file).catch(() => undefined);
  const format = exportFormatFromFileName(file);
  if (format === null) {
    problems.push({ file, line: null, field: null, stage: 'input', message: 'unknown export file type: use .jsonl, .json or .csv' });
    const size = (await stat(file).catch(() => null))?.size ?? 0;
    const sha256 = await sha256OfFile(file).catch(() => '');
    const beside = await checkReceiptBeside(file, size, (text, receiptFile) =>
      receiptProblems(text, receiptFile, { fileName: path.basename(file), format, sha256, bytes: size, records: null }),
    );
    return { file, format, records: null, receipt: beside.receipt, problems: [...problems, ...beside.problems], scripted_records: 0 };
  }
  // told by content, not the receipt: the receipt may be absent and is itself under check
  if (format === 'jsonl' && (await isProcessRewardFile(file, limits))) return validateProcessRewardFile(file, { ...options, limits });
  if (format === 'csv' && (await isUnitsCsvFile(file))) return validateUnitsFile(file);

  let facts = null;
  if (options.project) {
    try {
      facts = projectFacts(options.project, await loadProjectItems(options.project));
    } catch (e) {
      if (!(e instanceof ItemsFileError)) throw e;
      problems.push(...e.problems);
    }
  }
  // a de-identified export's recordings are the masked copies beside it, not the project's: checked, with its texts, there
  const statement = await receiptDeidentification(`${file}.receipt.json`);
  // without a receipt, the records that say inside they were de-identified are checked as such
  const deidentified = statement
    ? await DeidentifiedExportCheck.open(file, `${file}.receipt.json`, statement, options.project)
    : await DeidentifiedExportCheck.openWithoutReceipt(file, options.project);
  let scripted = 0;
  /** what the WAV check needs of each record with audio: checked once the file is read, not held as whole records */
  const withAudio: ExportedAudio[] = [];
  const check = new ExportRecordsCheck(file, facts, (record) => {
    const model = (record as { model?: unknown; model_sha256?: unknown }).model ?? {
      sha256: (record as { model_sha256?: unknown }).model_sha256,
    };
    if (isScriptedModel(model as { sha256: string | null })) scripted++;
    const checkedAsDeidentified = deidentified.record(record as unknown as Record<string, unknown>);
    const audio = options.project && !checkedAsDeidentified ? recordAudio(record) : null;
    if (audio && audio.sha256 !== null) withAudio.push({ annotator: record.annotator, item_id: record.item_id, audio });
  });
  const reader = new ExportTextReader(file, format, check, limits.maxRecordBytes);
  let parseFailure: InputProblem[] | null = null;
  const input = await streamInputFile(
    file,
    { limits, lineBased: format !== 'json', ...(options.onProgress ? { onBytes: options.onProgress } : {}) },
    (text) => {
      if (parseFailure) return;
      try {
        reader.push(text);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        parseFailure = e.problems;
      }
    },
  );
  if (input.problems.length === 0 && !parseFailure) {
    try {
      reader.end();
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      parseFailure = e.problems;
    }
  }
  let records: number | null = null;
  let summaries = null;
  if (input.problems.length > 0) problems.push(...input.problems);
  else if (parseFailure) problems.push(...(parseFailure as InputProblem[]));
  else {
    const checked = check.finish();
    records = checked.parsedRecords;
    summaries = checked.summaries;
    problems.push(...checked.problems);
    if (options.project) problems.push(...(await exportedWavProblems(options.project.dir, withAudio, file)));
    problems.push(...(await deidentified.finish()));
  }
  const beside = await checkReceiptBeside(file, input.bytes, (text, receiptFile) =>
    receiptProblems(text, receiptFile, {
      fileName: path.basename(file),
      format,
      sha256: input.sha256,
      bytes: input.bytes,
      records,
      summaries,
    }),
  );
  return {
    file,
    format,
    records,
    receipt: beside.receipt,
    problems: [...problems, ...beside.problems],
    scripted_records: records === null ? 0 : scripted,
  };
}

/** A units file beside a CSV export, told by its header (its first line). */
async function isUnitsCsvFile(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return isUnitsCsvText(head.subarray(0, bytesRead).toString('utf8'));
  } finally {
    await handle.close();
  }
}

/** `aloud validate` on a units file beside a CSV export: its rows, then its receipt when present. */
async function validateUnitsFile(file: string): Promise<ExportFileValidation> {
  let rows: number | null = null;
  const problems: InputProblem[] = [];
  try {
    const input = await readInputFile(file, { lineBased: true });
    const checked = validateUnitsCsvText(input.text, file);
    rows = checked.rows;
    problems.push(...checked.problems);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    problems.push(...e.problems);
  }
  const bytes = (await stat(file)).size;
  const sha256 = await sha256OfFile(file);
  const beside = await checkReceiptBeside(file, bytes, (text, receiptFile) =>
    unitsReceiptProblems(text, receiptFile, { fileName: path.basename(file), sha256, bytes, rows }),
  );
  return { file, format: 'csv', records: rows, receipt: beside.receipt, problems: [...problems, ...beside.problems], scripted_records: 0 };
}
