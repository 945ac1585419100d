import { describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from '../../../../core/common/io/inputProblem';
import { formatFromFileName, parseItemsText, type TabularFormat } from '../../../../core/common/items/itemsSource';

function problems(text: string, format: TabularFormat, file = `items.${format}`): InputProblem[] {
  try {
    parseItemsText(text, file, format);
  } catch (e) {
    if (e instanceof InputError) return e.problems;
    throw e;
  }
  throw new Error('expected an InputError');
}

describe('items from JSONL, JSON and CSV', () => {
  it('reads the same items from all three formats; unknown keys and extra columns become metadata', () => {
    const jsonl = '{"id":"a","text":"Thanks!","context":"Hi","lang":"en"}\n\n{"id":"b","text":"No.","meta":{"src":"x"}}\n';
    const json = '[\n {"id":"a","text":"Thanks!","context":"Hi","lang":"en"},\n {"id":"b","text":"No.","meta":{"src":"x"}}\n]';
    const csv = 'id,text,context,lang\r\na,Thanks!,Hi,en\r\nb,No.,,\r\n';
    const expected = [
      { id: 'a', text: 'Thanks!', context: 'Hi', meta: { lang: 'en' } },
      { id: 'b', text: 'No.', meta: { src: 'x' } },
    ];
    expect(parseItemsText(jsonl, 'i.jsonl', 'jsonl')).toEqual(expected);
    expect(parseItemsText(json, 'i.json', 'json')).toEqual(expected);
    expect(parseItemsText(csv, 'i.csv', 'csv')).toEqual([expected[0], { id: 'b', text: 'No.', meta: { lang: '' } }]);
  });

  it('chooses the format by file name', () => {
    expect(['a.jsonl', 'a.NDJSON', 'a.json', 'a.csv', 'a.txt'].map(formatFromFileName)).toEqual(['jsonl', 'jsonl', 'json', 'csv', null]);
  });

  it.each([
    ['jsonl', '{"id":"a","text":"x"}\n{"id":"b","text":"y","id":"c"}\n', 'parse', 2, 'id', 'duplicate key'],
    ['jsonl', '{"id":"a","text":"x"}\n```\n', 'parse', 2, null, 'Markdown code fence'],
    ['jsonl', '{"id":"a","text":"x"} {"id":"b","text":"y"}\n', 'parse', 1, null, 'exactly one JSON value'],
    ['jsonl', '{"id":"a","text":"x","score":NaN}\n', 'parse', 1, 'score', 'NaN is not allowed'],
    ['jsonl', '{"id":"a"}\n', 'schema', 1, 'text', 'required field is missing'],
    ['jsonl', '{"id":"a","text":"   "}\n', 'schema', 1, 'text', 'must match pattern'],
    ['jsonl', '{"id":7,"text":"x"}\n', 'schema', 1, 'id', 'must be string, not number'],
    ['jsonl', '["a","x"]\n', 'schema', 1, null, 'must be object'],
    ['jsonl', '{"id":"a","text":"x","meta":[1]}\n', 'schema', 1, 'meta', 'must be object'],
    ['jsonl', '{"id":"a","text":"x"}\n{"id":"a","text":"y"}\n', 'rule', 2, 'id', 'duplicate item id "a" (first on line 1)'],
    ['jsonl', '{"id":" a","text":"x"}\n', 'rule', 1, 'id', 'leading or trailing whitespace'],
    ['jsonl', '{"id":"a\\tb","text":"x"}\n', 'rule', 1, 'id', 'control character'],
    ['jsonl', '{"id":"a","text":"x","src":1,"meta":{"src":2}}\n', 'rule', 1, 'src', 'both as a field and inside "meta"'],
    ['json', '{"id":"a","text":"x"}', 'schema', 1, null, 'one JSON array of items'],
    ['json', '[\n {"id":"a","text":"x"},\n {"id":"b",\n  "text":false}\n]', 'schema', 4, '[1].text', 'must be string'],
    ['json', '[\n {"id":"a","text":"x"},\n {"id":"a","text":"y"}\n]', 'rule', 3, '[1].id', 'duplicate item id'],
    ['json', '[{"id":"a","text":"x"}]\ntrailing', 'parse', 2, null, 'unexpected text after the JSON value'],
    ['csv', 'id,body\r\na,x\r\n', 'schema', 1, 'text', 'must have a column "text"'],
    ['csv', 'id,text\r\na,x\r\nb\r\n', 'parse', 3, null, 'the header has 2'],
    ['csv', 'id,text\r\na,\r\n', 'schema', 2, 'text', 'must NOT have fewer than 1 characters'],
    ['csv', 'id,text\r\na,x\r\na,y\r\n', 'rule', 3, 'id', 'duplicate item id'],
  ] as const)('%s: %j is rejected at the %s stage, line %s, field %s', (format, text, stage, line, field, fragment) => {
    const [first] = problems(text, format);
    expect(first).toMatchObject({ file: `items.${format}`, stage, line, field });
    expect(first!.message).toContain(fragment);
  });

  it('lists every problem of a stage, not just the first', () => {
    const found = problems('{"id":"a"}\n{"text":"x"}\n{"id":"c","text":"ok"}\n{"id":1,"text":2}\n', 'jsonl');
    expect(found.map((p) => [p.line, p.field])).toEqual([
      [1, 'text'],
      [2, 'id'],
      [4, 'id'],
      [4, 'text'],
    ]);
  });
});
