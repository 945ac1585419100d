import { describe, expect, it } from 'vitest';
import { goldHtml } from '../../../../core/common/labelModels/goldHtml';
import { goldReport } from '../../../../core/common/labelModels/goldReport';

describe('the gold HTML report', () => {
  it('escapes item ids, annotators and labels from the input (a report is opened in a browser)', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const annotations = ['x', 'y', hostile].flatMap((annotator, j) =>
      Array.from({ length: 8 }, (_, i) => ({
        item_id: i === 0 ? `${hostile}${i}` : `q${i}`,
        annotator,
        label: (i + j) % 3 === 0 ? '"Rude"' : 'A&B',
      })),
    );
    const report = goldReport(annotations, { model: 'dawid-skene', resamples: 5, folds: 2 });
    const html = goldHtml(report, { title: 'Gold', sources: [hostile], generatedAt: '2026-01-01T00:00:00Z' });
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('A&amp;B');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script/i);
  });
});
