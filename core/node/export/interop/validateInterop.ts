import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { QDPX_LIMITS, unzipBounded, ZipLimitError } from '../../archives/boundedUnzip';
import { interopReceiptFileName, type InteropFileEntry, type InteropFormat } from '../../../common/export/interop/interopFormats';
import type { InputProblem } from '../../../common/io/inputProblem';
import { XML_LIMITS, xmlGuardProblem } from '../../../common/io/xmlGuard';
import { sha256Hex } from '../../fs/sha256';
import { xsdProblems } from '../../exportFiles/xsdValidation';

/** The interop files `aloud validate` reads: told by their extension. */
export function interopFormatOfFile(file: string): Extract<InteropFormat, 'eaf' | 'qdpx'> | null {
  const lower = file.toLowerCase();
  return lower.endsWith('.eaf') ? 'eaf' : lower.endsWith('.qdpx') ? 'qdpx' : null;
}

export interface InteropFileValidation {
  file: string;
  format: 'eaf' | 'qdpx';
  /** "ok" when an export receipt beside it (or one folder up) lists this file with these bytes */
  receipt: 'ok' | 'absent' | 'invalid';
  problems: InputProblem[];
}

const utf8 = (bytes: Uint8Array): string | null => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
};

/**
 * An ELAN file against EAF 3.0's XSD, or a .qdpx as REFI-QDA lays it out: a zip with one project.qde valid against
 * the project XSD, and every `internal://` file it names present in Sources/. Then the export receipt, when there is one.
 */
export async function validateInteropFile(file: string, format: 'eaf' | 'qdpx'): Promise<InteropFileValidation> {
  const bytes = await readFile(file);
  const problems: InputProblem[] = [];
  const fail = (stage: InputProblem['stage'], message: string, field: string | null = null): void => {
    problems.push({ file, line: null, field, stage, message });
  };
  // DOCTYPE, depth and bad character references first, before any parser (the file is in memory: no size limit here)
  const guarded = (xml: string, where: string): boolean => {
    const hazard = xmlGuardProblem(xml, { ...XML_LIMITS, chars: Number.POSITIVE_INFINITY });
    if (hazard) problems.push({ file: where, line: hazard.line, field: null, stage: 'input', message: hazard.message });
    return hazard !== null;
  };
  if (format === 'eaf') {
    const xml = utf8(bytes);
    if (xml === null) fail('input', 'not UTF-8 text');
    else if (!guarded(xml, file)) problems.push(...(await xsdProblems('eaf', [{ file, xml }])));
  } else {
    let read: { entries: Map<string, Uint8Array>; names: string[] } | null = null;
    try {
      read = unzipBounded(bytes, (name) => !name.startsWith('Sources/') || name.endsWith('/'), QDPX_LIMITS);
    } catch (e) {
      fail('input', e instanceof ZipLimitError ? `refused: ${e.message}` : `not a zip file: ${(e as Error).message}`);
    }
    if (read) {
      const names = new Set(read.names);
      const qde = read.entries.get('project.qde');
      const xml = qde ? utf8(qde) : null;
      if (!qde) fail('input', 'no project.qde at the top of the zip (REFI-QDA: project.qde beside a Sources folder)');
      else if (xml === null) fail('input', 'project.qde is not UTF-8 text', 'project.qde');
      else if (!guarded(xml, `${file}!project.qde`)) {
        problems.push(...(await xsdProblems('qde', [{ file: `${file}!project.qde`, xml }])));
        for (const m of xml.matchAll(/"internal:\/\/([^"]+)"/g)) {
          if (!names.has(`Sources/${m[1]}`)) fail('rule', `project.qde names internal://${m[1]}, which is not in Sources/`, 'project.qde');
        }
      }
    }
  }
  return { file, format, receipt: await receiptCheck(file, format, bytes, problems), problems };
}

/** The export receipt that lists this file: `<format>.receipt.json` in its folder or the folder above. */
async function receiptCheck(
  file: string,
  format: InteropFormat,
  bytes: Uint8Array,
  problems: InputProblem[],
): Promise<InteropFileValidation['receipt']> {
  const folder = path.dirname(path.resolve(file));
  for (const dir of [folder, path.dirname(folder)]) {
    const receiptFile = path.join(dir, interopReceiptFileName(format));
    if (
      !(await stat(receiptFile).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      continue;
    const relative = path.relative(dir, path.resolve(file)).split(path.sep).join('/');
    let entry: InteropFileEntry | undefined;
    try {
      entry = ((JSON.parse(await readFile(receiptFile, 'utf8')) as { files?: InteropFileEntry[] }).files ?? []).find(
        (f) => f.path === relative,
      );
    } catch (e) {
      problems.push({ file: receiptFile, line: null, field: null, stage: 'parse', message: `not a receipt: ${(e as Error).message}` });
      return 'invalid';
    }
    if (!entry) continue;
    const before = problems.length;
    const sha256 = sha256Hex(bytes);
    if (entry.sha256 !== sha256)
      problems.push({
        file: receiptFile,
        line: null,
        field: 'files',
        stage: 'rule',
        message: `${relative}: sha256 is ${sha256}, the receipt says ${entry.sha256}: the file changed after export`,
      });
    if (entry.bytes !== bytes.length)
      problems.push({
        file: receiptFile,
        line: null,
        field: 'files',
        stage: 'rule',
        message: `${relative}: ${bytes.length} bytes, the receipt says ${entry.bytes}`,
      });
    return problems.length === before ? 'ok' : 'invalid';
  }
  return 'absent';
}
