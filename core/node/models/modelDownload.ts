import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type GgmlHeaderSummary, summarizeGgmlModel } from '../../common/models/ggmlFormat';
import { ModelFileError } from '../../common/models/modelFileError';
import type { ModelChecksum, ModelManifestEntry, VadManifestEntry } from '../../common/models/modelManifest';
import { checkGgmlModelFile } from './ggmlHeader';
import { ModelDownloadError } from './modelErrors';
import { type FileDigests, digestFile, digestFileInto, ModelDigester } from './modelFiles';
import { moveIntoPlace } from '../fs/atomicFile';
import { isHeld, tryAcquirePidLock } from '../process/pidFileLock';
import { recordInstalledModel } from './modelIndexFile';
import { resolveModelsDir } from './modelsDir';
import { say } from '../../common/refusal/refusalMessage';

export interface DownloadProgress {
  /** bytes in the .part file so far, including any resumed from an earlier attempt */
  received_bytes: number;
  /** from the manifest, else from the server; null when neither says */
  total_bytes: number | null;
  /** 0–100, null when the total is unknown */
  percent: number | null;
  resumed_from_bytes: number;
}

export interface DownloadModelOptions {
  /** models folder; default: ALOUD_MODELS_DIR, then the per-user folder */
  dir?: string;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Tests and local mirrors only: also accept plain http to 127.0.0.1 or [::1]. */
  allowLoopbackHttp?: boolean;
  /** abandon a connection that sends nothing for this long (default 60 s); the .part is kept */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  name: string;
  file: string;
  path: string;
  bytes: number;
  sha1: string;
  sha256: string;
  checksum: ModelChecksum;
  verified: true;
  status: 'downloaded' | 'already-present';
  /** bytes already in the .part file that this download continued from (0 for a fresh start) */
  resumed_from_bytes: number;
  /** the server ignored the Range request, so the .part was discarded and the download started over */
  restarted: boolean;
  /** the whisper model's ggml header; null for the VAD model (another layout, verified by its checksum) */
  header: GgmlHeaderSummary | null;
}

/** A whisper model, or the Silero VAD model (manifest `vad`), which has no whisper header to check. */
export type DownloadableModel = ModelManifestEntry | VadManifestEntry;

const isVad = (entry: DownloadableModel): entry is VadManifestEntry => 'kind' in entry && entry.kind === 'vad';

async function checkDownloaded(entry: DownloadableModel, file: string): Promise<GgmlHeaderSummary | null> {
  return isVad(entry) ? null : summarizeGgmlModel(await checkGgmlModelFile(file));
}

const MAX_REDIRECTS = 5;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/** Only https (or, when explicitly allowed, http to the loopback address) ever opens a connection. */
export function assertDownloadUrlAllowed(url: string, allowLoopbackHttp = false): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ModelDownloadError('url', say('refusal.models.notAValidUrl', { url }));
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:' && allowLoopbackHttp && LOOPBACK_HOSTS.has(parsed.hostname)) return parsed;
  throw new ModelDownloadError('url', say('refusal.models.refusingToDownloadFromOnly', { url }));
}

function requestOnce(url: URL, headers: Record<string, string>, signal: AbortSignal | undefined, idleTimeoutMs: number): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { headers: { 'user-agent': 'aloud-model-manager', 'accept-encoding': 'identity', ...headers }, signal }, resolve);
    request.setTimeout(idleTimeoutMs, () => request.destroy(new Error(`no data from ${url.host} for ${Math.round(idleTimeoutMs / 1000)} s`)));
    request.on('error', reject);
  });
}

/** GET following redirects, each hop checked against the same URL rule. */
async function httpGet(url: string, headers: Record<string, string>, options: DownloadModelOptions): Promise<IncomingMessage> {
  let current = assertDownloadUrlAllowed(url, options.allowLoopbackHttp);
  for (let hop = 0; ; hop++) {
    const response = await requestOnce(current, headers, options.signal, options.idleTimeoutMs ?? 60_000);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new ModelDownloadError('http', say('refusal.models.tooManyRedirectsStartingAt', { url }));
      current = assertDownloadUrlAllowed(new URL(location, current).toString(), options.allowLoopbackHttp);
      continue;
    }
    return response;
  }
}

/** Content-Range "bytes 100-199/1000" gives start 100 and total 1000; the unsatisfied form ("bytes *\/1000") gives only the total. */
export function parseContentRange(header: string | undefined): { start: number | null; total: number | null } | null {
  const m = header ? /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)$/i.exec(header.trim()) : null;
  if (!m) return null;
  return { start: m[1] === undefined ? null : Number(m[1]), total: m[2] === '*' || m[2] === undefined ? null : Number(m[2]) };
}

async function fileSize(file: string): Promise<number> {
  const s = await stat(file).catch(() => null);
  return s?.isFile() ? s.size : 0;
}

function isAbort(e: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (e as Error | undefined)?.name === 'AbortError';
}

function digestFor(algo: ModelChecksum['algo'], digests: FileDigests): string {
  return digests[algo];
}

/**
 * Downloads a manifest model into the models folder: resumes a .part file with an HTTP Range request
 * (starting over cleanly when the server ignores Range), reports progress, verifies the checksum and
 * the ggml header, then fsyncs and renames into place, so the final name only ever holds a verified
 * file. A checksum mismatch deletes the .part; a dropped connection or an abort keeps it for resuming.
 */
export async function downloadModel(entry: DownloadableModel, options: DownloadModelOptions = {}): Promise<DownloadResult> {
  assertDownloadUrlAllowed(entry.url, options.allowLoopbackHttp);
  const dir = resolveModelsDir(options.dir);
  await mkdir(dir, { recursive: true });
  const finalPath = path.join(dir, entry.file);
  const partPath = `${finalPath}.part`;
  const lock = await tryAcquirePidLock(`${finalPath}.lock`);
  if (!isHeld(lock)) {
    throw new ModelDownloadError(
      'busy',
      lock.reason === 'unreadable'
        ? say('refusal.models.downloadLockUnreadable', { name: entry.name, lockFile: `${finalPath}.lock` })
        : say('refusal.models.downloadingInAnotherProcess', { name: entry.name, dir }),
    );
  }
  const release = lock.release;
  try {
    if ((await fileSize(finalPath)) > 0) {
      const digests = await digestFile(finalPath, options.signal);
      if (digestFor(entry.checksum.algo, digests) === entry.checksum.value) {
        return { ...resultBase(entry, finalPath, digests, await checkDownloaded(entry, finalPath)), status: 'already-present', resumed_from_bytes: 0, restarted: false };
      }
      // A damaged file at the final name stays until a verified download replaces it.
    }
    const transfer = await transferToPart(entry, partPath, options);
    const digests = transfer.digests;
    const actual = digestFor(entry.checksum.algo, digests);
    if (actual !== entry.checksum.value) {
      await rm(partPath, { force: true });
      throw new ModelDownloadError(
        'checksum',
        say('refusal.models.checksumMismatchExpectedGotBytes', { file: entry.file, algo: entry.checksum.algo, value: entry.checksum.value, actual, bytes: digests.bytes }),
        { expected: entry.checksum.value, actual },
      );
    }
    let header: GgmlHeaderSummary | null;
    try {
      header = await checkDownloaded(entry, partPath);
    } catch (e) {
      if (!(e instanceof ModelFileError)) throw e;
      await rm(partPath, { force: true });
      throw new ModelDownloadError('file', say('refusal.models.checksumMatchesButTheFile', { file: entry.file, reason: e.reasonSaid }));
    }
    await moveIntoPlace(partPath, finalPath);
    const finalStat = await stat(finalPath);
    await recordInstalledModel(dir, {
      name: entry.name,
      file: entry.file,
      bytes: digests.bytes,
      sha256: digests.sha256,
      sha1: digests.sha1,
      source: 'download',
      origin: entry.url,
      downloaded_at: new Date().toISOString(),
      mtime_ms: finalStat.mtimeMs,
    });
    return { ...resultBase(entry, finalPath, digests, header), status: 'downloaded', resumed_from_bytes: transfer.resumedFrom, restarted: transfer.restarted };
  } finally {
    await release();
  }
}

function resultBase(entry: DownloadableModel, file: string, digests: FileDigests, header: GgmlHeaderSummary | null) {
  return { name: entry.name, file: entry.file, path: file, bytes: digests.bytes, sha1: digests.sha1, sha256: digests.sha256, checksum: entry.checksum, verified: true as const, header };
}

interface Transfer {
  digests: FileDigests;
  resumedFrom: number;
  restarted: boolean;
}

/** Brings the .part file to the full download, continuing what is already there when the server allows. */
async function transferToPart(entry: DownloadableModel, partPath: string, options: DownloadModelOptions): Promise<Transfer> {
  let restarted = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    const have = await fileSize(partPath);
    const response = await httpGet(entry.url, have > 0 ? { range: `bytes=${have}-` } : {}, options).catch((e: unknown) => {
      if (isAbort(e, options.signal) || e instanceof ModelDownloadError) throw e;
      throw new ModelDownloadError('network', say('refusal.models.cannotReach', { url: entry.url, message: (e as Error).message }));
    });
    const status = response.statusCode ?? 0;
    const range = parseContentRange(response.headers['content-range']);

    if (status === 416 && have > 0) {
      response.resume();
      // The .part may already hold the whole file (an earlier run stopped just before verifying).
      if (range?.total === have && (entry.bytes === null || entry.bytes === have)) {
        const digester = new ModelDigester();
        await digestFileInto(digester, partPath, options.signal);
        return { digests: digester.digest(), resumedFrom: have, restarted };
      }
      await rm(partPath, { force: true });
      restarted = true;
      continue;
    }
    if (status !== 200 && status !== 206) {
      response.resume();
      throw new ModelDownloadError('http', say('refusal.models.httpFrom', { status, value: response.statusMessage ? ` ${response.statusMessage}` : '', url: entry.url }), { status });
    }

    const resuming = status === 206 && have > 0 && range?.start === have;
    if (status === 206 && !resuming) {
      response.resume();
      throw new ModelDownloadError('http', say('refusal.models.theServerSentAPartial', { url: entry.url, value: response.headers['content-range'] ?? 'no Content-Range', have }));
    }
    if (have > 0 && !resuming) restarted = true;
    const resumedFrom = resuming ? have : 0;
    const contentLength = response.headers['content-length'] === undefined ? null : Number(response.headers['content-length']);
    const serverTotal = resuming ? (range?.total ?? (contentLength === null ? null : have + contentLength)) : contentLength;
    if (entry.bytes !== null && serverTotal !== null && serverTotal !== entry.bytes) {
      response.resume();
      throw new ModelDownloadError('http', say('refusal.models.theServerOffersBytesBut', { url: entry.url, serverTotal, bytes: entry.bytes }));
    }
    const total = entry.bytes ?? serverTotal;

    const digester = new ModelDigester();
    if (resuming) await digestFileInto(digester, partPath, options.signal);
    const report = (): void => {
      options.onProgress?.({
        received_bytes: digester.bytes,
        total_bytes: total,
        percent: total ? Math.min(100, (digester.bytes / total) * 100) : null,
        resumed_from_bytes: resumedFrom,
      });
    };
    report();
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        digester.update(chunk);
        report();
        done(null, chunk);
      },
    });
    try {
      await pipeline(response, meter, createWriteStream(partPath, { flags: resuming ? 'a' : 'w' }), { signal: options.signal });
    } catch (e) {
      if (isAbort(e, options.signal)) throw e;
      throw new ModelDownloadError(
        'network',
        say('refusal.models.connectionToLostAfterBytes', { host: new URL(entry.url).host, bytes: digester.bytes, value: total ? ` of ${total}` : '', message: (e as Error).message }),
        { received_bytes: digester.bytes, total_bytes: total },
      );
    }
    if (total !== null && digester.bytes !== total) {
      throw new ModelDownloadError(
        'incomplete',
        say('refusal.models.theConnectionClosedAfterOf', { url: entry.url, bytes: digester.bytes, total }),
        { received_bytes: digester.bytes, total_bytes: total },
      );
    }
    return { digests: digester.digest(), resumedFrom, restarted };
  }
  throw new ModelDownloadError('http', say('refusal.models.theServerRefusedToResume', { url: entry.url }));
}
