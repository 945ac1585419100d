import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GoldAgreementReport } from '../../../../core/common/adjudication/goldAgreement';
import { goldAgreementHtml } from '../../../../core/common/adjudication/goldAgreementHtml';
import { cli } from '../../../helpers/cli';
import { threeAnnotatorStudy } from './adjudicationStudy';

const hostile = '<img src=x onerror="alert(1)">&\'';

describe('the gold section of the HTML agreement report', () => {
  it('shows each annotator against gold with intervals, causes by count, flags with items, every text escaped', () => {
    const report: GoldAgreementReport = {
      gold_items: 3,
      sources: { unanimous: 1, adjudicated: 2, unresolved: 17 },
      annotators: [
        { annotator: 'ana', items: 3, matches: 2, accuracy: 2 / 3, accuracy_ci95: [0.2077, 0.9386], alpha: 0.25, alpha_ci95: [-0.5, 1] },
        { annotator: hostile, items: 0, matches: 0, accuracy: null, accuracy_ci95: null, alpha: null, alpha_ci95: null },
      ],
      causes: [
        { cause: 'edge case', count: 2 },
        { cause: hostile, count: 1 },
      ],
      guideline_flags: [{ item_id: 'demo-<3>', text: hostile, adjudicator: 'lead', decided_at: '2026-12-05T04:00:00.000Z' }],
    };
    const html = goldAgreementHtml(report);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror="');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;');
    expect(html).toContain(
      '<tr><td>ana</td><td>3</td><td>2</td><td>66.7%</td><td>[20.8%, 93.9%]</td><td>0.250</td><td>[-0.500, 1.000]</td></tr>',
    );
    expect(html).toContain('<tr><td>edge case</td><td>2</td></tr>');
    expect(html).toContain('<td><code>demo-&lt;3&gt;</code></td>');
    expect(html).toContain('3 items with a gold label · sources: adjudicated 2 · unanimous 1 · unresolved 17');
    expect(html).toContain('Guideline flags (1)');
  });

  it("aloud agreement --html carries the JSON's gold figures once the project is adjudicated, and nothing before", async () => {
    const dir = await threeAnnotatorStudy();
    const before = path.join(path.dirname(dir), 'before.html');
    expect((await cli('agreement', '--project', dir, '--html', before)).code).toBe(0);
    expect(await readFile(before, 'utf8')).not.toContain('Against the gold labels');

    expect(
      (
        await cli(
          'adjudicate',
          '--project',
          dir,
          '--as',
          'lead',
          '--item',
          'demo-03',
          '--label',
          'Neutral',
          '--confidence',
          'low',
          '--cause',
          'ambiguous text',
          '--flag-guideline',
          'define <neutral> & "polite"',
        )
      ).code,
    ).toBe(0);
    const file = path.join(path.dirname(dir), 'report.html');
    expect((await cli('agreement', '--project', dir, '--html', file)).code).toBe(0);
    const html = await readFile(file, 'utf8');
    const gold = JSON.parse((await cli('agreement', '--project', dir, '--json')).out).gold as GoldAgreementReport;
    expect(html).toContain(goldAgreementHtml(gold));
    expect(html).toContain('<tr><td>cai</td><td>2</td><td>2</td><td>100.0%</td>');
    expect(html).toContain('<tr><td>ambiguous text</td><td>1</td></tr>');
    expect(html).toContain('<td><code>demo-03</code></td><td>define &lt;neutral&gt; &amp; &quot;polite&quot;</td><td>lead</td>');
  });
});
