import { describe, expect, it } from 'vitest';
import { parseExportLabels, parseLabelCsv } from '../../../../core/common/agreement/labelFiles';
import { InputError } from '../../../../core/common/io/inputProblem';

const problems = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    if (e instanceof InputError) return e.problems.map((p) => `${p.line}:${p.field}: ${p.message}`);
    throw e;
  }
  throw new Error('no problem raised');
};

describe('export files as label input', () => {
  it('reads v1 and v2 records alike: only item_id, annotator, blind_label, final_label count', () => {
    const v1 = {
      schema_version: 1,
      project: 'p',
      annotator: 'ana',
      item_id: 'i1',
      final_label: 'Polite',
      blind_label: 'Impolite',
      commitments: [],
    };
    const v2 = {
      schema_version: 2,
      annotator: 'ben',
      item_id: 'i1',
      final_label: null,
      blind_label: null,
      label_history: [{ label: 'Polite', source: 'room' }],
      future_field: { x: 1 },
    };
    const text = `${JSON.stringify(v1)}\n\n${JSON.stringify(v2)}\n`;
    expect(parseExportLabels(text, 'e.jsonl', 'jsonl')).toEqual([
      { item_id: 'i1', annotator: 'ana', blind_label: 'Impolite', final_label: 'Polite' },
      { item_id: 'i1', annotator: 'ben', blind_label: null, final_label: null },
    ]);
    expect(parseExportLabels(JSON.stringify([v1, v2], null, 2), 'e.json', 'json')).toHaveLength(2);
  });

  it('names the line and field of a record it cannot use, and a repeated pair', () => {
    const text = [
      JSON.stringify({ item_id: 'i1', annotator: 'ana', blind_label: null, final_label: 'Polite' }),
      JSON.stringify({ item_id: 'i2', annotator: '', blind_label: null, final_label: 'Polite' }),
      JSON.stringify({ item_id: 'i3', annotator: 'ana', final_label: 3 }),
      JSON.stringify({ item_id: 'i1', annotator: 'ana', blind_label: null, final_label: 'Rude' }),
      '[]',
    ].join('\n');
    expect(problems(() => parseExportLabels(text, 'e.jsonl', 'jsonl'))).toEqual([
      '2:annotator: annotator must be a non-empty string, not empty',
      '3:blind_label: blind_label must be a label or null, not missing',
      '3:final_label: final_label must be a label or null, not a number',
      '4:item_id: a second record for item "i1" by "ana" (the first is on line 1)',
      '5:null: an export record must be an object, not an array',
    ]);
  });

  it('reads the label columns of a CSV export, empty cells as null', () => {
    const csv = 'schema_version,annotator,item_id,final_label,blind_label,transcript\r\n1,ana,i1,Polite,,"a, b"\r\n';
    expect(parseExportLabels(csv, 'e.csv', 'csv')).toEqual([{ item_id: 'i1', annotator: 'ana', blind_label: null, final_label: 'Polite' }]);
    expect(problems(() => parseExportLabels('item,annotator,label\r\ni1,ana,P\r\n', 'm.csv', 'csv'))[0]).toMatch(
      /no column "item_id" \(is this an aloud export\?\)/,
    );
  });
});

describe('label tables (item,annotator,label)', () => {
  it('takes the columns in any order, trims cells, and an empty label is missing', () => {
    expect(parseLabelCsv('label,item,annotator\n Polite ,i1,ana\n,i1,ben\n', 'm.csv')).toEqual([
      { item_id: 'i1', annotator: 'ana', blind_label: null, final_label: 'Polite' },
      { item_id: 'i1', annotator: 'ben', blind_label: null, final_label: null },
    ]);
  });

  it('refuses unknown columns and empty items or annotators, naming the line', () => {
    expect(problems(() => parseLabelCsv('item,annotator,label,score\ni1,ana,P,1\n', 'm.csv'))).toEqual([
      '1:score: unknown column "score" (expected item,annotator,label)',
    ]);
    expect(problems(() => parseLabelCsv('item,annotator,label\n,ana,P\ni2,,P\n', 'm.csv'))).toEqual([
      '2:item: the item is empty',
      '3:annotator: the annotator is empty',
    ]);
  });
});
