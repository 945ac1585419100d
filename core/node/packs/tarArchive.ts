import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

/**
 * The POSIX tar (ustar) container a session pack is: any tar tool can list and extract it. Only regular files are
 * written and read; names longer than the ustar field go in a pax `path` record. Written and read as streams.
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
    for (let done = 0; done < bytes.length; ) done += (await this.handle.write(bytes, done, bytes.length - done, this.position + done)).bytesWritten;
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

function readOctal(header: Buffer, offset: number, length: number): number {
  const text = header.toString('latin1', offset, offset + length).replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]*$/.test(text)) throw new TarFormatError(`a header field is not a number (${JSON.stringify(text)})`);
  return text === '' ? 0 : parseInt(text, 8);
}

function readString(header: Buffer, offset: number, length: number): string {
  const end = header.indexOf(0, offset);
  return header.toString('utf8', offset, end < 0 || end > offset + length ? offset + length : end);
}

/** What reading met: each file's name and content pieces, in order. */
export interface TarEntrySink {
  /** a file begins; returns where its pieces go */
  file(name: string, size: number): { piece(bytes: Buffer): Promise<void> | void; end(): Promise<void> | void } | Promise<{ piece(bytes: Buffer): Promise<void> | void; end(): Promise<void> | void }>;
}

/**
 * Reads the entries of a tar file in order (regular files and pax path records; anything else refuses the file),
 * handing each file's content on in pieces. The header checksums are checked; a file cut short throws.
 */
export async function readTar(handle: FileHandle, sink: TarEntrySink, onBytes?: (read: number) => void): Promise<void> {
  let position = 0;
  const readExactly = async (length: number): Promise<Buffer> => {
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
      if (bytesRead === 0) throw new TarFormatError(`the file ends at byte ${position + done}, inside an entry: it was cut short`);
      done += bytesRead;
    }
    position += length;
    onBytes?.(position);
    return buffer;
  };
  let paxPath: string | null = null;
  for (;;) {
    const header = await readExactly(BLOCK);
    if (header.every((b) => b === 0)) return;
    const stored = readOctal(header, 148, 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
    if (sum !== stored) throw new TarFormatError(`the header at byte ${position - BLOCK} is damaged (checksum ${stored}, the bytes sum to ${sum})`);
    const size = readOctal(header, 124, 12);
    const type = String.fromCharCode(header[156]!);
    if (type === 'x') {
      const records = (await readExactly(size + padding(size))).toString('utf8', 0, size);
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(records);
      paxPath = path ? path[1]! : null;
      continue;
    }
    if (type !== '0' && type !== '\0') throw new TarFormatError(`entry "${readString(header, 0, 100)}" is not a regular file (tar type "${type}"); a pack holds files only`);
    const prefix = readString(header, 345, 155);
    const name = paxPath ?? (prefix ? `${prefix}/${readString(header, 0, 100)}` : readString(header, 0, 100));
    paxPath = null;
    const target = await sink.file(name, size);
    for (let left = size; left > 0; ) {
      const piece = await readExactly(Math.min(left, 1 << 20));
      left -= piece.length;
      await target.piece(piece);
    }
    await target.end();
    if (padding(size) > 0) await readExactly(padding(size));
  }
}
