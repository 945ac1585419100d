import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';
import { describe, expect, it } from 'vitest';
import { timeOnItemReport } from '../../../../core/common/agreement/timeOnItem';
import { TimeOnItemPanel } from '../../../../renderer/src/features/agreement/TimeOnItemPanel';

const report = timeOnItemReport(
  [
    { item_id: 'demo-01', annotator: 'ana', active_ms: 20_000, wall_ms: 20_000 },
    { item_id: 'demo-02', annotator: 'ana', active_ms: 10_000, wall_ms: 610_000 },
    { item_id: 'demo-01', annotator: 'ben', active_ms: 60_000, wall_ms: 60_000 },
  ],
  ['ana', 'ben', 'cai'],
  ['demo-01', 'demo-02'],
  120_000,
);

describe('the Agreement tab: time on item', () => {
  const html = renderToStaticMarkup(
    <IntlProvider locale="en" messages={appCatalogs.en}>
      <TimeOnItemPanel report={report} />
    </IntlProvider>,
  );

  it('shows each annotator’s median and total active and wall time, and a dash for one with no completed item', () => {
    expect(html).toContain(
      '<tr data-annotator="ana"><td>ana</td><td>2</td><td>15 sec</td><td>5 min 15 sec</td><td>30 sec</td><td>10 min 30 sec</td></tr>',
    );
    expect(html).toContain('<tr data-annotator="ben"><td>ben</td><td>1</td><td>1 min 0 sec</td><td>1 min 0 sec</td>');
    expect(html).toContain('<tr data-annotator="cai"><td>cai</td><td>0</td><td>—</td><td>—</td><td>—</td><td>—</td></tr>');
    expect(html).toContain('longer than 2 min 0 sec counts as idle');
  });

  it('lists each item’s active / wall time per annotator', () => {
    expect(html).toContain('<summary>Per item (2): active / wall</summary>');
    expect(html).toContain('<tr data-item="demo-02"><td><code>demo-02</code></td><td>10 sec / 10 min 10 sec</td><td>—</td><td>—</td></tr>');
  });
});
