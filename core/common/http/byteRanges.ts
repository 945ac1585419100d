/**
 * What a Range request header asks of a file of `size` bytes (RFC 9110 §14): the whole file (no header, or one
 * we may ignore: another unit, several ranges, bad syntax), one inclusive byte span, or nothing satisfiable (416).
 */
export type ByteRange = { kind: 'whole' } | { kind: 'span'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: ByteRange = { kind: 'whole' };
const UNSATISFIABLE: ByteRange = { kind: 'unsatisfiable' };

const RANGE_HEADER = /^bytes[ \t]*=[ \t]*(.*)$/i;
const FROM_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;

export function parseByteRange(header: string | null | undefined, size: number): ByteRange {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`file size must be a non-negative integer, got ${size}`);
  if (typeof header !== 'string' || header.length > 200) return WHOLE;
  const unit = RANGE_HEADER.exec(header.trim());
  if (!unit) return WHOLE;
  const specs = unit[1]!.split(',').map((spec) => spec.trim());
  // Several ranges would need a multipart reply; the RFC lets a server answer with the whole file instead.
  if (specs.length !== 1) return WHOLE;
  const spec = specs[0]!;

  const from = FROM_RANGE.exec(spec);
  if (from) {
    const start = Number(from[1]);
    const last = from[2] === '' ? Infinity : Number(from[2]);
    if (last < start) return WHOLE;
    if (start >= size) return UNSATISFIABLE;
    return { kind: 'span', start, end: Math.min(last, size - 1) };
  }
  const suffix = SUFFIX_RANGE.exec(spec);
  if (suffix) {
    const length = Number(suffix[1]);
    if (length === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'span', start: Math.max(0, size - length), end: size - 1 };
  }
  return WHOLE;
}
