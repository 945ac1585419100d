import { describe, expect, it } from 'vitest';
import { buildExportReceipt, receiptProblems, type ExportFileFacts } from '../../../../core/common/export/exportReceipt';
import { validRecords } from './exportFixtures';

const facts: ExportFileFacts = { fileName: 'out.jsonl', format: 'jsonl', sha256: 'e'.repeat(64), bytes: 1234, records: 2 };
const receipt = () =>
  buildExportReceipt({
    file: 'out.jsonl',
    format: 'jsonl',
    sha256: 'e'.repeat(64),
    bytes: 1234,
    records: validRecords(),
    project: 'politeness-demo',
    appVersion: '0.1.0',
    createdAt: '2026-01-02T11:00:00Z',
  });

describe('export receipts', () => {
  it('counts records, annotators, items and gaps', () => {
    const r = receipt();
    expect(r).toMatchObject({
      receipt_version: 1,
      schema_version: 5,
      records: 2,
      counts: { annotators: 1, items: 2, with_audio: 1, with_transcript: 1, with_final_label: 1, gaps: 3 },
    });
    expect(r.gaps).toEqual([
      { annotator: 'ann', item_id: 'item-2', reason: 'no_audio' },
      { annotator: 'ann', item_id: 'item-2', reason: 'no_transcript' },
      { annotator: 'ann', item_id: 'item-2', reason: 'no_label' },
    ]);
    expect(receiptProblems(JSON.stringify(receipt(), null, 2), 'out.jsonl.receipt.json', facts)).toEqual([]);
  });

  it.each([
    ['a different sha256', { sha256: 'd'.repeat(64) }, 'rule', 'sha256', 'the file changed after export'],
    ['a different size', { bytes: 99 }, 'rule', 'bytes', 'the receipt says 1234'],
    ['another file', { fileName: 'other.jsonl' }, 'rule', 'file', 'not "other.jsonl"'],
    ['another format', { format: 'csv' as const }, 'rule', 'format', 'the file is csv'],
    ['a different record count', { records: 3 }, 'rule', 'records', 'the export has 3 records'],
  ])('flags %s', (_name, actual, stage, field, fragment) => {
    const [p, ...rest] = receiptProblems(JSON.stringify(receipt(), null, 2), 'r.json', { ...facts, ...actual });
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ file: 'r.json', stage, field });
    expect(p!.message).toContain(fragment);
  });

  it('reads the receipt strictly too: syntax, duplicate keys and its schema', () => {
    const text = JSON.stringify(receipt(), null, 2);
    expect(receiptProblems('{', 'r.json', facts)[0]).toMatchObject({ stage: 'parse', line: 1 });
    expect(receiptProblems(text.replace('"records": 2', '"records": 2, "records": 2'), 'r.json', facts)[0]).toMatchObject({
      stage: 'parse',
      field: 'records',
    });
    const [p] = receiptProblems(text.replace(/"sha256": "e+"/, '"sha256": "nope"'), 'r.json', facts);
    expect(p).toMatchObject({ stage: 'schema', field: 'sha256', line: text.split('\n').findIndex((l) => l.includes('"sha256"')) + 1 });
    const { gaps: _gaps, ...withoutGaps } = receipt();
    expect(receiptProblems(JSON.stringify(withoutGaps), 'r.json', facts)[0]).toMatchObject({ stage: 'schema', field: 'gaps' });
  });
});
