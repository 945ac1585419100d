import { createHash } from 'node:crypto';
import { type FileHandle, lstat, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { receiptFileName, receiptProblems } from '../../common/export/exportReceipt';
import { goldReceiptProblems } from '../../common/adjudication/goldRecord';
import { exportFormatFromFileName } from '../../common/export/exportFormats';
import { JsonSyntaxError, parseStrictJson } from '../../common/io/strictJson';
import type { InputProblem } from '../../common/io/inputProblem';
import { processRewardReceiptProblems } from '../../common/reasoning/processReward';
import { unitsReceiptProblems } from '../../common/export/codingExport';
import { CODEBOOK_FILE } from '../../common/codebook/codebook';
import { syncFolder, writeFileAtomic } from '../fs/atomicFile';
import { isInsideFolder, realOfNearest } from '../fs/resolveInside';
import { sha256Hex } from '../fs/sha256';
import { ProjectError } from '../fs/projectError';
import { itemsPath, type OpenProject } from '../project/projectFolder';

/** The project's data folders: no export writes inside them, --force or not (session audio lives in sessions/). */
export const PROJECT_DATA_FOLDERS: readonly string[] = ['sessions', 'rooms', 'imports', 'adjudication'];

/** Where an export goes and whether it may replace a file that is not an earlier export. */
export interface ExportTargetPolicy {
  project: OpenProject;
  force: boolean;
}

const inside = (folder: string, file: string): boolean => file === folder || isInsideFolder(folder, file);

/**
 * The real path an export to `out` writes: the folders' links resolved, so a path through a link is judged where it
 * lands. `out` itself must not be a link: an export never writes through one (a link at --out is input, like any
 * link in a project).
 */
async function realTarget(out: string): Promise<string> {
  const resolved = path.resolve(out);
  const info = await lstat(resolved).catch(() => null);
  if (info?.isSymbolicLink()) {
    const to = await realpath(resolved).catch(() => 'nowhere (a dangling link)');
    throw new ProjectError(`--out ${out}: is a symbolic link (to ${to}); exports are never written through links: give the real path`);
  }
  return path.join(await realOfNearest(path.dirname(resolved)), path.basename(resolved));
}

/** The receipt checks that make a file an earlier Aloud export; a new kind of export with its own receipt adds one here. */
const EARLIER_EXPORT_RECEIPTS: ReadonlyArray<
  (text: string, receiptFile: string, file: { fileName: string; sha256: string; bytes: number }) => InputProblem[]
> = [
  (text, receiptFile, file) =>
    receiptProblems(text, receiptFile, { ...file, format: exportFormatFromFileName(file.fileName), records: null }),
  (text, receiptFile, file) => processRewardReceiptProblems(text, receiptFile, { ...file, records: null }),
  (text, receiptFile, file) => unitsReceiptProblems(text, receiptFile, { ...file, rows: null }),
  (text, receiptFile, file) => goldReceiptProblems(text, receiptFile, { ...file, records: null }),
];

/** Whether `file` is an earlier Aloud export: its receipt beside it validates and names this very file (name, size, sha256). */
export async function isEarlierExport(file: string): Promise<boolean> {
  const receiptFile = receiptFileName(file);
  const text = await readFile(receiptFile, 'utf8').catch(() => null);
  if (text === null) return false;
  const bytes = await readFile(file);
  const facts = { fileName: path.basename(file), sha256: sha256Hex(bytes), bytes: bytes.length };
  return EARLIER_EXPORT_RECEIPTS.some((check) => check(text, receiptFile, facts).length === 0);
}

/**
 * Where an export may be written: never into the project's own data (aloud.yaml, the items file, the sessions,
 * rooms and imports folders), judged where the path lands after links, --force or not; never through a link; never
 * over a folder; and over an existing file only when it is an earlier export (a receipt beside it that validates and
 * names it) or the caller said --force. An export pair cut short by a crash is settled first (settleExportPair).
 */
export async function checkExportTarget(
  project: OpenProject,
  out: string,
  kind: 'file' | 'folder',
  options: { force: boolean },
): Promise<void> {
  const target = await realTarget(out);
  const projectDir = await realpath(project.dir).catch(() => path.resolve(project.dir));
  const protectedFiles = [
    await realOfNearest(project.configPath),
    await realOfNearest(itemsPath(project)),
    await realOfNearest(path.join(project.dir, CODEBOOK_FILE)),
  ];
  const protectedFolders = await Promise.all(PROJECT_DATA_FOLDERS.map((f) => realOfNearest(path.join(projectDir, f))));
  if (protectedFiles.includes(target) || protectedFolders.some((f) => inside(f, target) || (kind === 'folder' && inside(target, f)))) {
    throw new ProjectError(
      `--out ${out}: ${target === path.resolve(out) ? 'that is' : `leads to ${target}, which is`} the project's own data (aloud.yaml, items, codebook.yaml, ${PROJECT_DATA_FOLDERS.join(', ')}); exports never write there, --force or not: choose another path, e.g. ${path.join(project.dir, 'exports')}`,
    );
  }
  if (kind === 'file') await settleExportPair(target);
  const existing = await stat(target).catch(() => null);
  if (!existing) return;
  if (kind === 'file' && existing.isDirectory()) throw new ProjectError(`--out ${out}: is a folder; give a file name for the export`);
  if (kind === 'folder' && !existing.isDirectory()) throw new ProjectError(`--out ${out}: is a file; transcripts go into a folder`);
  if (kind === 'file' && !options.force && !(await isEarlierExport(target))) {
    throw new ProjectError(
      `--out ${out}: file exists and is not an earlier Aloud export (no receipt beside it that validates and names it); choose another name or pass --force to replace it`,
    );
  }
}

/** The hidden names a new export pair is written under before the swap. */
function pendingNames(file: string): { file: string; receipt: string; receiptPart: string } {
  const dir = path.dirname(file);
  const base = path.basename(file);
  return {
    file: path.join(dir, `.${base}.aloud-new`),
    receipt: path.join(dir, `.${base}.receipt.json.aloud-new`),
    // where older versions wrote the receipt before renaming it: still cleaned up after a crash
    receiptPart: path.join(dir, `.${base}.receipt.json.aloud-part`),
  };
}

/** Whether the receipt text vouches for these bytes (sha256 and size); the full check is the validator's. */
async function vouchesFor(receiptText: string | null, file: string): Promise<boolean> {
  if (receiptText === null) return false;
  let value: unknown;
  try {
    value = parseStrictJson(receiptText).value;
  } catch (e) {
    if (e instanceof JsonSyntaxError) return false;
    throw e;
  }
  const bytes = await readFile(file).catch(() => null);
  const r = value as { sha256?: unknown; bytes?: unknown } | null;
  return bytes !== null && r !== null && r.sha256 === sha256Hex(bytes) && r.bytes === bytes.length;
}

/**
 * Finishes or undoes an export pair a crash cut short, so the pair on disk is the old one or the new one. The new
 * receipt under its hidden name is the commit point: present and vouching for the new file (hidden, or already in
 * place), the swap is finished; otherwise the half-written new files are removed and the old pair stands.
 */
export async function settleExportPair(file: string): Promise<'none' | 'finished' | 'undone'> {
  const pending = pendingNames(file);
  const receiptText = await readFile(pending.receipt, 'utf8').catch(() => null);
  const hasNewFile = await stat(pending.file).then(
    () => true,
    () => false,
  );
  if (
    receiptText !== null &&
    ((hasNewFile && (await vouchesFor(receiptText, pending.file))) || (!hasNewFile && (await vouchesFor(receiptText, file))))
  ) {
    if (hasNewFile) await rename(pending.file, file);
    await rename(pending.receipt, receiptFileName(file));
    await unlink(pending.receiptPart).catch(() => undefined);
    await syncFolder(path.dirname(file));
    return 'finished';
  }
  let removed = false;
  for (const leftover of [pending.file, pending.receipt, pending.receiptPart]) {
    removed =
      (await unlink(leftover).then(
        () => true,
        () => false,
      )) || removed;
  }
  if (removed) await syncFolder(path.dirname(file));
  return removed ? 'undone' : 'none';
}

/** The steps of writing an export pair, for crash-point tests: each is durable when reported. */
export type ExportPairStep = 'new-file-written' | 'new-receipt-written' | 'file-swapped' | 'receipt-swapped';

/** Where an export's text goes as it is made: appended in order; the file's size and sha256 are kept as it grows. */
export interface ExportSink {
  write(text: string): Promise<void>;
}

/** What the receipt of an export pair is made from: the written file's sha256 and size. */
export interface WrittenExport {
  sha256: string;
  bytes: number;
}

/** An export file written under its hidden name a piece at a time: buffered, hashed as it goes, synced at the end. */
class PendingExportFile implements ExportSink {
  private readonly hash = createHash('sha256');
  /** text written since the last flush: joined and encoded once per flush, not once per record */
  private pieces: string[] = [];
  private buffered = 0;
  private bytes = 0;

  private constructor(private readonly handle: FileHandle) {}

  static async create(file: string): Promise<PendingExportFile> {
    return new PendingExportFile(await open(file, 'wx'));
  }

  async write(text: string): Promise<void> {
    this.pieces.push(text);
    this.buffered += text.length;
    if (this.buffered >= 1 << 20) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffered === 0) return;
    const data = Buffer.from(this.pieces.join(''), 'utf8');
    this.pieces = [];
    this.buffered = 0;
    this.hash.update(data);
    this.bytes += data.length;
    for (let done = 0; done < data.length;) done += (await this.handle.write(data, done)).bytesWritten;
  }

  async finish(): Promise<WrittenExport> {
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
    return { sha256: this.hash.digest('hex'), bytes: this.bytes };
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}

/**
 * Writes an export and its receipt as a pair that a crash leaves old or new, never mixed: the target is checked
 * (checkExportTarget: the project's data, links, earlier exports), the new file is written complete under a hidden
 * name as `produce` makes it (record by record: nothing holds the whole text), then the new receipt (the commit
 * point), then the file and the receipt are renamed into place. `produce` throwing (an invalid record, a full disk)
 * removes the half-written file and leaves the old pair. A crash before the commit point leaves the old pair; after
 * it, settleExportPair (run by the next export or validation of the file) finishes the swap.
 */
export async function writeExportPair<R>(
  out: string,
  produce: (sink: ExportSink) => Promise<void>,
  receiptFor: (written: WrittenExport) => R,
  policy: ExportTargetPolicy & { crashPoint?: (step: ExportPairStep) => Promise<void> },
): Promise<{ receiptFile: string; receipt: R }> {
  await checkExportTarget(policy.project, out, 'file', { force: policy.force });
  const target = await realTarget(out);
  await settleExportPair(target);
  const step = policy.crashPoint ?? (() => Promise.resolve());
  const pending = pendingNames(target);
  let file: PendingExportFile | null = null;
  let receipt: R;
  try {
    file = await PendingExportFile.create(pending.file);
    await produce(file);
    const written = await file.finish();
    file = null;
    receipt = receiptFor(written);
    await step('new-file-written');
    await writeFileAtomic(pending.receipt, `${JSON.stringify(receipt, null, 2)}\n`);
  } catch (e) {
    // before the commit point: the old pair stands; the half-written new one goes
    await file?.abandon();
    for (const leftover of [pending.file, pending.receiptPart]) await unlink(leftover).catch(() => undefined);
    throw e;
  }
  await step('new-receipt-written');
  await rename(pending.file, target);
  await step('file-swapped');
  const receiptFile = receiptFileName(out);
  await rename(pending.receipt, receiptFileName(target));
  await syncFolder(path.dirname(target));
  await step('receipt-swapped');
  return { receiptFile, receipt };
}

/** writeExportPair of a text already made (a small export, a test). */
export function writeExportWithReceipt<R>(
  out: string,
  text: string,
  receiptFor: (written: WrittenExport) => R,
  policy: ExportTargetPolicy & { crashPoint?: (step: ExportPairStep) => Promise<void> },
): Promise<{ receiptFile: string; receipt: R }> {
  return writeExportPair(out, (sink) => sink.write(text), receiptFor, policy);
}
