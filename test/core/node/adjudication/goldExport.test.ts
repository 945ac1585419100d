import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../helpers/cli';
import { threeAnnotatorStudy } from './adjudicationStudy';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { recordSession } from '../export/recordSession';

describe('aloud export --gold', () => {
  it('holds every item with its source, the decision for adjudicated ones, and validates with its receipt in every format', async () => {
    const dir = await threeAnnotatorStudy();
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
          '--rationale',
          'no cue either way',
          '--flag-guideline',
          'define neutral',
        )
      ).code,
    ).toBe(0);
    const out = path.join(path.dirname(dir), 'gold.jsonl');
    const exported = await cli('export', '--project', dir, '--gold', '--format', 'jsonl', '--out', out, '--json');
    expect(exported.code).toBe(0);
    const records: Array<{ item_id: string; annotators: unknown[] }> = (await readFile(out, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(20);
    const byId = new Map(records.map((r) => [r.item_id, r]));
    expect(byId.get('demo-01')).toMatchObject({ gold_label: 'Polite', gold_source: 'unanimous', adjudication: null });
    expect(byId.get('demo-02')).toMatchObject({ gold_label: null, gold_source: 'unresolved' });
    expect(byId.get('demo-02')!.annotators).toContainEqual({ annotator: 'ben', final_label: 'Polite', blind_label: 'Neutral' });
    expect(byId.get('demo-03')).toMatchObject({
      gold_label: 'Neutral',
      gold_source: 'adjudicated',
      adjudication: {
        adjudicator: 'lead',
        label: 'Neutral',
        confidence: 'low',
        causes: ['ambiguous text'],
        rationale: 'no cue either way',
        guideline_flag: 'define neutral',
        adopted: ['cai'],
        room: null,
        revisions: 0,
      },
    });
    expect(byId.get('demo-04')).toMatchObject({
      gold_source: 'unresolved',
      annotators: [{ annotator: 'ana', final_label: 'Neutral', blind_label: 'Neutral' }],
    });
    expect(JSON.parse(exported.out).receipt.counts).toEqual({ unanimous: 1, majority: 0, adjudicated: 1, model: 0, unresolved: 18 });

    for (const format of ['jsonl', 'json', 'csv']) {
      const file = path.join(path.dirname(dir), `gold-all.${format}`);
      expect((await cli('export', '--project', dir, '--gold', '--format', format, '--out', file)).code).toBe(0);
      const valid = await cli('validate', file, '--project', dir, '--require-receipt');
      expect([valid.code, valid.out.trim()]).toEqual([0, '[]']);
    }
    // a changed record: the rules and the receipt both say so
    const csv = path.join(path.dirname(dir), 'gold-all.csv');
    await writeFile(csv, (await readFile(csv, 'utf8')).replace('demo-01,Polite,unanimous', 'demo-01,,unanimous'));
    const broken = await cli('validate', csv);
    expect(broken.code).toBe(1);
    const problems = JSON.parse(broken.out).map((p: { field: string; message: string }) => `${p.field}: ${p.message}`);
    expect(problems).toContain('gold_label: a unanimous item has a gold label');
    expect(problems).toContain('sha256: does not match the file (changed since it was exported)');
    // a re-export over an earlier gold export is allowed without --force
    expect((await cli('export', '--project', dir, '--gold', '--format', 'jsonl', '--out', out)).code).toBe(0);

    // the agreement report measures each annotator against the gold labels, counts the causes, lists the flags
    const report = JSON.parse((await cli('agreement', '--project', dir, '--json')).out);
    expect(report.gold.gold_items).toBe(2);
    expect(
      report.gold.annotators.map((a: { annotator: string; items: number; matches: number }) => [a.annotator, a.items, a.matches]),
    ).toEqual([
      ['ana', 2, 1],
      ['ben', 2, 1],
      ['cai', 2, 2],
    ]);
    expect(report.gold.annotators[2].accuracy_ci95[1]).toBe(1);
    expect(report.gold.annotators[0].accuracy_ci95[0]).toBeGreaterThan(0);
    expect(report.gold.causes).toEqual([{ cause: 'ambiguous text', count: 1 }]);
    expect(report.gold.guideline_flags).toEqual([
      expect.objectContaining({ item_id: 'demo-03', text: 'define neutral', adjudicator: 'lead' }),
    ]);
    expect((await cli('agreement', '--project', dir)).out).toContain('guideline flag on demo-03: define neutral');

    const bad = await cli('export', '--project', dir, '--gold', '--format', 'srt', '--out', out);
    expect([bad.code, bad.err]).toEqual([2, 'aloud export: --gold: --format must be jsonl, json or csv (got "srt")\n']);
  });
});

describe('aloud export --gold --gold-model', () => {
  it('fills the items nobody agreed on or adjudicated from the label model, with its posterior and interval; the rest keep their source', async () => {
    const dir = await threeAnnotatorStudy();
    const decide = ['adjudicate', '--project', dir, '--as', 'lead', '--item', 'demo-03', '--label', 'Neutral'];
    expect((await cli(...decide, '--confidence', 'low', '--cause', 'edge case')).code).toBe(0);
    const out = path.join(path.dirname(dir), 'gold-model.jsonl');
    const exported = await cli(
      'export',
      '--project',
      dir,
      '--gold',
      '--gold-model',
      'dawid-skene',
      '--format',
      'jsonl',
      '--out',
      out,
      '--json',
    );
    expect([exported.code, exported.err]).toEqual([0, '']);
    const records: Array<{ item_id: string; gold_label: string | null; label_model: { probability: number; ci95: number[] } }> = (
      await readFile(out, 'utf8')
    )
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const byId = new Map(records.map((r) => [r.item_id, r]));
    expect(byId.get('demo-01')).toMatchObject({ gold_source: 'unanimous', gold_label: 'Polite', label_model: null });
    expect(byId.get('demo-03')).toMatchObject({ gold_source: 'adjudicated', gold_label: 'Neutral', label_model: null });
    // 2–1 for Polite (queued, undecided) and one label only (too few): the model's label, its probability and interval
    expect(byId.get('demo-02')).toMatchObject({ gold_source: 'model', gold_label: 'Polite' });
    for (const id of ['demo-02', 'demo-04']) {
      const r = byId.get(id)!;
      expect(r).toMatchObject({ gold_source: 'model', adjudication: null, label_model: { model: 'dawid-skene' } });
      expect(['Polite', 'Impolite', 'Neutral']).toContain(r.gold_label);
      const { probability, ci95 } = r.label_model;
      expect(probability).toBeGreaterThan(1 / 3);
      expect(probability).toBeLessThanOrEqual(1);
      expect(ci95[0]!).toBeLessThanOrEqual(ci95[1]!);
    }
    // nobody labelled demo-05: no model gives it a label
    expect(byId.get('demo-05')).toMatchObject({ gold_source: 'unresolved', gold_label: null, label_model: null });
    const receipt = JSON.parse(exported.out).receipt;
    expect(receipt.counts).toEqual({ unanimous: 1, majority: 0, adjudicated: 1, model: 2, unresolved: 16 });
    expect(receipt.gold_model).toEqual({ model: 'dawid-skene', resamples: 200, seed: 1 });
    expect((await cli('validate', out, '--project', dir, '--require-receipt')).out.trim()).toBe('[]');
    // a model record without its model, or a unanimous one with one: the rules say so
    await writeFile(out, (await readFile(out, 'utf8')).replace(/"label_model":\{[^}]*\}/, '"label_model":null'));
    const broken = JSON.parse((await cli('validate', out)).out).map((p: { field: string; message: string }) => `${p.field}: ${p.message}`);
    expect(broken).toContain('label_model: a model item names its label model');

    const bad = await cli('export', '--project', dir, '--gold', '--gold-model', 'ds', '--format', 'jsonl', '--out', out);
    expect([bad.code, bad.err]).toEqual([
      2,
      'aloud export: --gold-model must be one of majority, dawid-skene, mace, difficulty (got "ds")\n',
    ]);
    const alone = await cli('export', '--project', dir, '--gold-model', 'mace', '--format', 'jsonl', '--out', out);
    expect([alone.code, alone.err]).toEqual([2, 'aloud export: --gold-model goes with --gold\n']);
  });
});

describe('the gold split of the Hugging Face export', () => {
  it('writes gold/gold.jsonl (the gold records) beside the recordings, listed in the card and the receipt', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-hfgold-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    const project = await loadProjectConfig(dir);
    await recordSession(project, 'ana', [
      { id: 'demo-01', said: [' I label this polite.'], complete: true },
      { id: 'demo-02', said: [' I label this polite.'], complete: true },
    ]);
    await recordSession(project, 'ben', [
      { id: 'demo-01', said: [' I label this polite.'], complete: true },
      { id: 'demo-02', said: [' I label this neutral.'], complete: true },
    ]);
    expect(
      (
        await cli(
          'adjudicate',
          '--project',
          dir,
          '--as',
          'lead',
          '--item',
          'demo-02',
          '--label',
          'Neutral',
          '--confidence',
          'high',
          '--cause',
          'edge case',
        )
      ).code,
    ).toBe(0);
    const out = path.join(path.dirname(dir), 'hf');
    const exported = await cli('export', '--project', dir, '--format', 'hf', '--out', out);
    expect(exported.code, exported.err).toBe(0);
    const gold = (await readFile(path.join(out, 'gold', 'gold.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item_id: string; gold_source: string; gold_label: string | null });
    expect(gold).toHaveLength(20);
    expect(gold.slice(0, 2).map((g) => [g.item_id, g.gold_label, g.gold_source])).toEqual([
      ['demo-01', 'Polite', 'unanimous'],
      ['demo-02', 'Neutral', 'adjudicated'],
    ]);
    expect(await readFile(path.join(out, 'README.md'), 'utf8')).toContain('`gold/gold.jsonl`: the gold split');
    const receipt = JSON.parse(await readFile(path.join(out, 'hf.receipt.json'), 'utf8')) as { files: Array<{ path: string }> };
    expect(receipt.files.map((f) => f.path)).toContain('gold/gold.jsonl');
    // one annotator's dataset has none, and says so
    const one = await cli(
      'export',
      '--project',
      dir,
      '--format',
      'hf',
      '--annotator',
      'ana',
      '--out',
      path.join(path.dirname(dir), 'hf-ana'),
    );
    expect(one.err).toContain('no gold split');
  });
});
