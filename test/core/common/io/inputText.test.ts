import { describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from '../../../../core/common/io/inputProblem';
import { decodeInputBytes, firstInvalidUtf8Offset, splitLines, type DecodeInputOptions } from '../../../../core/common/io/inputText';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const options = (overrides: Partial<DecodeInputOptions['limits']> = {}, lineBased = true): DecodeInputOptions => ({
  limits: { maxFileBytes: 1000, maxLineBytes: 100, ...overrides },
  decode: (b) => decoder.decode(b),
  lineBased,
});
const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

function problems(run: () => unknown): InputProblem[] {
  try {
    run();
  } catch (e) {
    if (e instanceof InputError) return e.problems;
    throw e;
  }
  throw new Error('expected an InputError');
}

describe('decodeInputBytes (the input stage)', () => {
  it('decodes UTF-8 and strips one leading byte order mark only', () => {
    expect(decodeInputBytes(bytes([0xef, 0xbb, 0xbf], 'höflich'), 'f', options())).toBe('höflich');
    expect(decodeInputBytes(bytes('a\ufeffb'), 'f', options())).toBe('a\ufeffb');
  });

  it('refuses a file over the size limit, naming sizes', () => {
    const [p] = problems(() => decodeInputBytes(new Uint8Array(1001), 'big.jsonl', options()));
    expect(p).toMatchObject({ file: 'big.jsonl', line: null, stage: 'input' });
    expect(p!.message).toContain('1001 bytes, over the limit of 1000');
  });

  it('refuses every over-long line by number (CR of CRLF not counted); not for whole-file JSON', () => {
    const text = bytes(`${'a'.repeat(100)}\r\n${'b'.repeat(101)}\nok\n${'c'.repeat(150)}`);
    const found = problems(() => decodeInputBytes(text, 'f.jsonl', options()));
    expect(found.map((p) => p.line)).toEqual([2, 4]);
    expect(found[0]!.message).toContain('101 bytes, over the limit of 100');
    expect(decodeInputBytes(text, 'f.json', options({}, false))).toContain('bbb');
  });

  it.each([
    ['a lone continuation byte', ['ok\n', 'x', [0x80]], 2],
    ['an overlong encoding', ['l1\nl2\n', [0xc0, 0xaf]], 3],
    ['a UTF-16 surrogate encoded in UTF-8', [[0xed, 0xa0, 0x80]], 1],
    ['a truncated sequence at the end', ['a\n', [0xe2, 0x82]], 2],
    ['Latin-1 text', ['caf', [0xe9], '\n'], 1],
    ['a code point above U+10FFFF', [[0xf4, 0x90, 0x80, 0x80]], 1],
  ] as const)('refuses %s and names its line', (_name, parts, line) => {
    const [p] = problems(() => decodeInputBytes(bytes(...(parts as unknown as Array<string | number[]>)), 'f.csv', options()));
    expect(p).toMatchObject({ file: 'f.csv', line, field: null, stage: 'input' });
    expect(p!.message).toContain('not valid UTF-8');
  });
});

describe('firstInvalidUtf8Offset', () => {
  it('agrees with the fatal TextDecoder on valid text and finds the bad byte', () => {
    expect(firstInvalidUtf8Offset(bytes('plain ascii, höflich, €, 😀'))).toBe(-1);
    expect(firstInvalidUtf8Offset(bytes('ab', [0xff], 'c'))).toBe(2);
    expect(firstInvalidUtf8Offset(bytes('ab', [0xe2, 0x28, 0xa1]))).toBe(2);
  });
});

describe('splitLines', () => {
  it('numbers lines, drops LF or CRLF, and ignores the final newline', () => {
    expect(splitLines('a\r\nb\n\nc\n')).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: 'b' },
      { line: 3, text: '' },
      { line: 4, text: 'c' },
    ]);
    expect(splitLines('')).toEqual([{ line: 1, text: '' }]);
  });
});
