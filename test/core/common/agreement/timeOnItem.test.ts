import { describe, expect, it } from 'vitest';
import { formatDuration, median, timeOnItemReport } from '../../../../core/common/agreement/timeOnItem';

describe('time on item per annotator', () => {
  it('takes the median of odd and even counts, and none of nothing', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 10])).toBe(4);
    expect(median([1, 2])).toBe(2);
    expect(median([])).toBeNull();
  });

  it('names every annotator, also one with no completed item, and lists items in the order given', () => {
    const report = timeOnItemReport(
      [
        { item_id: 'b', annotator: 'ana', active_ms: 1000, wall_ms: 5000 },
        { item_id: 'a', annotator: 'ana', active_ms: 3000, wall_ms: 3000 },
      ],
      ['ana', 'cai'],
      ['a', 'b', 'c'],
      60_000,
    );
    expect(report.annotators).toEqual([
      { annotator: 'ana', items: 2, median_active_ms: 2000, median_wall_ms: 4000, total_active_ms: 4000, total_wall_ms: 8000 },
      { annotator: 'cai', items: 0, median_active_ms: null, median_wall_ms: null, total_active_ms: 0, total_wall_ms: 0 },
    ]);
    expect(report.items.map((i) => i.item_id)).toEqual(['a', 'b']);
  });

  it('says durations as a person reads them', () => {
    expect([formatDuration(null), formatDuration(42_460), formatDuration(245_000), formatDuration(3_725_000)]).toEqual([
      '—',
      '42.5 s',
      '4 min 05 s',
      '1 h 02 min',
    ]);
  });
});
