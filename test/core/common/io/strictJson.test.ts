import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseStrictJson } from '../../../../core/common/io/strictJson';

function syntaxError(text: string, options = {}): JsonSyntaxError {
  try {
    parseStrictJson(text, options);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseStrictJson', () => {
  it.each([
    '0',
    '-0',
    '1.5e3',
    '-12.25E-2',
    '1e308',
    'true',
    'false',
    'null',
    '""',
    '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t"',
    '"\\u00e9\\u20ac\\ud83d\\ude00"',
    '"😀 höflich"',
    '[]',
    '{}',
    ' [1, [2, {"a": [3]}]] ',
    '{"a":1,"b":{"c":null}}',
    '\n\t{ "x" : [ ] }\r\n',
  ])('agrees with JSON.parse on valid JSON %j', (text) => {
    expect(parseStrictJson(text).value).toEqual(JSON.parse(text));
  });

  it('keeps "__proto__" as an own key, as JSON.parse does, without touching the prototype', () => {
    const { value } = parseStrictJson('{"__proto__": {"polluted": true}, "a": 1}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    // [text, message fragment, line, pointer]
    ['{"a":1,"a":2}', 'duplicate key "a" (first on line 1)', 1, '/a'],
    ['{"x":{"k":1,\n"k":2}}', 'duplicate key "k"', 2, '/x/k'],
    ['[NaN]', 'NaN is not allowed', 1, '/0'],
    ['{"n": Infinity}', 'Infinity is not allowed', 1, '/n'],
    ['{"n": -Infinity}', '-Infinity is not allowed', 1, '/n'],
    ['1e400', 'out of range', 1, ''],
    ['{"a":1} {"b":2}', 'unexpected text after the JSON value', 1, ''],
    ['```json\n{"a":1}\n```', 'Markdown code fence', 1, ''],
    ['{"a":1}\n```', 'Markdown code fence', 2, ''],
    ['', 'no JSON value', 1, ''],
    ['{"a":1,}', 'trailing comma', 1, ''],
    ['[1,2,]', 'trailing comma', 1, ''],
    ["{'a':1}", 'double-quoted key', 1, ''],
    ["'a'", 'double quotes', 1, ''],
    ['01', 'leading zeros', 1, ''],
    ['1.', 'digits must follow', 1, ''],
    ['-', 'a digit must follow "-"', 1, ''],
    ['"\\ud800"', 'lone surrogate', 1, ''],
    ['"\\udc00x"', 'lone surrogate', 1, ''],
    ['"\ud800"', 'lone surrogate', 1, ''],
    ['"a\nb"', 'control character U+000A', 1, ''],
    ['"\\x41"', 'invalid escape', 1, ''],
    ['"\\u12G4"', 'four hex digits', 1, ''],
    ['"abc', 'unterminated string', 1, ''],
    ['{"a" 1}', 'expected ":"', 1, '/a'],
    ['{"a":1 "b":2}', 'expected "," or "}"', 1, '/a'],
    ['[1 2]', 'expected "," or "]"', 1, '/0'],
    ['{"a":[1,\n\n  tru]}', 'unexpected word "tru"', 3, '/a/1'],
    ['\ufeff{}', 'byte order mark', 1, ''],
    ['undefined', 'unexpected word', 1, ''],
  ] as const)('rejects %j: %s', (text, fragment, line, pointer) => {
    const e = syntaxError(text);
    expect(e.message).toContain(fragment);
    expect(e.line).toBe(line);
    expect(e.pointer).toBe(pointer);
  });

  it('reports lines relative to firstLine and a column', () => {
    const e = syntaxError('{"a": NaN}', { firstLine: 7 });
    expect(e.line).toBe(7);
    expect(e.column).toBe(7);
  });

  it('refuses nesting deeper than maxDepth instead of overflowing the stack', () => {
    expect(syntaxError('['.repeat(100_000)).message).toContain('nesting deeper than 256');
    expect(parseStrictJson(`${'['.repeat(10)}${']'.repeat(10)}`, { maxDepth: 10 }).value).toEqual(
      JSON.parse(`${'['.repeat(10)}${']'.repeat(10)}`),
    );
    expect(syntaxError(`${'['.repeat(11)}${']'.repeat(11)}`, { maxDepth: 10 }).message).toContain('deeper than 10');
  });

  it('records the line of each value down to the depth asked for', () => {
    const { lines } = parseStrictJson('[\n  {"id": "a",\n   "text": "x"},\n  {"id": "b"}\n]', { trackLinesToDepth: 2 });
    expect(lines.get('')).toBe(1);
    expect(lines.get('/0')).toBe(2);
    expect(lines.get('/0/text')).toBe(3);
    expect(lines.get('/1')).toBe(4);
  });
});
