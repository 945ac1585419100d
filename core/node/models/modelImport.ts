import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type GgmlHeaderSummary, summarizeGgmlModel } from '../../common/models/ggmlFormat';
import { findManifestModel, type ModelManifest, manifestModelWithDigest } from '../../common/models/modelManifest';
import { checkGgmlModelFile } from './ggmlHeader';
import { type InstalledModel, modelNameFromFile } from './installedModels';
import { loadModelManifest } from './manifestFile';
import { ModelStoreError } from './modelErrors';
import { placeWithoutReplacing } from '../fs/atomicFile';
import { type FileDigests, digestFile, ModelDigester } from './modelFiles';
import { readModelIndex, recordInstalledModel } from './modelIndexFile';
import { resolveModelsDir } from './modelsDir';
import { say } from '../../common/refusal/refusalMessage';

export interface ImportModelOptions {
  dir?: string;
  /** name for a model the manifest does not know; a file matching a manifest checksum always takes the manifest name */
  name?: string;
  manifest?: ModelManifest;
  signal?: AbortSignal;
}

/** The imported file as the models list will show it, and what the import did. */
export interface ImportResult extends Pick<InstalledModel, 'name' | 'file' | 'path' | 'bytes' | 'sha256' | 'sha1' | 'manifest_name' | 'verified'> {
  status: 'imported' | 'already-present';
  /** the whisper model's header; null for the VAD model (a ggml file, but not a whisper model) */
  header: GgmlHeaderSummary | null;
  /** a whisper model, or the Silero VAD model the manifest names (recognised by its checksum) */
  kind: 'whisper' | 'vad';
}

const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Imports a local model file: checks its ggml header, copies it under a temporary name while hashing,
 * fsyncs, then moves it to its final name and records it in models.json. A file matching a manifest
 * checksum is recognised as that model. An existing different file is never overwritten.
 */
export async function importModelFile(source: string, options: ImportModelOptions = {}): Promise<ImportResult> {
  const sourcePath = path.resolve(source);
  const manifest = options.manifest ?? (await loadModelManifest());
  // the Silero VAD model is a ggml file but no whisper model: it is recognised by the manifest's checksum
  const vadEntry = manifest.vad && (await stat(sourcePath).catch(() => null))?.size === manifest.vad.bytes ? manifest.vad : null;
  const vad = vadEntry && vadEntry.checksum.value === (await digestFile(sourcePath, options.signal))[vadEntry.checksum.algo] ? vadEntry : null;
  if (!vad) await checkGgmlModelFile(sourcePath);
  if (options.name !== undefined && !PLAIN_NAME.test(options.name)) {
    throw new ModelStoreError(say('refusal.models.nameUseLettersDigitsDots', { name: options.name }));
  }
  const dir = resolveModelsDir(options.dir);
  await mkdir(dir, { recursive: true });

  const temp = path.join(dir, `.import-${process.pid}-${randomUUID()}.tmp`);
  try {
    const digester = new ModelDigester();
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        digester.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(createReadStream(sourcePath, { highWaterMark: 1 << 20 }), meter, createWriteStream(temp, { flags: 'wx' }), { signal: options.signal });
    const digests = digester.digest();
    // The copy is what gets loaded later, so its header is the one that must be right.
    const header = vad ? null : summarizeGgmlModel(await checkGgmlModelFile(temp));
    if (vad && digests[vad.checksum.algo] !== vad.checksum.value) throw new ModelStoreError(say('refusal.models.theFileChangedWhileIt', { sourcePath }));

    const match = vad ? undefined : manifestModelWithDigest(manifest, digests);
    let name: string;
    let file: string;
    if (vad) {
      name = vad.name;
      file = vad.file;
    } else if (match) {
      name = match.name;
      file = match.file;
    } else {
      name = options.name ?? modelNameFromFile(sourcePath);
      const taken = findManifestModel(manifest, name);
      if (taken) {
        throw new ModelStoreError(
          say('refusal.models.isAManifestModelBut', { sourcePath, name, algo: taken.checksum.algo, value: taken.checksum.value }),
        );
      }
      file = `ggml-${name}.bin`;
      const fileTaken = manifest.models.find((m) => m.file === file);
      if (fileTaken) throw new ModelStoreError(say('refusal.models.fileNameBelongsToManifest', { sourcePath, file, name: fileTaken.name }));
    }
    const finalPath = path.join(dir, file);
    const base = { name, file, path: finalPath, bytes: digests.bytes, sha256: digests.sha256, sha1: digests.sha1, manifest_name: vad?.name ?? match?.name ?? null, verified: vad !== null || match !== undefined, header, kind: vad ? ('vad' as const) : ('whisper' as const) };

    let status: ImportResult['status'] = 'imported';
    if (sourcePath === finalPath || (await placeWithoutReplacing(temp, finalPath)) === 'exists') {
      const existing: FileDigests = await digestFile(finalPath, options.signal);
      if (existing.sha256 !== digests.sha256) {
        throw new ModelStoreError(say('refusal.models.alreadyHoldsADifferentModel', { finalPath, sha256: existing.sha256 }));
      }
      status = 'already-present';
    }
    const recorded = (await readModelIndex(dir)).models.find((m) => m.file === file && m.sha256 === digests.sha256);
    const finalStat = await stat(finalPath);
    // Re-importing a file already here keeps its original record (e.g. a download) rather than relabelling it.
    if (!recorded || status === 'imported') await recordInstalledModel(dir, {
      name,
      file,
      bytes: digests.bytes,
      sha256: digests.sha256,
      sha1: digests.sha1,
      source: 'import',
      origin: sourcePath,
      imported_at: new Date().toISOString(),
      mtime_ms: finalStat.mtimeMs,
    });
    return { ...base, status };
  } finally {
    await rm(temp, { force: true });
  }
}
