import { describe, expect, it } from 'vitest';
import { pipelineSummary } from '../../../../core/common/export/pipelineSummary';

describe('pipelineSummary', () => {
  it('keeps fields and names, turns each list into its count and counts by reason, stage or kind, and long texts into their length', () => {
    const gaps = [
      { annotator: 'a', item_id: '1', reason: 'no_audio' },
      { annotator: 'a', item_id: '2', reason: 'no_label' },
      { annotator: 'b', item_id: '1', reason: 'no_audio' },
    ];
    const summary = pipelineSummary({
      file: 'x.jsonl',
      receipt: {
        records: 6,
        counts: { items: 3 },
        gaps,
        files: [{ path: 'a' }, { path: 'b' }],
        config: { sha256: 'f00', yaml: 'y'.repeat(500) },
      },
      warnings: ['one'],
      problems: [{ stage: 'schema' }, { stage: 'rule' }, { stage: 'rule' }],
    });
    expect(summary).toEqual({
      file: 'x.jsonl',
      receipt: {
        records: 6,
        counts: { items: 3 },
        gaps_count: 3,
        gaps_by_reason: { no_audio: 2, no_label: 1 },
        files_count: 2,
        config: { sha256: 'f00', yaml_chars: 500 },
      },
      warnings: ['one'],
      problems_count: 3,
      problems_by_stage: { schema: 1, rule: 2 },
    });
  });

  it('an empty list is a count of 0 with no groups; kept lists stay whole', () => {
    expect(pipelineSummary({ gaps: [], skipped: [{ item_id: 'x' }] }, new Set(['skipped']))).toEqual({
      gaps_count: 0,
      skipped: [{ item_id: 'x' }],
    });
  });
});
