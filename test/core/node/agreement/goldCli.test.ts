import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { exportHesitation, pairKey } from '../../../../core/node/agreement/hesitationSources';
import { SessionService } from '../../../../core/node/session/sessionService';
import { cli } from '../../../helpers/cli';

/** Labels and completes items through the real session service (click labels; no engine). */
async function label(dir: string, annotator: string, plan: Array<[string, string]>): Promise<void> {
  const yaml = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
  if (!yaml.includes('require_spoken_label'))
    await writeFile(path.join(dir, 'aloud.yaml'), yaml.replace('thinkaloud:\n', 'thinkaloud:\n  require_spoken_label: false\n'));
  const project = await loadProjectConfig(dir);
  const session = await SessionService.open({ project, annotator, items: await loadProjectItems(project) });
  try {
    for (const [itemId, l] of plan) {
      await session.openItem(itemId);
      await session.commitLabel(l, 'click');
      await session.completeItem();
    }
  } finally {
    await session.close();
  }
}

const ids = Array.from({ length: 20 }, (_, k) => `demo-${String(k + 1).padStart(2, '0')}`);
const LABELS = ['Polite', 'Impolite', 'Neutral'];
/** ana, ben and cai agree on a fixed truth except a few slips; dan says Polite to everything */
const truth = ids.map((_, k) => LABELS[k % 3]!);

describe('aloud gold', () => {
  it('models the demo study from its sessions, the same labels from an export, and names a spammer last', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-gold-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    await label(
      dir,
      'ana',
      ids.map((id, k) => [id, truth[k]!]),
    );
    await label(
      dir,
      'ben',
      ids.map((id, k) => [id, k === 3 ? 'Neutral' : truth[k]!]),
    );
    await label(
      dir,
      'cai',
      ids.map((id, k) => [id, k === 7 ? 'Impolite' : truth[k]!]),
    );
    await label(
      dir,
      'dan',
      ids.map((id) => [id, 'Polite']),
    );
    const run = await cli('gold', '--project', dir, '--json', '--bootstrap', '50', '--folds', '3');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['model', 'items', 'annotators', 'confused_pairs', 'model_fit']));
    expect(report.items).toHaveLength(20);
    expect(report.items.map((i: { item_id: string }) => i.item_id)).toEqual(ids);
    for (const [k, item] of report.items.entries()) {
      expect(Object.keys(item)).toEqual(expect.arrayContaining(['item_id', 'label', 'probability', 'ci95', 'difficulty', 'source']));
      expect(item.label).toBe(truth[k]);
      expect(item.source).toBe('model');
    }
    const byCompetence = [...report.annotators].sort((a, b) => b.competence - a.competence);
    expect(byCompetence.at(-1).annotator).toBe('dan');
    expect(Object.keys(report.annotators[0].confusion)).toEqual(LABELS);
    expect(report.model_fit.scores.map((s: { model: string }) => s.model)).toEqual(['majority', 'dawid-skene', 'mace', 'difficulty']);

    const exported = path.join(path.dirname(dir), 'all.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', exported)).code).toBe(0);
    const fromExport = JSON.parse(
      (await cli('gold', '--export', exported, '--project', dir, '--json', '--bootstrap', '50', '--folds', '3')).out,
    );
    expect(fromExport.items.map((i: { label: string }) => i.label)).toEqual(report.items.map((i: { label: string }) => i.label));
    expect(fromExport.annotators).toEqual(report.annotators);

    // click labels have no audio and no transcript: the hesitation section says it cannot tell, and why
    const withHesitation = JSON.parse(
      (await cli('gold', '--project', dir, '--json', '--with-hesitation', '--bootstrap', '10', '--folds', '2')).out,
    );
    expect(withHesitation.hesitation.unavailable).toMatch(/no hesitation measure varies across the 80 annotations/);

    const text = await cli(
      'gold',
      '--project',
      dir,
      '--model',
      'dawid-skene',
      '--bootstrap',
      '20',
      '--folds',
      '2',
      '--html',
      path.join(path.dirname(dir), 'gold.html'),
    );
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^model: dawid-skene — /);
    expect(await readFile(path.join(path.dirname(dir), 'gold.html'), 'utf8')).toContain('<h2>Annotators</h2>');
  });

  it('reads a label table, and refuses bad input with one line and exit 2', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-gold-csv-'));
    const csv = path.join(dir, 'labels.csv');
    const rows = ['item,annotator,label'];
    for (let i = 0; i < 30; i++)
      for (const a of ['x', 'y', 'z']) rows.push(`q${i},${a},${a === 'z' && i % 4 === 0 ? 'B' : i % 2 ? 'A' : 'B'}`);
    await writeFile(csv, `${rows.join('\n')}\n`);
    const ok = await cli('gold', '--csv', csv, '--json', '--model', 'majority', '--bootstrap', '20');
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.out);
    expect(report.model).toBe('majority');
    expect(report.items).toHaveLength(30);

    // with a project, its schema fixes the labels: one it does not have is left out with a warning (as agreement does)
    const project = path.join(dir, 'p');
    expect((await cli('init', '--project', project, '--demo')).code).toBe(0);
    const politeness = path.join(dir, 'politeness.csv');
    await writeFile(politeness, 'item,annotator,label\nq1,x,Polite\nq1,y,Polite\nq2,x,Neutral\nq2,y,Rude\nq3,x,Neutral\nq3,y,Neutral\n');
    const withSchema = await cli('gold', '--csv', politeness, '--project', project, '--json', '--bootstrap', '5', '--folds', '2');
    expect(withSchema.code).toBe(0);
    expect(withSchema.err).toContain('1 label(s) are not in the label schema and are left out');
    expect(JSON.parse(withSchema.out).labels).toEqual(['Polite', 'Impolite', 'Neutral']);

    const oneLabel = path.join(dir, 'one.csv');
    await writeFile(oneLabel, 'item,annotator,label\nq1,x,A\nq2,x,A\n');
    for (const [argv, message] of [
      [['--csv', oneLabel], /only one label \("A"\)/],
      [['--csv', path.join(dir, 'missing.csv')], /missing\.csv/],
      [['--csv', csv, '--model', 'wawa'], /--model must be one of majority, dawid-skene, mace, difficulty, auto/],
      [['--csv', csv, '--bootstrap', '0'], /--bootstrap must be a whole number/],
      [[csv], /unexpected argument/],
    ] as const) {
      const bad = await cli('gold', ...argv);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(message);
      expect(bad.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('hesitation measures from export files', () => {
  it("reads each record's signals from a .jsonl export and says a CSV export adds none", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-gold-hes-'));
    const file = path.join(dir, 'export.jsonl');
    await writeFile(
      file,
      [
        {
          item_id: 'q1',
          annotator: 'ana',
          signals: {
            pauses: { count: 2, total_ms: 1500, longest_ms: 900, long_count: 1 },
            filler_count: 1,
            filled_pause_count: 2,
            hedge_count: 1,
            label_changes: 1,
            time_to_final_commit_ms: 4200,
          },
        },
        { item_id: 'q2', annotator: 'ana', signals: null },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const { measures, warning } = await exportHesitation(file);
    expect(warning).toBeNull();
    expect(measures.get(pairKey('q1', 'ana'))).toEqual({
      pause_ms: 1500,
      filled_pauses: 2,
      hedges: 1,
      label_changes: 1,
      time_to_commit_ms: 4200,
    });
    expect(measures.has(pairKey('q2', 'ana'))).toBe(false);
    expect((await exportHesitation(path.join(dir, 'export.csv'))).warning).toMatch(/adds none/);
  });
});
