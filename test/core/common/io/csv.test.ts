import { describe, expect, it } from 'vitest';
import { formatCsv, parseCsv } from '../../../../core/common/io/csv';
import { InputError, type InputProblem } from '../../../../core/common/io/inputProblem';

function problems(text: string): InputProblem[] {
  try {
    parseCsv(text, 'f.csv');
  } catch (e) {
    if (e instanceof InputError) return e.problems;
    throw e;
  }
  throw new Error('expected an InputError');
}

describe('parseCsv (RFC 4180)', () => {
  it('reads quotes, escaped quotes, CRLF and line breaks inside quoted fields, with the line each row starts on', () => {
    const table = parseCsv('id,text,note\r\n1,"Hello, ""world""",x\r\n2,"two\r\nlines\nhere",\r\n3,plain,"q"\r\n', 'f.csv');
    expect(table.header).toEqual(['id', 'text', 'note']);
    expect(table.rows).toEqual([
      { line: 2, fields: ['1', 'Hello, "world"', 'x'] },
      { line: 3, fields: ['2', 'two\r\nlines\nhere', ''] },
      { line: 6, fields: ['3', 'plain', 'q'] },
    ]);
  });

  it('accepts LF line ends, no final newline, empty lines, and empty quoted fields', () => {
    const table = parseCsv('a,b\n\n1,""\n2,x', 'f.csv');
    expect(table.rows).toEqual([
      { line: 3, fields: ['1', ''] },
      { line: 4, fields: ['2', 'x'] },
    ]);
  });

  it.each([
    ['a ragged row', 'id,text\n1,a\n2,b,c\n3\n', [3, 4], 'the header has 2'],
    ['an unterminated quote (line where it opened)', 'id,text\n1,"abc\n2,d\n', [2], 'unterminated quoted field'],
    ['text after a closing quote', 'id,text\n1,"a"b\n', [2], 'after a closing quote'],
    ['a quote inside an unquoted field', 'id,text\n1,a"b\n', [2], 'double quote inside an unquoted field'],
    ['a bare carriage return', 'id,text\r1,a\n', [1], 'bare carriage return'],
    ['a duplicate column name', 'id,text,id\n1,a,b\n', [1], 'duplicate column "id"'],
    ['an empty column name', 'id,,text\n1,a,b\n', [1], 'has no name'],
    ['no header at all', '', [null], 'no header row'],
  ] as const)('rejects %s at the parse stage with its line', (_name, text, lines, fragment) => {
    const found = problems(text);
    expect(found.map((p) => p.line)).toEqual(lines);
    expect(found.every((p) => p.stage === 'parse' && p.file === 'f.csv')).toBe(true);
    expect(found[0]!.message).toContain(fragment);
  });

  it('writes what it reads: formatCsv round-trips awkward fields', () => {
    const rows = [
      ['1', 'comma, here'],
      ['2', 'quote " here'],
      ['3', 'line\nbreak\r\nhere'],
      ['4', ''],
      ['5', ' spaced '],
    ];
    const text = formatCsv(['id', 'text'], rows);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text, 'f.csv').rows.map((r) => r.fields)).toEqual(rows);
  });
});
