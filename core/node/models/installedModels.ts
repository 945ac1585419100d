import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type GgmlHeaderSummary, summarizeGgmlModel } from '../../common/models/ggmlFormat';
import { ModelFileError } from '../../common/models/modelFileError';
import type { InstalledModelRecord } from '../../common/models/modelIndex';
import { type ModelChecksum, type ModelManifest, manifestModelWithDigest } from '../../common/models/modelManifest';
import { checkGgmlModelFile } from './ggmlHeader';
import { loadModelManifest } from './manifestFile';
import { type FileDigests, digestFile } from './modelFiles';
import { readModelIndex } from './modelIndexFile';
import { resolveModelsDir } from './modelsDir';
import { englishRefusal, say, type RefusalMessage } from '../../common/refusal/refusalMessage';

export interface InstalledModel {
  /** the manifest name when the checksum matches one, else the name recorded at import, else from the file name */
  name: string;
  file: string;
  path: string;
  bytes: number;
  sha256: string;
  sha1: string;
  /** the manifest model this file is (by checksum), or null */
  manifest_name: string | null;
  /** the checksum the manifest publishes for this file (matched by checksum or by file name), or null for other models */
  expected_checksum: ModelChecksum | null;
  /** the file's digest equals the manifest's published checksum */
  verified: boolean;
  source: 'download' | 'import' | 'unrecorded';
  /** null when the header check failed; `problem` then says why */
  header: GgmlHeaderSummary | null;
  problem: string | null;
}

export interface ListInstalledOptions {
  manifest?: ModelManifest;
  /** hash every file again instead of reusing the index digests of unchanged files */
  rehash?: boolean;
  signal?: AbortSignal;
}

/** "ggml-base.en.bin" → "base.en": the name a file stands for when nothing else names it. */
export function modelNameFromFile(file: string): string {
  const stem = path.basename(file).replace(/\.bin$/i, '').replace(/^ggml-/i, '');
  const plain = stem.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').replace(/-+$/, '');
  return plain || 'imported';
}

async function digestsOf(file: string, size: number, mtimeMs: number, record: InstalledModelRecord | undefined, options: ListInstalledOptions): Promise<FileDigests> {
  if (!options.rehash && record && record.bytes === size && Math.abs(record.mtime_ms - mtimeMs) < 1) {
    return { bytes: record.bytes, sha1: record.sha1, sha256: record.sha256 };
  }
  return digestFile(file, options.signal);
}

/** A model as listed, with its problem as a catalog message (the app says it in the person's language; the CLI prints `problem`). */
export interface InspectedModel<T> {
  model: T;
  problemSaid: RefusalMessage | null;
}

/**
 * Every model file in the models folder with its digests, whether it is a verified manifest model,
 * and its ggml header summary (or the problem that makes it unusable). Reads only; `aloud doctor` calls it.
 */
export async function listInstalledModels(dir?: string, options: ListInstalledOptions = {}): Promise<InstalledModel[]> {
  return (await inspectInstalledModels(dir, options)).map((i) => i.model);
}

/** listInstalledModels with each problem's catalog message beside it (kept out of the model: the CLI's --json prints it whole). */
export async function inspectInstalledModels(dir?: string, options: ListInstalledOptions = {}): Promise<Array<InspectedModel<InstalledModel>>> {
  const folder = resolveModelsDir(dir);
  const entries = await readdir(folder, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const manifest = options.manifest ?? (await loadModelManifest());
  const index = await readModelIndex(folder);
  const models: Array<InspectedModel<InstalledModel>> = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith('.') || !entry.name.toLowerCase().endsWith('.bin')) continue;
    // the Silero VAD model lives beside the whisper models but is not one (see vadModelIn)
    if (entry.name === manifest.vad?.file) continue;
    const file = path.join(folder, entry.name);
    const stats = await stat(file);
    const record = index.models.find((m) => m.file === entry.name);
    const digests = await digestsOf(file, stats.size, stats.mtimeMs, record, options);
    const match = manifestModelWithDigest(manifest, digests);
    const filedAs = match ?? manifest.models.find((m) => m.file === entry.name);
    let header: GgmlHeaderSummary | null = null;
    let problemSaid: RefusalMessage | null = null;
    try {
      header = summarizeGgmlModel(await checkGgmlModelFile(file));
    } catch (e) {
      if (!(e instanceof ModelFileError)) throw e;
      problemSaid = e.reasonSaid;
    }
    // The index holds the digest taken at import or download: different bytes now are not the model that was checked.
    // (a manifest model is checked against its published checksum instead, which names the mismatch)
    if (record && !filedAs && record.sha256 !== digests.sha256) {
      const changed = record.source === 'import' ? 'refusal.models.bytesChangedImported' : 'refusal.models.bytesChangedInstalled';
      problemSaid = say(changed, { then: record.sha256, now: digests.sha256 });
    }
    const problem = problemSaid && englishRefusal(problemSaid);
    const model: InstalledModel = {
      name: match?.name ?? record?.name ?? modelNameFromFile(entry.name),
      file: entry.name,
      path: file,
      bytes: digests.bytes,
      sha256: digests.sha256,
      sha1: digests.sha1,
      manifest_name: match?.name ?? null,
      expected_checksum: filedAs?.checksum ?? null,
      verified: match !== undefined,
      source: record?.source ?? 'unrecorded',
      header,
      problem,
    };
    models.push({ model, problemSaid });
  }
  return models.sort((a, b) => a.model.name.localeCompare(b.model.name));
}

/** The Silero VAD model the manifest names, as installed in the models folder (or not). */
export interface InstalledVadModel {
  name: string;
  file: string;
  path: string;
  approx_mib: number;
  present: boolean;
  bytes: number | null;
  sha256: string | null;
  expected_checksum: ModelChecksum;
  /** the file's digest equals the manifest's checksum; null when absent */
  verified: boolean | null;
  problem: string | null;
}

/** The VAD model's row (null when the manifest names none): present, and verified against the manifest's checksum. */
export async function installedVadModel(dir?: string, options: ListInstalledOptions = {}): Promise<InstalledVadModel | null> {
  return (await inspectVadModel(dir, options))?.model ?? null;
}

/** installedVadModel with its problem's catalog message beside it. */
export async function inspectVadModel(dir?: string, options: ListInstalledOptions = {}): Promise<InspectedModel<InstalledVadModel> | null> {
  const manifest = options.manifest ?? (await loadModelManifest());
  const entry = manifest.vad;
  if (!entry) return null;
  const folder = resolveModelsDir(dir);
  const file = path.join(folder, entry.file);
  const base = { name: entry.name, file: entry.file, path: file, approx_mib: entry.approx_mib, expected_checksum: entry.checksum };
  const stats = await stat(file).catch(() => null);
  if (!stats?.isFile()) return { model: { ...base, present: false, bytes: null, sha256: null, verified: null, problem: null }, problemSaid: null };
  const record = (await readModelIndex(folder)).models.find((m) => m.file === entry.file);
  const digests = await digestsOf(file, stats.size, stats.mtimeMs, record, options);
  const verified = digests[entry.checksum.algo] === entry.checksum.value;
  const problemSaid = verified
    ? null
    : say('refusal.models.vadChecksumMismatch', {
        algo: entry.checksum.algo,
        expected: entry.checksum.value,
        got: digests[entry.checksum.algo],
        name: entry.name,
      });
  const model: InstalledVadModel = {
    ...base,
    present: true,
    bytes: digests.bytes,
    sha256: digests.sha256,
    verified,
    problem: problemSaid && englishRefusal(problemSaid),
  };
  return { model, problemSaid };
}
