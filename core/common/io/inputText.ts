import { InputError, type InputProblem } from './inputProblem';

/** Size limits for a file read from outside; both are configurable (CLI: --max-file-bytes, --max-line-bytes). */
export interface InputLimits {
  maxFileBytes: number;
  /** applies to line-based formats (JSON Lines, CSV), counted per physical line without its line break */
  maxLineBytes: number;
}

export const DEFAULT_INPUT_LIMITS: Readonly<InputLimits> = Object.freeze({
  maxFileBytes: 64 * 1024 * 1024,
  maxLineBytes: 1024 * 1024,
});

/** Decodes UTF-8 and throws on any malformed sequence (core/node passes TextDecoder('utf-8', { fatal: true })). */
export type StrictUtf8Decode = (bytes: Uint8Array) => string;

export interface DecodeInputOptions {
  limits: InputLimits;
  decode: StrictUtf8Decode;
  /** check maxLineBytes (line-based formats only) */
  lineBased: boolean;
}

/**
 * The input stage: size limits, strict UTF-8, one leading byte order mark removed (RFC 8259 §8.1 lets parsers
 * ignore it and spreadsheet programs write it into CSV); a BOM anywhere else is left for the parse stage to reject.
 */
export function decodeInputBytes(bytes: Uint8Array, file: string, options: DecodeInputOptions): string {
  const { limits } = options;
  if (bytes.length > limits.maxFileBytes) {
    throw new InputError([
      {
        file,
        line: null,
        field: null,
        stage: 'input',
        message: `file is ${bytes.length} bytes, over the limit of ${limits.maxFileBytes} bytes`,
      },
    ]);
  }
  if (options.lineBased) {
    const tooLong = overlongLines(bytes, limits.maxLineBytes, file);
    if (tooLong.length > 0) throw new InputError(tooLong);
  }
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return options.decode(body);
  } catch {
    const offset = firstInvalidUtf8Offset(body);
    const at = offset < 0 ? 0 : offset;
    const line = countLineBreaks(body, at) + 1;
    throw new InputError([
      {
        file,
        line,
        field: null,
        stage: 'input',
        message: `not valid UTF-8: malformed byte sequence at byte ${at + (body === bytes ? 0 : 3)} (0x${(body[at] ?? 0).toString(16).padStart(2, '0')}); save the file as UTF-8`,
      },
    ]);
  }
}

function overlongLines(bytes: Uint8Array, maxLineBytes: number, file: string): InputProblem[] {
  const problems: InputProblem[] = [];
  let start = 0;
  let line = 1;
  for (;;) {
    let end = bytes.indexOf(0x0a, start);
    const last = end < 0;
    if (last) end = bytes.length;
    const length = end - start - (end > start && bytes[end - 1] === 0x0d ? 1 : 0);
    if (length > maxLineBytes) {
      problems.push({
        file,
        line,
        field: null,
        stage: 'input',
        message: `line is ${length} bytes, over the limit of ${maxLineBytes} bytes`,
      });
    }
    if (last) return problems;
    start = end + 1;
    line++;
  }
}

function countLineBreaks(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) n++;
  return n;
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (RFC 3629), or -1. */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let max = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = b === 0xe0 ? 0xa0 : 0x80;
      if (b === 0xed) max = 0x9f; // UTF-16 surrogates are not characters
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = b === 0xf0 ? 0x90 : 0x80;
      if (b === 0xf4) max = 0x8f;
    } else {
      return i;
    }
    const second = bytes[i + 1];
    if (second === undefined || second < min || second > max) return i;
    for (let k = 2; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < 0x80 || next > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** A physical line of text: 1-based number and content without its line break (LF or CRLF). */
export interface SourceLine {
  line: number;
  text: string;
}

export function splitLines(text: string): SourceLine[] {
  const parts = text.split('\n');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((part, i) => ({ line: i + 1, text: part.endsWith('\r') ? part.slice(0, -1) : part }));
}
