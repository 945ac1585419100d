import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Parser, type ReadEntry } from 'tar';

/**
 * The POSIX tar (ustar) container a session pack is: any tar tool can list and extract it. Only regular files are
 * written and read; names longer than the ustar field go in a pax `path` record. Written as a stream here; read by
 * npm's `tar` parser under limits that never trust a header's sizes (see `readTar`).
 */
const BLOCK = 512;

export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

function field(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

function octal(header: Buffer, offset: number, length: number, value: number): void {
  field(header, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

function headerBlock(name: string, size: number, type: '0' | 'x'): Buffer {
  const header = Buffer.alloc(BLOCK);
  field(header, 0, 100, name);
  octal(header, 100, 8, 0o644);
  octal(header, 108, 8, 0);
  octal(header, 116, 8, 0);
  octal(header, 124, 12, size);
  octal(header, 136, 12, 0);
  header.fill(0x20, 148, 156);
  field(header, 156, 1, type);
  field(header, 257, 6, 'ustar\0');
  field(header, 263, 2, '00');
  let sum = 0;
  for (const b of header) sum += b;
  field(header, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

/** A pax record "LEN key=value\n", LEN counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return `${length}${body}`;
}

const padding = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

/** Writes entries to an open file, one after another; `sha256` of each entry's bytes comes back. */
export class TarWriter {
  private position = 0;

  constructor(private readonly handle: FileHandle) {}

  private async write(bytes: Buffer): Promise<void> {
    for (let done = 0; done < bytes.length;)
      done += (await this.handle.write(bytes, done, bytes.length - done, this.position + done)).bytesWritten;
    this.position += bytes.length;
  }

  /** One regular file of `size` bytes, its content given in pieces (which must add up to `size`). */
  async add(name: string, size: number, content: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<string> {
    if (Buffer.byteLength(name) > 100) {
      const pax = Buffer.from(paxRecord('path', name));
      await this.write(headerBlock('PaxHeader', pax.length, 'x'));
      await this.write(Buffer.concat([pax, Buffer.alloc(padding(pax.length))]));
    }
    await this.write(headerBlock(Buffer.byteLength(name) > 100 ? name.slice(0, 99) : name, size, '0'));
    const hash = createHash('sha256');
    let written = 0;
    for await (const piece of content) {
      hash.update(piece);
      written += piece.length;
      if (written > size) throw new Error(`${name}: grew while it was packed (more than ${size} bytes)`);
      await this.write(piece);
    }
    if (written !== size) throw new Error(`${name}: changed while it was packed (${written} bytes, not ${size})`);
    await this.write(Buffer.alloc(padding(size)));
    return hash.digest('hex');
  }

  /** The end-of-archive marker (two zero blocks). */
  async end(): Promise<void> {
    await this.write(Buffer.alloc(2 * BLOCK));
  }

  get bytes(): number {
    return this.position;
  }
}

/** What one archive may hold: nothing a header declares is believed past these. */
export interface TarLimits {
  /** entries (files), pax records not counted */
  entries: number;
  /** bytes of one file */
  entryBytes: number;
  /** bytes of all files together */
  totalBytes: number;
  /** folders in a path ("audio/x.wav" is 2) */
  pathDepth: number;
  /** bytes of one pax or long-name record */
  metaBytes: number;
}

/** A session pack: one log, one WAV per item, a manifest. */
export const PACK_TAR_LIMITS: TarLimits = {
  entries: 200_000,
  entryBytes: 4 * 1024 ** 3,
  totalBytes: 256 * 1024 ** 3,
  pathDepth: 2,
  metaBytes: 64 * 1024,
};

/** Where one file's content goes; `discard` is called instead of `end` when the archive is refused midway. */
export interface TarFileTarget {
  piece(bytes: Buffer): Promise<void> | void;
  end(): Promise<void> | void;
  discard?(): Promise<void> | void;
}

/** What reading met: each file's name and content pieces, in order. */
export interface TarEntrySink {
  /** a file begins; returns where its pieces go */
  file(name: string, size: number): TarFileTarget | Promise<TarFileTarget>;
}

const REGULAR_FILE = new Set(['File', 'OldFile', 'ContiguousFile']);

/** npm tar's warnings, in words for whoever holds the file. */
function tarProblem(e: Error): string {
  const message = e.message.replace(/^TAR_[A-Z_]+: /, '');
  if (/checksum failure/.test(message)) return 'a header is damaged (its checksum does not match its bytes)';
  if (/Truncated input/.test(message)) return 'the file ends inside an entry: it was cut short';
  if (/Unrecognized archive format/.test(message)) return 'it is not a tar file';
  return message;
}

/**
 * Reads the regular files of a tar file in order with npm's `tar` parser, handing each file's content on in pieces,
 * under `limits`: a header's size is checked against the limits and against the bytes the file really holds before
 * anything is read or allocated (a 2 KB file declaring 8 GiB is refused at once), pax records are capped, anything
 * but a regular file refuses the archive, compressed archives are refused (a pack is written plain, so its sizes are
 * the file's own bytes), and a file cut short throws. Throws TarFormatError for every refusal; the caller's open
 * target is discarded (its descriptor closed) before the throw.
 */
export async function readTar(
  handle: FileHandle,
  sink: TarEntrySink,
  onBytes?: (read: number) => void,
  limits: TarLimits = PACK_TAR_LIMITS,
): Promise<void> {
  const fileBytes = (await handle.stat()).size;
  const magic = Buffer.alloc(4);
  await handle.read(magic, 0, 4, 0);
  if ((magic[0] === 0x1f && magic[1] === 0x8b) || magic.readUInt32LE(0) === 0xfd2fb528)
    throw new TarFormatError('it is compressed (gzip or zstd); a pack is a plain tar: decompress it first');

  const parser = new Parser({ strict: true, maxMetaEntrySize: limits.metaBytes, brotli: false, zstd: false });
  let failure: TarFormatError | null = null;
  let onFailure: () => void = () => undefined;
  const failed = new Promise<void>((resolve) => (onFailure = resolve));
  let openTarget: TarFileTarget | null = null;
  const fail = (e: unknown): void => {
    if (failure) return;
    failure = e instanceof TarFormatError ? e : new TarFormatError(e instanceof Error ? tarProblem(e) : String(e));
    onFailure();
    parser.abort(failure);
  };
  parser.on('error', fail);
  parser.on('ignoredEntry', (entry: ReadEntry) =>
    fail(new TarFormatError(`a ${entry.type} record declares ${entry.size} bytes (at most ${limits.metaBytes})`)),
  );

  let entries = 0;
  let declared = 0;
  let work = Promise.resolve();
  const readEntry = async (entry: ReadEntry): Promise<void> => {
    const target = await sink.file(entry.path, entry.size);
    openTarget = target;
    let got = 0;
    await new Promise<void>((resolve, reject) => {
      let pieces = Promise.resolve();
      entry.on('data', (chunk: Buffer) => {
        got += chunk.length;
        entry.pause();
        pieces = pieces.then(() => target.piece(chunk)).then(() => void (failure ? undefined : entry.resume()), reject);
      });
      entry.on('end', () => void pieces.then(resolve, reject));
      void failed.then(() => reject(failure));
    });
    if (got !== entry.size)
      throw new TarFormatError(`"${entry.path}" ends after ${got} of its ${entry.size} bytes: the file was cut short`);
    await target.end();
    openTarget = null;
  };
  parser.on('entry', (entry: ReadEntry) => {
    if (failure) return void entry.resume();
    entry.pause();
    const refusal =
      ++entries > limits.entries
        ? `it holds more than ${limits.entries} files`
        : !REGULAR_FILE.has(entry.type)
          ? `entry "${entry.path}" is not a regular file (tar type "${entry.header.typeKey}"); a pack holds files only`
          : entry.size > fileBytes
            ? `entry "${entry.path}" declares ${entry.size} bytes, the whole file holds ${fileBytes}: it was cut short or its header lies`
            : entry.size > limits.entryBytes
              ? `entry "${entry.path}" is ${entry.size} bytes (at most ${limits.entryBytes})`
              : (declared += entry.size) > Math.min(limits.totalBytes, fileBytes)
                ? `its files declare ${declared} bytes together, more than ${Math.min(limits.totalBytes, fileBytes)}`
                : entry.path.split('/').length > limits.pathDepth
                  ? `entry "${entry.path}" is nested deeper than ${limits.pathDepth} levels`
                  : null;
    if (refusal) return fail(new TarFormatError(refusal));
    work = work.then(() => (failure ? undefined : readEntry(entry))).catch(fail);
  });
  const ended = new Promise<void>((resolve) => parser.on('end', resolve));

  let position = 0;
  while (!failure) {
    // a fresh buffer per read: the parser keeps slices of what it is given
    const chunk = Buffer.allocUnsafe(1 << 20);
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    onBytes?.(position);
    if (!parser.write(chunk.subarray(0, bytesRead))) await Promise.race([new Promise((resolve) => parser.once('drain', resolve)), failed]);
  }
  if (!failure) parser.end();
  await Promise.race([ended, failed]);
  await Promise.race([work, failed]);
  if (failure) {
    const target = openTarget as TarFileTarget | null;
    await target?.discard?.();
    throw failure;
  }
}
