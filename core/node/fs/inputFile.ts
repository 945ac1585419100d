import { open } from 'node:fs/promises';
import { sha256Hex } from './sha256';
import { InputError } from '../../common/io/inputProblem';
import { decodeInputBytes, DEFAULT_INPUT_LIMITS, type InputLimits } from '../../common/io/inputText';

/** A file read from outside, past the input stage: its exact bytes' sha256 and its text. */
export interface InputFile {
  file: string;
  bytes: Buffer;
  text: string;
  sha256: string;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The input stage on disk: refuses a file over the size limit before reading it whole (and again if it grew
 * while being read), then strict UTF-8 and the per-line limit for line-based formats.
 * A file that cannot be opened is an input problem too (no line).
 */
export async function readInputFile(file: string, options: { limits?: InputLimits; lineBased: boolean }): Promise<InputFile> {
  const limits = options.limits ?? DEFAULT_INPUT_LIMITS;
  const fail = (message: string): never => {
    // i18n-ignore: the input stage's words (size limits, UTF-8) stay English for now
    throw new InputError([{ file, line: null, field: null, stage: 'input', message }]);
  };
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? 'file not found' : `cannot open (${code ?? (e as Error).message})`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) fail('not a regular file');
    if (info.size > limits.maxFileBytes) fail(`file is ${info.size} bytes, over the limit of ${limits.maxFileBytes} bytes`);
    // read at most one byte past the limit, so a file that grows meanwhile is still caught
    const buffer = Buffer.alloc(Math.min(info.size, limits.maxFileBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    const bytes = buffer.subarray(0, length);
    const text = decodeInputBytes(bytes, file, { limits, decode: (b) => fatalUtf8.decode(b), lineBased: options.lineBased });
    return { file, bytes, text, sha256: sha256Hex(bytes) };
  } finally {
    await handle.close();
  }
}
