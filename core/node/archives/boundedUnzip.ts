import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';

/** What one zip may hold: inflation is counted as it runs, so a header's sizes are never believed. */
export interface ZipLimits {
  /** entries listed in the zip */
  entries: number;
  /** uncompressed bytes of one entry read */
  entryBytes: number;
  /** uncompressed bytes of all entries read */
  totalBytes: number;
  /** uncompressed bytes per compressed byte read so far (past the first MiB) */
  ratio: number;
  /** folders in an entry's name */
  depth: number;
}

/** A REFI-QDA project: one project.qde of XML and its Sources (which are listed, never inflated here). */
export const QDPX_LIMITS: ZipLimits = {
  entries: 100_000,
  entryBytes: 256 * 1024 * 1024,
  totalBytes: 512 * 1024 * 1024,
  ratio: 200,
  depth: 16,
};

export class ZipLimitError extends Error {
  override name = 'ZipLimitError';
}

/** Compressed bytes handed to the inflater at a time: its output per step stays bounded (deflate's ratio is at most ~1032). */
const STEP = 16 * 1024;
/** Small files compress far past any ratio; the ratio is judged only after this many uncompressed bytes. */
const RATIO_SLACK = 1024 * 1024;

/**
 * The entries of a zip that `wanted` names, inflated with a running count (fflate's streaming reader fed in small
 * steps): an entry or the total past its limit, or inflation past `ratio` times the bytes read, stops at once with a
 * one-line ZipLimitError; a wanted name listed twice is refused (a zip may list a name twice and a reader keeping
 * the last one reads what nobody checked). `names` lists every entry, wanted or not.
 */
export function unzipBounded(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  limits: ZipLimits,
): { entries: Map<string, Uint8Array>; names: string[] } {
  const entries = new Map<string, Uint8Array>();
  const names: string[] = [];
  let inflated = 0;
  let pushed = 0;
  const complete = new Set<string>();
  let failure: ZipLimitError | null = null;
  const stop = (message: string): void => {
    failure ??= new ZipLimitError(message);
    throw failure;
  };
  const unzip = new Unzip((file) => {
    if (failure) return;
    names.push(file.name);
    if (names.length > limits.entries) stop(`it holds more than ${limits.entries} entries`);
    if (file.name.split('/').length > limits.depth)
      stop(`entry "${file.name.slice(0, 200)}" is nested deeper than ${limits.depth} folders`);
    if (!wanted(file.name)) return;
    if (entries.has(file.name)) stop(`it holds "${file.name}" twice (which one is meant?)`);
    const pieces: Uint8Array[] = [];
    let size = 0;
    entries.set(file.name, new Uint8Array(0));
    file.ondata = (error, chunk, final) => {
      if (error) throw error;
      if (failure) return;
      size += chunk.length;
      inflated += chunk.length;
      if (size > limits.entryBytes) stop(`"${file.name}" inflates past ${limits.entryBytes} bytes (a zip bomb, or not a file Aloud reads)`);
      if (inflated > limits.totalBytes) stop(`its entries inflate past ${limits.totalBytes} bytes together`);
      if (inflated > RATIO_SLACK && inflated > limits.ratio * pushed)
        stop(`"${file.name}" inflates more than ${limits.ratio} times its compressed size (a zip bomb)`);
      pieces.push(chunk);
      if (final) {
        const whole = new Uint8Array(size);
        let at = 0;
        for (const piece of pieces) {
          whole.set(piece, at);
          at += piece.length;
        }
        entries.set(file.name, whole);
        complete.add(file.name);
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  for (let at = 0; at < bytes.length && !failure; at += STEP) {
    const step = bytes.subarray(at, Math.min(bytes.length, at + STEP));
    pushed += step.length;
    unzip.push(step, at + STEP >= bytes.length);
  }
  if (failure) throw failure;
  for (const name of entries.keys()) if (!complete.has(name)) throw new ZipLimitError(`"${name}" is cut short (the zip ends inside it)`);
  return { entries, names };
}
