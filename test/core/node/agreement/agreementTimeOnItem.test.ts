import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { SessionService } from '../../../../core/node/session/sessionService';
import { projectAgreement } from '../../../../core/node/agreement/projectAgreement';
import { cli } from '../../../helpers/cli';

/** Opens, labels by click and completes items at the seconds given (from 09:00), on a clock the test sets. */
async function work(dir: string, annotator: string, plan: Array<{ item: string; open: number; label: number; complete: number }>) {
  const project = await loadProjectConfig(dir);
  let now = Date.UTC(2026, 11, 5, 9, 0, 0);
  const start = now;
  const session = await SessionService.open({ project, annotator, items: await loadProjectItems(project), now: () => new Date(now) });
  const at = (second: number) => (now = start + second * 1000);
  try {
    for (const step of plan) {
      at(step.open);
      await session.openItem(step.item);
      at(step.label);
      await session.commitLabel('Polite', 'click');
      at(step.complete);
      await session.completeItem();
    }
  } finally {
    await session.close();
  }
}

describe('time on item in the agreement figures', () => {
  it("gives each annotator's active and wall time per completed item with their medians, in the tab's report, --json and --html", async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-time-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const yaml = path.join(dir, 'aloud.yaml');
    await writeFile(yaml, (await readFile(yaml, 'utf8')).replace('thinkaloud:\n', 'thinkaloud:\n  require_spoken_label: false\n'));
    // ana takes a 10-minute break before completing demo-02: wall time only
    await work(dir, 'ana', [
      { item: 'demo-01', open: 0, label: 10, complete: 20 },
      { item: 'demo-02', open: 20, label: 30, complete: 630 },
    ]);
    await work(dir, 'ben', [
      { item: 'demo-01', open: 0, label: 40, complete: 60 },
      { item: 'demo-02', open: 60, label: 70, complete: 80 },
    ]);
    const report = (await projectAgreement(await loadProjectConfig(dir))).time_on_item;
    expect(report.idle_gap_ms).toBe(120_000);
    expect(report.annotators).toEqual([
      { annotator: 'ana', items: 2, median_active_ms: 15_000, median_wall_ms: 315_000, total_active_ms: 30_000, total_wall_ms: 630_000 },
      { annotator: 'ben', items: 2, median_active_ms: 40_000, median_wall_ms: 40_000, total_active_ms: 80_000, total_wall_ms: 80_000 },
    ]);
    expect(report.items).toEqual([
      { item_id: 'demo-01', times: { ana: { active_ms: 20_000, wall_ms: 20_000 }, ben: { active_ms: 60_000, wall_ms: 60_000 } } },
      { item_id: 'demo-02', times: { ana: { active_ms: 10_000, wall_ms: 610_000 }, ben: { active_ms: 20_000, wall_ms: 20_000 } } },
    ]);

    const json = JSON.parse((await cli('agreement', '--project', dir, '--json')).out);
    expect(json.time_on_item).toEqual(report);
    const text = (await cli('agreement', '--project', dir)).out;
    expect(text).toContain('  ana: 15.0 s / 5 min 15 s (2 items)\n');
    const html = path.join(path.dirname(dir), 'report.html');
    expect((await cli('agreement', '--project', dir, '--html', html)).code).toBe(0);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<h2>Time on item</h2>');
    expect(page).toContain('<tr><td>ana</td><td>2</td><td>15 sec</td><td>5 min 15 sec</td><td>30 sec</td><td>10 min 30 sec</td></tr>');
    expect(page).toContain('<tr><td><code>demo-02</code></td><td>10 sec / 10 min 10 sec</td><td>20 sec / 20 sec</td></tr>');

    // the export keeps both figures, named as such, with the bound (JSON Lines and CSV), and validates
    const jsonl = path.join(path.dirname(dir), 'all.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', jsonl)).code).toBe(0);
    const records = (await readFile(jsonl, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const anaOn2 = records.find((r) => r.annotator === 'ana' && r.item_id === 'demo-02')!;
    expect(anaOn2).toMatchObject({
      schema_version: 5,
      time_open_ms: 610_000,
      time_on_item_active_ms: 10_000,
      time_on_item_wall_ms: 610_000,
      time_on_item_idle_gap_ms: 120_000,
    });
    // never opened: unknown, not zero
    expect(records.find((r) => r.annotator === 'ana' && r.item_id === 'demo-03')).toMatchObject({
      time_on_item_active_ms: null,
      time_on_item_wall_ms: null,
    });
    const csv = path.join(path.dirname(dir), 'all.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csv)).code).toBe(0);
    const [header, ...rows] = (await readFile(csv, 'utf8')).trimEnd().split('\r\n');
    const columns = header!.split(',');
    const row = rows
      .map((r) => r.split(','))
      .find((cells) => cells[columns.indexOf('annotator')] === 'ana' && cells[columns.indexOf('item_id')] === 'demo-02')!;
    expect(['time_on_item_active_ms', 'time_on_item_wall_ms', 'time_on_item_idle_gap_ms'].map((c) => row[columns.indexOf(c)])).toEqual([
      '10000',
      '610000',
      '120000',
    ]);
    for (const file of [jsonl, csv]) expect((await cli('validate', file, '--project', dir)).code).toBe(0);

    // a longer bound in aloud.yaml counts ana's break as work
    await writeFile(yaml, `${await readFile(yaml, 'utf8')}\ntime_on_item:\n  idle_gap_seconds: 900\n`);
    const longer = (await projectAgreement(await loadProjectConfig(dir))).time_on_item;
    expect(longer.items[1]!.times.ana).toEqual({ active_ms: 610_000, wall_ms: 610_000 });
  });
});
