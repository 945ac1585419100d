import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/common/agreement/krippendorff';
import { InputError } from '../../../../core/common/io/inputProblem';
import { type LocatedValue, parseJsonArrayDocument } from '../../../../core/common/io/jsonInput';
import { JsonArrayStream, utf8Length } from '../../../../core/common/io/jsonArrayStream';

/** Pointers whose lines a rule or schema problem may ask for. */
const POINTERS = ['', '/a', '/a/0', '/a/1/b', '/text', '/n', '/missing/deep'];

function whole(text: string): unknown {
  try {
    return parseJsonArrayDocument(text, 'f.json', 'records').map(summary);
  } catch (e) {
    if (e instanceof InputError) return { problems: e.problems };
    throw e;
  }
}

function streamed(text: string, cuts: number[], maxRecordBytes?: number): unknown {
  const got: unknown[] = [];
  const stream = new JsonArrayStream('f.json', 'records', (el) => got.push(summary(el)), maxRecordBytes);
  try {
    let from = 0;
    for (const cut of [...cuts, text.length]) {
      stream.push(text.slice(from, cut));
      from = cut;
    }
    stream.end();
    return got;
  } catch (e) {
    if (e instanceof InputError) return { problems: e.problems };
    throw e;
  }
}

const summary = (el: LocatedValue) => ({ line: el.line, pointer: el.pointer, value: el.value, lines: POINTERS.map((p) => el.locate(p)) });

function randomCuts(random: () => number, length: number): number[] {
  const cuts: number[] = [];
  for (let at = 0; at < length; at += 1 + Math.floor(random() * 40)) cuts.push(at);
  return cuts;
}

const sample = JSON.stringify(
  [
    { a: [1, { b: 'x, ]} "quoted"' }], text: 'Grüße 🎙 \\ "', n: -1.5e3 },
    { a: [], text: '', n: 0 },
    { a: ['\\', '\\"', '"\\\\', '\\\\\\"]'], text: 'x\\\\', n: 1 },
    [1, 2, [3]],
    'a string element',
    null,
    { a: [{ b: { c: [true, false] } }], text: '\u2028', n: 12 },
  ],
  null,
  2,
);

describe('JsonArrayStream reads what parseJsonArrayDocument reads', () => {
  it('valid documents, cut anywhere: the same elements, lines and located pointers', () => {
    const random = seededRandom(11);
    for (const text of [sample, `${sample}\n`, '[]', ' [ ] \n', '[1]', JSON.stringify(JSON.parse(sample)), `\n\n  ${sample}`]) {
      const expected = whole(text);
      for (let k = 0; k < 20; k++) expect(streamed(text, randomCuts(random, text.length))).toEqual(expected);
      expect(streamed(text, [...Array(text.length).keys()])).toEqual(expected);
    }
  });

  it('broken documents: the same first problem (message, line, column, field)', () => {
    const random = seededRandom(5);
    const broken = [
      '',
      '   ',
      '{"a": 1}',
      '"text"',
      '```json\n[]\n```',
      '[1, 2,]',
      '[1 2]',
      '[1,',
      '[',
      '[{"a": 1,}]',
      '[{"a": 1 "b": 2}]',
      '[{"a": [1, 2}]',
      '[{"a": "unterminated]',
      '[1] x',
      '[1]\n```',
      '[NaN]',
      '[{"a": 1, "a": 2}]',
      '\ufeff[]',
      '[{"a": "\\ud800"}]',
      '[{"a": 01}]',
      '{"a": ',
      '[1]]',
    ];
    for (let k = 0; k < 300; k++) {
      const chars = [...sample];
      const at = Math.floor(random() * chars.length);
      const op = random();
      if (op < 0.4) chars.splice(at, 1);
      else if (op < 0.8) chars.splice(at, 0, ',]}["\\x:'[Math.floor(random() * 9)]!);
      else chars.splice(at, Math.floor(random() * 30));
      broken.push(chars.join(''));
    }
    for (const text of broken) {
      const expected = whole(text);
      expect(streamed(text, randomCuts(random, text.length)), text).toEqual(expected);
    }
  });

  it('an element over the limit a record is an input problem naming it, not held', () => {
    const text = JSON.stringify([{ text: 'short' }, { text: 'x'.repeat(5000) }, { text: 'short' }], null, 2);
    expect(streamed(text, randomCuts(seededRandom(2), text.length), 1000)).toEqual({
      problems: [
        {
          file: 'f.json',
          line: 5,
          field: '[1]',
          stage: 'input',
          message: 'element 1 (from line 5) is over the limit of 1000 bytes a record',
        },
      ],
    });
    expect(streamed(text, [], 6000)).toEqual(whole(text));
  });

  it('counts UTF-8 bytes as Buffer does', () => {
    for (const text of ['', 'abc', 'Grüße', '🎙x', '\u2028', 'a\ud800b']) expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });
});
