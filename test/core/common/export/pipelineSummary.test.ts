import { describe, expect, it } from 'vitest';
import { pipelineSummary, problemsSummary } from '../../../../core/common/export/pipelineSummary';

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
      warnings_count: 1,
      problems_count: 3,
      problems_by_stage: { schema: 1, rule: 2 },
    });
  });

  it('an empty list is a count of 0 with no groups; kept lists keep their first 20 elements, with their count', () => {
    expect(pipelineSummary({ gaps: [], skipped: [{ item_id: 'x' }] }, new Set(['skipped']))).toEqual({
      gaps_count: 0,
      skipped: [{ item_id: 'x' }],
      skipped_count: 1,
    });
    const many = Array.from({ length: 1000 }, (_, i) => `warning ${i}`);
    expect(pipelineSummary({ warnings: many })).toEqual({ warnings: many.slice(0, 20), warnings_count: 1000 });
  });

  it('problemsSummary: how many, by stage, and the first 20 however many there are', () => {
    const problems = Array.from({ length: 5000 }, (_, i) => ({ line: i + 1, stage: i % 2 ? 'schema' : 'rule' }));
    expect(problemsSummary(problems)).toEqual({
      problems_count: 5000,
      problems_by_stage: { rule: 2500, schema: 2500 },
      first_problems: problems.slice(0, 20),
    });
    expect(problemsSummary([])).toEqual({ problems_count: 0, first_problems: [] });
  });
});
