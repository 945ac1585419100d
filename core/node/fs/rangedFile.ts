import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { parseByteRange } from '../../common/http/byteRanges';

/** What to answer for a GET or HEAD of a file: status, headers (lower case) and the streamed body, if any. */
export interface RangedFileAnswer {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  /** null for HEAD, an empty file or an unsatisfiable range */
  body: Readable | null;
}

/**
 * THE ranged-file server of both hosts (browser mode's HTTP and the desktop app's protocol): one byte span of an
 * already checked file (resolveFileInside) per Range header, streamed, so seeking in a long recording never reads
 * the whole WAV.
 */
export function answerFileRequest(
  found: { file: string; size: number },
  request: { method: string; range: string | null | undefined },
  headers: Record<string, string>,
): RangedFileAnswer {
  const base = { 'accept-ranges': 'bytes', ...headers };
  const range = parseByteRange(request.range ?? undefined, found.size);
  if (range.kind === 'unsatisfiable') return { status: 416, headers: { ...base, 'content-range': `bytes */${found.size}` }, body: null };
  const { start, end } = range.kind === 'span' ? range : { start: 0, end: found.size - 1 };
  const partial = range.kind === 'span';
  const length = Math.max(0, end - start + 1);
  return {
    status: partial ? 206 : 200,
    headers: { ...base, 'content-length': String(length), ...(partial ? { 'content-range': `bytes ${start}-${end}/${found.size}` } : {}) },
    body: request.method === 'HEAD' || length === 0 ? null : createReadStream(found.file, { start, end }),
  };
}
