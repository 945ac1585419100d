import { describe, expect, it } from 'vitest';
import { exportSummaryWords } from '../../../../renderer/src/features/export/exportSummary';

const base = { file: '/x.jsonl', receipt: '/x.jsonl.receipt.json', sha256: '0'.repeat(64), gaps: 25, records: 26 };

describe('export summary in words', () => {
  it("uses the export's own sentence and names whose sessions it holds", () => {
    expect(exportSummaryWords({ ...base, summary: '26 records; 12 have no audio, 13 have no label', annotators: ['ana', 'kim'] })).toBe(
      'Exported 26 records; 12 have no audio, 13 have no label (ana, kim).',
    );
    expect(exportSummaryWords({ ...base, summary: '2 records; nothing missing' })).toBe('Exported 2 records; nothing missing.');
  });
});
