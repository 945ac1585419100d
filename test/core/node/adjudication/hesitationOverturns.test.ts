import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hesitationOverturns, isHesitant, newcombeDifference, wilsonInterval } from '../../../../core/common/adjudication/goldAgreement';
import { goldAgreementHtml } from '../../../../core/common/adjudication/goldAgreementHtml';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession } from '../export/recordSession';

describe('hesitant vs confident labels, overturned', () => {
  it("Newcombe's hybrid score interval of a difference: the published example (56/70 − 48/80)", () => {
    // Newcombe (1998), Statistics in Medicine 17:873, example (a), method 10: 0.2000, [0.0524, 0.3339]
    const d = newcombeDifference(56, 70, 48, 80)!;
    expect(d.rate).toBeCloseTo(0.2, 4);
    expect(d.ci95[0]).toBeCloseTo(0.0524, 4);
    expect(d.ci95[1]).toBeCloseTo(0.3339, 4);
    expect(newcombeDifference(1, 2, 0, 0)).toBeNull();
  });

  it('a label is hesitant with a change of mind, a hedge or a filled pause; unmeasured without those measures', () => {
    const m = { pause_ms: 0, filled_pauses: 0, hedges: 0, label_changes: 0, time_to_commit_ms: 100 };
    expect(isHesitant(m)).toBe(false);
    expect(isHesitant({ ...m, hedges: 1 })).toBe(true);
    expect(isHesitant({ ...m, label_changes: 2 })).toBe(true);
    expect(isHesitant({ ...m, filled_pauses: 1 })).toBe(true);
    expect(isHesitant({ ...m, filled_pauses: null, hedges: null, label_changes: null })).toBeNull();
    expect(isHesitant(null)).toBeNull();
  });

  it('counts, on adjudicated items only, how often hesitant and confident labels were overturned (agreement --json and --html)', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-hesitant-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const project = await loadProjectConfig(dir);
    const item = (id: string, ...said: string[]) => ({ id, said, complete: true });
    await recordSession(project, 'ana', [
      item('demo-01', ' Um, I label this polite.'),
      item('demo-02', ' I label this polite.'),
      item('demo-03', ' I label this neutral.'),
    ]);
    await recordSession(project, 'ben', [
      item('demo-01', ' I label this impolite.'),
      item('demo-02', ' I label this polite.', ' Actually, I label this neutral.'),
      item('demo-03', ' I label this neutral.'),
    ]);
    await recordSession(project, 'cai', [
      item('demo-01', ' I label this impolite.'),
      item('demo-02', ' I label this polite.'),
      item('demo-03', ' I label this neutral.'),
    ]);
    const decide = (id: string, label: string) =>
      cli(
        'adjudicate',
        '--project',
        dir,
        '--as',
        'lead',
        '--item',
        id,
        '--label',
        label,
        '--confidence',
        'high',
        '--cause',
        'annotator error',
      );
    expect((await decide('demo-01', 'Impolite')).code).toBe(0);
    const second = await decide('demo-02', 'Polite');
    expect([second.code, second.err]).toEqual([0, '']);

    const report = JSON.parse((await cli('agreement', '--project', dir, '--json')).out);
    // ana's "um" on demo-01 and ben's change of mind on demo-02 were overturned; the four confident labels were adopted
    expect(report.gold.hesitation).toMatchObject({
      hesitant: { labels: 2, overturned: 2, rate: 1, ci95: wilsonInterval(2, 2) },
      confident: { labels: 4, overturned: 0, rate: 0, ci95: wilsonInterval(0, 4) },
      unmeasured: 0,
      difference: { rate: 1, ci95: newcombeDifference(2, 2, 0, 4)!.ci95 },
    });
    expect(report.gold.hesitation.definition).toMatch(/^hesitant: /);
    const text = (await cli('agreement', '--project', dir)).out;
    expect(text).toContain('overturned on adjudicated items: hesitant labels 2 of 2 (100.0%');
    expect(text).toContain('confident 0 of 4 (0.0%');
    const html = goldAgreementHtml(report.gold);
    expect(html).toContain('Hesitant vs confident labels, overturned');
    expect(html).toContain('<tr><td>hesitant</td><td>2</td><td>2</td><td>100.0%</td>');

    // without measures (labelled by click) a label is unmeasured, never counted as confident
    const queue = {
      decided: [{ item_id: 'x', labels: [{ annotator: 'ana', label: 'A' }], decision: { label: 'B' } }],
    } as never;
    expect(hesitationOverturns(queue, () => null)).toMatchObject({
      unmeasured: 1,
      hesitant: { labels: 0 },
      confident: { labels: 0 },
      difference: null,
    });
  });
});
