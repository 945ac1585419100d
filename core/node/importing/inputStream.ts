import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { InputProblem } from '../../common/io/inputProblem';
import { firstInvalidUtf8Offset } from '../../common/io/inputText';

/**
 * Limits of a file read as a stream: per line and per record, and per file only when asked for. Aloud's own exports
 * of a study of any size are read this way, so no default limit grows with the study.
 */
export interface StreamLimits {
  /** null: no limit on the whole file */
  maxFileBytes: number | null;
  /** a physical line of a line-based format (JSON Lines, CSV), without its line break */
  maxLineBytes: number;
  /** one record: an element of a JSON array, a CSV record across its lines */
  maxRecordBytes: number;
}

export const DEFAULT_STREAM_LIMITS: Readonly<StreamLimits> = Object.freeze({
  maxFileBytes: null,
  maxLineBytes: 1024 * 1024,
  maxRecordBytes: 4 * 1024 * 1024,
});

/** What reading a file as a stream found: its input-stage problems, and its size and sha256 (of every byte read). */
export interface StreamedInput {
  problems: InputProblem[];
  bytes: number;
  sha256: string;
}

const CHUNK_BYTES = 1 << 20;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes at the end of `bytes` that begin a UTF-8 sequence the next chunk completes (0 to 3). */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/**
 * The input stage of readInputFile, a chunk at a time: the size limit when one is set, the per-line limit for
 * line-based formats (every overlong line listed), strict UTF-8 (the first malformed sequence, by byte and line, as
 * decodeInputBytes names it), one leading byte order mark removed. Good text goes to `onText` as it is decoded; once
 * an input problem is found no more text goes out (the caller drops what it made of the text before, as the input
 * stage refuses a file as a whole), but the file is still read to the end to list every overlong line and hash it.
 */
export async function streamInputFile(
  file: string,
  options: { limits: StreamLimits; lineBased: boolean; chunkBytes?: number; onBytes?: (read: number, total: number) => void },
  onText: (text: string) => void,
): Promise<StreamedInput> {
  const { limits } = options;
  const hash = createHash('sha256');
  const problem = (line: number | null, message: string): InputProblem => ({ file, line, field: null, stage: 'input', message });
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      problems: [problem(null, code === 'ENOENT' ? 'file not found' : `cannot open (${code ?? (e as Error).message})`)],
      bytes: 0,
      sha256: hash.digest('hex'),
    };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { problems: [problem(null, 'not a regular file')], bytes: 0, sha256: hash.digest('hex') };
    // over the size limit: refused as a whole, read only to hash it (a receipt beside it is still checked)
    const tooBig =
      limits.maxFileBytes !== null && info.size > limits.maxFileBytes
        ? problem(null, `file is ${info.size} bytes, over the limit of ${limits.maxFileBytes} bytes`)
        : null;
    const overlong: InputProblem[] = [];
    let utf8: InputProblem | null = null;
    const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
    const chunk = Buffer.alloc(chunkBytes);
    let pending: Buffer = Buffer.alloc(0);
    let total = 0;
    // one byte order mark at the very start is not text (read ahead: a small chunk may hold only part of it)
    const peek = Buffer.alloc(3);
    const { bytesRead: peeked } = await handle.read(peek, 0, 3, 0);
    const bom = peeked === 3 && peek[0] === 0xef && peek[1] === 0xbb && peek[2] === 0xbf;
    let skip = bom ? 3 : 0;
    /** bytes of the body (after a BOM) decoded so far, and line breaks in them */
    let bodyOffset = 0;
    let bodyLines = 0;
    /** the physical line being measured: its number, its bytes so far and its last byte (a CR before the LF is not counted) */
    let line = 1;
    let lineBytes = 0;
    let lastByte = -1;
    const endLine = (): void => {
      const length = lineBytes - (lastByte === 0x0d ? 1 : 0);
      if (length > limits.maxLineBytes)
        overlong.push(problem(line, `line is ${length} bytes, over the limit of ${limits.maxLineBytes} bytes`));
    };
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      options.onBytes?.(total + bytesRead, info.size);
      let data = chunk.subarray(0, bytesRead);
      hash.update(data);
      if (tooBig) {
        total += bytesRead;
        continue;
      }
      if (options.lineBased) {
        // on the bytes as they are, BOM included, as the whole-file input stage counts them
        let start = 0;
        for (let nl = data.indexOf(0x0a, start); nl >= 0; nl = data.indexOf(0x0a, start)) {
          lineBytes += nl - start;
          if (nl > start) lastByte = data[nl - 1]!;
          endLine();
          line++;
          lineBytes = 0;
          lastByte = -1;
          start = nl + 1;
        }
        lineBytes += data.length - start;
        if (data.length > start) lastByte = data[data.length - 1]!;
      }
      if (skip > 0) {
        const dropped = Math.min(skip, data.length);
        data = data.subarray(dropped);
        skip -= dropped;
      }
      total += bytesRead;
      if (utf8 !== null || overlong.length > 0) continue;
      const bytes = pending.length > 0 ? Buffer.concat([pending, data]) : data;
      const keep = incompleteTail(bytes);
      const complete = bytes.subarray(0, bytes.length - keep);
      pending = Buffer.from(bytes.subarray(bytes.length - keep));
      let text: string;
      try {
        text = fatalUtf8.decode(complete);
      } catch {
        utf8 = malformed(complete, firstInvalidUtf8Offset(complete));
        continue;
      }
      bodyOffset += complete.length;
      for (let i = complete.indexOf(0x0a); i >= 0; i = complete.indexOf(0x0a, i + 1)) bodyLines++;
      if (text.length > 0) onText(text);
    }
    if (options.lineBased) endLine();
    if (utf8 === null && overlong.length === 0 && pending.length > 0)
      utf8 = malformed(pending, firstInvalidUtf8Offset(pending) < 0 ? 0 : firstInvalidUtf8Offset(pending));
    return { problems: tooBig ? [tooBig] : overlong.length > 0 ? overlong : utf8 ? [utf8] : [], bytes: total, sha256: hash.digest('hex') };

    function malformed(bytes: Uint8Array, offset: number): InputProblem {
      const at = offset < 0 ? 0 : offset;
      let breaks = bodyLines;
      for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) breaks++;
      return problem(
        breaks + 1,
        `not valid UTF-8: malformed byte sequence at byte ${bodyOffset + at + (bom ? 3 : 0)} (0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}); save the file as UTF-8`,
      );
    }
  } finally {
    await handle.close();
  }
}
