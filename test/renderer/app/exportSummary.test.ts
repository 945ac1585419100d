import { describe, expect, it } from 'vitest';
import { exportSummaryWords } from '../../../renderer/src/app/exportSummary';

const base = { file: '/x.jsonl', receipt: '/x.jsonl.receipt.json', sha256: '0'.repeat(64), gaps: 0 };

describe('export summary in words', () => {
  it('says what is missing, by count', () => {
    const words = exportSummaryWords({ ...base, records: 26, counts: { annotators: 1, items: 26, with_audio: 14, with_transcript: 13, with_final_label: 13 }, annotators: ['ana'] });
    expect(words).toBe('Exported 26 records (26 items × ana); 12 items have no audio, 13 have no transcript, 13 have no label.');
  });
  it('says when nothing is missing, and copes with one', () => {
    expect(exportSummaryWords({ ...base, records: 2, counts: { annotators: 2, items: 1, with_audio: 2, with_transcript: 2, with_final_label: 2 } })).toBe(
      'Exported 2 records (1 item × 2 annotators); every record has audio, a transcript and a label.',
    );
    expect(exportSummaryWords({ ...base, records: 1, counts: { annotators: 1, items: 1, with_audio: 0, with_transcript: 0, with_final_label: 1 }, annotators: ['kim'] })).toBe(
      'Exported 1 record (1 item × kim); 1 item has no audio, 1 has no transcript.',
    );
  });
});
