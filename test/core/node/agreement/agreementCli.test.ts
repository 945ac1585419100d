import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { SessionService } from '../../../../core/node/session/sessionService';
import { cli } from '../../../helpers/cli';

/** Labels items through the real session service (click/key labels; no engine needed), completes them, and closes the session. */
async function label(
  dir: string,
  annotator: string,
  plan: Array<[string, ...string[]]>,
  options: { complete?: boolean } = {},
): Promise<void> {
  // clicks complete an item here (the demo asks for a spoken label by default)
  const yaml = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
  if (!yaml.includes('require_spoken_label'))
    await writeFile(path.join(dir, 'aloud.yaml'), yaml.replace('thinkaloud:\n', 'thinkaloud:\n  require_spoken_label: false\n'));
  const project = await loadProjectConfig(dir);
  const items = await loadProjectItems(project);
  const session = await SessionService.open({ project, annotator, items });
  try {
    for (const [itemId, ...labels] of plan) {
      await session.openItem(itemId);
      for (const l of labels) await session.commitLabel(l, 'click');
      if (options.complete !== false) await session.completeItem();
    }
  } finally {
    await session.close();
  }
}

describe('aloud agreement', () => {
  it('reads every annotator session of the project and reports alpha on blind and final labels', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-agree-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    await label(dir, 'ana', [
      ['demo-01', 'Polite'],
      ['demo-08', 'Impolite'],
      ['demo-15', 'Neutral'],
    ]);
    await label(dir, 'ben', [
      ['demo-01', 'Polite'],
      ['demo-08', 'Polite', 'Impolite'],
      ['demo-15', 'Neutral'],
    ]);
    const { code, out } = await cli('agreement', '--project', dir, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.annotators.map((a: { annotator: string }) => a.annotator)).toEqual(['ana', 'ben']);
    expect(report.items).toBe(20);
    expect(report.level).toBe('nominal');
    expect(report.alpha_final).toBe(1);
    expect(report.alpha_blind).toBeCloseTo(12 / 22, 10);
    expect(report.alpha_lift).toBeCloseTo(1 - 12 / 22, 10);
    expect(report.pairable_units).toBe(3);
    expect(report.pairable_values).toBe(6);
    expect(report.ci95_blind).toHaveLength(2);
    // ben changed demo-08 from Polite to Impolite: toward ana, the only other annotator
    expect(report.annotators[1]).toEqual({ annotator: 'ben', labels: 3, changes: 1, changes_toward_majority: 1 });
    expect(report.disagreements).toEqual([]);
    const text = await cli('agreement', '--project', dir);
    expect(text.out).toContain('alpha, first (blind) labels: 0.545');

    // the same labels through an export file give the same figures
    const exported = path.join(path.dirname(dir), 'all.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', exported)).code).toBe(0);
    const fromExport = JSON.parse((await cli('agreement', '--export', exported, '--project', dir, '--json')).out);
    expect(fromExport.alpha_blind).toBe(report.alpha_blind);
    expect(fromExport.ci95_blind).toEqual(report.ci95_blind);
    const csvExport = path.join(path.dirname(dir), 'all.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csvExport)).code).toBe(0);
    expect(JSON.parse((await cli('agreement', '--export', csvExport, '--json')).out).alpha_blind).toBe(report.alpha_blind);
    // one export per annotator, several files after one --export
    const anaFile = path.join(path.dirname(dir), 'ana.jsonl');
    const benFile = path.join(path.dirname(dir), 'ben.jsonl');
    expect((await cli('export', '--project', dir, '--annotator', 'ana', '--format', 'jsonl', '--out', anaFile)).code).toBe(0);
    expect((await cli('export', '--project', dir, '--annotator', 'ben', '--format', 'jsonl', '--out', benFile)).code).toBe(0);
    expect(JSON.parse((await cli('agreement', '--export', anaFile, benFile, '--json')).out).alpha_blind).toBe(report.alpha_blind);
    const twice = await cli('agreement', '--export', anaFile, exported);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/"ana" labels item "demo-01" here and in .*ana\.jsonl/);
    expect((await cli('agreement', anaFile)).err).toMatch(/unexpected argument/);
  });

  it("counts what it should: completed items, the annotators' own labels, no room write-backs — each unless asked for, said in the output", async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-agree-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    await label(dir, 'ana', [
      ['demo-01', 'Polite'],
      ['demo-08', 'Impolite'],
      ['demo-15', 'Neutral'],
    ]);
    await label(dir, 'ben', [
      ['demo-01', 'Polite'],
      ['demo-08', 'Impolite'],
      ['demo-15', 'Neutral'],
    ]);
    // ben labelled demo-20 but never completed it; cai's only labels are never completed
    await label(dir, 'ben', [['demo-20', 'Polite']], { complete: false });
    await label(
      dir,
      'cai',
      [
        ['demo-01', 'Impolite'],
        ['demo-08', 'Polite'],
      ],
      { complete: false },
    );
    await label(dir, 'ana', [['demo-20', 'Impolite']]);
    // a lead reviews ana's session: a label from their corrected text is the lead's, not ana's
    const project = await loadProjectConfig(dir);
    const review = await SessionService.open({ project, annotator: 'ana', items: await loadProjectItems(project), reviewer: 'lead' });
    try {
      await review.openItem('demo-15');
      await review.commitLabel('Impolite', 'correction', { confirmed: true });
    } finally {
      await review.close();
    }
    // a norming room's votes written back: a session of its own kind
    const roomSession = await SessionService.open({
      project,
      annotator: 'dan (room ABC123)',
      items: await loadProjectItems(project),
      kind: 'room',
      room: { code: 'ABC123', member_id: 'm1' },
    });
    try {
      await roomSession.openItem('demo-01');
      await roomSession.commitLabel('Neutral', 'room');
    } finally {
      await roomSession.close();
    }

    const byDefault = JSON.parse((await cli('agreement', '--project', dir, '--json')).out);
    expect(byDefault.annotators.map((a: { annotator: string }) => a.annotator)).toEqual(['ana', 'ben']);
    expect(byDefault.alpha_final).toBe(1);
    expect(byDefault.counting).toMatchObject({
      incomplete_items: 3,
      reviewer_labels_left_out: 1,
      room_sessions_left_out: ['dan (room ABC123)'],
    });
    const text = await cli('agreement', '--project', dir);
    expect(text.out).toContain(
      'counted: completed items only (3 labelled items never completed left out; --include-incomplete counts them)',
    );
    expect(text.out).toContain("counted: each annotator's own labels (1 reviewer label left out; --include-reviewers counts them)");
    expect(text.out).toContain(
      'counted: annotator sessions only (room write-backs left out: dan (room ABC123); --include-rooms counts them)',
    );

    const all = JSON.parse(
      (await cli('agreement', '--project', dir, '--include-incomplete', '--include-reviewers', '--include-rooms', '--json')).out,
    );
    expect(all.annotators.map((a: { annotator: string }) => a.annotator)).toEqual(['ana', 'ben', 'cai', 'dan (room ABC123)']);
    expect(all.disagreements.map((d: { item_id: string }) => d.item_id).sort()).toEqual(['demo-01', 'demo-08', 'demo-15', 'demo-20']);
    expect(all.counting.said[0]).toMatch(/--include-incomplete/);

    // an export file is counted by the same rules (v3 says completed, session kind and who made each act)
    const exported = path.join(path.dirname(dir), 'counted.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', exported)).code).toBe(0);
    const fromExport = JSON.parse((await cli('agreement', '--export', exported, '--project', dir, '--json')).out);
    expect(fromExport.annotators.map((a: { annotator: string }) => a.annotator)).toEqual(['ana', 'ben']);
    expect(fromExport.alpha_final).toBe(1);
    expect(fromExport.counting).toMatchObject({
      incomplete_items: 3,
      reviewer_labels_left_out: 1,
      room_sessions_left_out: ['dan (room ABC123)'],
    });
    const csv = path.join(path.dirname(dir), 'counted.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csv)).code).toBe(0);
    expect(JSON.parse((await cli('agreement', '--export', csv, '--json')).out).counting).toMatchObject({
      incomplete_items: 3,
      reviewer_labels_left_out: 1,
    });
    const html = path.join(path.dirname(dir), 'counted.html');
    expect((await cli('agreement', '--project', dir, '--html', html)).code).toBe(0);
    expect(await readFile(html, 'utf8')).toContain('counted: completed items only');
  });

  it('a missing project exits 2 with one line', async () => {
    const r = await cli('agreement', '--project', '/nonexistent/p');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  async function csvFile(name: string, text: string): Promise<string> {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-agree-csv-')), name);
    await writeFile(file, text);
    return file;
  }

  // Krippendorff (2011) reference data as an item,annotator,label table (missing values simply absent)
  const reference = [
    ['1', '2', '3', '3', '2', '1', '4', '1', '2', null, null, null],
    ['1', '2', '3', '3', '2', '2', '4', '1', '2', '5', null, '3'],
    [null, '3', '3', '3', '2', '3', '4', '2', '2', '5', '1', null],
    ['1', '2', '3', '3', '2', '4', '4', '1', '2', '5', '1', null],
  ];
  const referenceCsv = [
    'item,annotator,label',
    ...reference.flatMap((row, o) => row.flatMap((v, u) => (v === null ? [] : [`u${u + 1},${'ABCD'[o]},${v}`]))),
  ].join('\n');

  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
    ['ratio', 0.797],
  ])('--csv --level %s reproduces the published reference value', async (level, published) => {
    const file = await csvFile('ref.csv', referenceCsv);
    const r = await cli('agreement', '--csv', file, '--level', level, '--json', '--seed', '5');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.level).toBe(level);
    expect(Number(report.alpha_final.toFixed(3))).toBe(published);
    expect(report.alpha_blind).toBeNull();
    expect(report.alpha_lift).toBeNull();
    expect(report.ci95_blind).toBeNull();
    expect(report.ci95_final[0]).toBeLessThan(published);
    expect(report.ci95_final[1]).toBeGreaterThan(published);
    expect(report.pairable_units).toBe(11);
    expect(report.pairable_values).toBe(40);
    expect(report.bootstrap).toEqual({ method: 'percentile, resampling units with replacement', resamples: 1000, seed: 5 });
    // u6 has four distinct labels: first in the disagreement list
    expect(report.disagreements[0]).toMatchObject({ item_id: 'u6', distinct_labels: 4 });
  });

  it('the same seed gives the same interval; --bootstrap below 1000 is refused', async () => {
    const file = await csvFile('ref.csv', referenceCsv);
    const a = JSON.parse((await cli('agreement', '--csv', file, '--seed', '9', '--json')).out);
    const b = JSON.parse((await cli('agreement', '--csv', file, '--seed', '9', '--json')).out);
    expect(a.ci95_final).toEqual(b.ci95_final);
    const r = await cli('agreement', '--csv', file, '--bootstrap', '10');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--bootstrap must be a whole number from 1000/);
  });

  it('CSV problems name the file and line', async () => {
    const dup = await csvFile('dup.csv', 'item,annotator,label\ni1,ana,Polite\ni1,ana,Rude\n');
    let r = await cli('agreement', '--csv', dup);
    expect(r.code).toBe(2);
    expect(r.err).toContain('dup.csv:3: a second label for item "i1" by "ana" (the first is on line 2)');
    const header = await csvFile('header.csv', 'item,coder,label\ni1,ana,Polite\n');
    r = await cli('agreement', '--csv', header);
    expect(r.err).toMatch(/header\.csv:1: the header has no column "annotator"/);
    const ragged = await csvFile('ragged.csv', 'item,annotator,label\ni1,ana\n');
    expect((await cli('agreement', '--csv', ragged)).err).toMatch(/ragged\.csv:2: row has 2 fields/);
    const words = await csvFile('words.csv', 'item,annotator,label\ni1,ana,Polite\ni1,ben,Rude\n');
    expect((await cli('agreement', '--csv', words, '--level', 'interval')).err).toMatch(/interval level needs numeric labels; "Polite"/);
    expect((await cli('agreement', '--csv', words, '--level', 'ordinal')).err).toMatch(/ordinal level needs an order/);
  });

  it('says "not enough data" instead of NaN or 0.000 for one pairable item or no variation', async () => {
    const one = await csvFile('one.csv', 'item,annotator,label\ni1,ana,Polite\ni1,ben,Rude\ni2,ana,Polite\n');
    let r = await cli('agreement', '--csv', one, '--json');
    let report = JSON.parse(r.out);
    expect(report).toMatchObject({ alpha_final: null, ci95_final: null, pairable_units: 1 });
    expect(report.final.undefined_reason).toBe('fewer_than_two_pairable_units');
    r = await cli('agreement', '--csv', one);
    expect(r.out).toContain('undefined — not enough data: only one item has labels from two or more annotators');
    const flat = await csvFile('flat.csv', 'item,annotator,label\ni1,ana,Polite\ni1,ben,Polite\ni2,ana,Polite\ni2,ben,Polite\n');
    report = JSON.parse((await cli('agreement', '--csv', flat, '--json')).out);
    expect(report.alpha_final).toBeNull();
    expect(report.final.undefined_reason).toBe('no_variation');
    expect(r.out).not.toMatch(/NaN/);
  });

  it('--html writes a self-contained report: chart, disagreements, conformity, nothing fetched', async () => {
    const file = await csvFile('ref.csv', referenceCsv);
    const html = path.join(path.dirname(file), 'report.html');
    expect((await cli('agreement', '--csv', file, '--html', html)).code).toBe(0);
    const text = await readFile(html, 'utf8');
    expect(text).toContain('<svg');
    expect(text).toContain('Disagreements (');
    expect(text).toContain('<code>u6</code>');
    expect(text).toContain("default-src 'none'");
    expect(text).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('--lang de writes the report in German (the output here stays English); --lang alone or unknown is refused', async () => {
    const file = await csvFile('ref-de.csv', referenceCsv);
    const html = path.join(path.dirname(file), 'bericht.html');
    const r = await cli('agreement', '--csv', file, '--html', html, '--lang', 'de');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/alpha/);
    const text = await readFile(html, 'utf8');
    expect(text).toContain('<html lang="de">');
    expect(text).toContain('<title>Aloud-Bericht zur Übereinstimmung</title>');
    expect(text).toContain('Abweichungen (');
    expect(text).toContain('Pro Annotator: erstes → endgültiges Label');
    expect(text).toMatch(/<td>0,\d{3}<\/td>/);
    for (const english of ['Disagreements', 'Per annotator', 'Sources:', 'final', 'interval']) expect(text).not.toContain(`>${english}`);
    expect((await cli('agreement', '--csv', file, '--lang', 'de')).err).toMatch(/--lang is the language of the --html report/);
    expect((await cli('agreement', '--csv', file, '--html', html, '--lang', 'fr')).err).toMatch(/--lang must be one of en, de, not "fr"/);
  });

  it('names an unknown level and a missing file', async () => {
    expect((await cli('agreement', '--csv', 'x.csv', '--level', 'fuzzy')).err).toMatch(
      /--level must be one of nominal, ordinal, interval, ratio/,
    );
    const r = await cli('agreement', '--csv', '/nonexistent/m.csv');
    expect(r.code).toBe(2);
    expect(r.err).toContain('/nonexistent/m.csv: file not found');
  });
});
