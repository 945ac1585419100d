import { DEFAULT_INPUT_LIMITS, type InputLimits } from '../../common/io/inputText';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from './inputStream';

const UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** "65536", "64MiB", "1 KiB" → bytes; throws a message naming the option otherwise. */
export function parseByteSize(value: string, option: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(value.trim());
  const unit = UNITS[(match?.[2] ?? '').toLowerCase()];
  if (!match || unit === undefined || Number(match[1]) <= 0) {
    throw new Error(`${option} must be a positive number of bytes, optionally with KiB, MiB or GiB (got "${value}")`);
  }
  return Number(match[1]) * unit;
}

type ByteOption = 'max-file-bytes' | 'max-line-bytes' | 'max-record-bytes';

/** The bytes a --max-…-bytes option gives, or `fallback` when it is not given. */
function byteOption<T>(values: { [K in ByteOption]?: string | undefined }, name: ByteOption, fallback: T): number | T {
  const value = values[name];
  return value === undefined ? fallback : parseByteSize(value, `--${name}`);
}

/** Limits from --max-file-bytes / --max-line-bytes, defaulting to 64 MiB a file and 1 MiB a line. */
export function inputLimitsFrom(values: { 'max-file-bytes'?: string | undefined; 'max-line-bytes'?: string | undefined }): InputLimits {
  return {
    maxFileBytes: byteOption(values, 'max-file-bytes', DEFAULT_INPUT_LIMITS.maxFileBytes),
    maxLineBytes: byteOption(values, 'max-line-bytes', DEFAULT_INPUT_LIMITS.maxLineBytes),
  };
}

/**
 * Limits for reading an export as a stream, from --max-file-bytes / --max-line-bytes / --max-record-bytes: per line
 * (1 MiB) and per record (4 MiB) by default; per file only when --max-file-bytes is given.
 */
export function streamLimitsFrom(values: {
  'max-file-bytes'?: string | undefined;
  'max-line-bytes'?: string | undefined;
  'max-record-bytes'?: string | undefined;
}): StreamLimits {
  return {
    maxFileBytes: byteOption(values, 'max-file-bytes', null),
    maxLineBytes: byteOption(values, 'max-line-bytes', DEFAULT_STREAM_LIMITS.maxLineBytes),
    maxRecordBytes: byteOption(values, 'max-record-bytes', DEFAULT_STREAM_LIMITS.maxRecordBytes),
  };
}
