import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExportRecord } from '../../../../core/common/export/exportRecord';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import type { ExportReceiptV1 } from '../../../../core/common/export/exportReceipt';
import type { InputProblem } from '../../../../core/common/io/inputProblem';
import { makeExportCommand } from '../../../../core/node/cli/commands/export';
import { fixedSessionSource } from '../../../../core/node/session/sessionSource';
import { loadProjectConfig, type OpenProject } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession, TEST_MODEL } from './recordSession';

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;
const readJsonl = async (file: string): Promise<ExportRecord[]> =>
  (await readFile(file, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as ExportRecord);

/** What the fold adds beyond v1's fields, empty: hand-made states for the export command. */
const NOTHING_MORE: Pick<
  ItemSessionState,
  | 'label_history'
  | 'segment_refs'
  | 'transcript_corrected'
  | 'corrections'
  | 'superseded_transcripts'
  | 'parser_version'
  | 'config_changed'
  | 'labels_not_in_schema'
  | 'changed_after_completion'
> = {
  label_history: [],
  segment_refs: [],
  transcript_corrected: null,
  corrections: [],
  superseded_transcripts: [],
  parser_version: null,
  config_changed: false,
  labels_not_in_schema: [],
  changed_after_completion: false,
};

let dir: string;
let project: OpenProject;
let itemCount: number;

beforeAll(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-export-')), 'proj');
  expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
  project = await loadProjectConfig(dir);
  itemCount = (await readFile(path.join(dir, 'items.jsonl'), 'utf8')).trim().split('\n').length;
  await recordSession(project, 'Ann Example', [
    { id: 'demo-01', said: [' Hmm, this is kind of polite.', ' I label this polite.'], complete: true },
    { id: 'demo-02', said: [' My answer is impolite.', ' Final answer: neutral.'] },
    { id: 'demo-03', click: 'Impolite' },
  ]);
  await recordSession(project, 'bob', [{ id: 'demo-01', said: [' Uh, I label this rude.'], complete: true }]);
});

describe('aloud export (records)', () => {
  it('writes one validated record per annotator and item, then a receipt that vouches for the exact bytes', async () => {
    const out = path.join(dir, 'export.jsonl');
    const run = await cli('export', '--project', dir, '--format', 'jsonl', '--out', out, '--json');
    expect(run.code, run.err).toBe(0);
    const bytes = await readFile(out);
    const receipt = await readJson<ExportReceiptV1>(`${out}.receipt.json`);
    // --json: a summary for a pipeline (lists as counts, gaps by reason); the receipt file holds the whole
    const summary = JSON.parse(run.out) as { file: string; receipt_file: string; receipt: Record<string, unknown> };
    expect(summary).toMatchObject({ file: out, receipt_file: `${out}.receipt.json` });
    const byReason: Record<string, number> = {};
    for (const gap of receipt.gaps) byReason[gap.reason] = (byReason[gap.reason] ?? 0) + 1;
    expect(receipt.gaps.length).toBeGreaterThan(0);
    expect(summary.receipt).toMatchObject({
      sha256: receipt.sha256,
      records: receipt.records,
      counts: receipt.counts,
      gaps_count: receipt.gaps.length,
      gaps_by_reason: byReason,
    });
    expect(summary.receipt).not.toHaveProperty('gaps');
    expect(summary.receipt.config).toEqual({ sha256: receipt.config!.sha256, yaml_chars: receipt.config!.yaml.length });
    const full = await cli('export', '--project', dir, '--format', 'jsonl', '--out', out, '--json', '--full');
    expect(full.code, full.err).toBe(0);
    const printed = JSON.parse(full.out) as { receipt: ExportReceiptV1 };
    expect(printed.receipt).toEqual({
      ...(await readJson<ExportReceiptV1>(`${out}.receipt.json`)),
      created_at: printed.receipt.created_at,
    });
    expect(receipt).toMatchObject({
      schema_version: 5,
      file: 'export.jsonl',
      format: 'jsonl',
      sha256: sha256(bytes),
      bytes: bytes.length,
      records: 2 * itemCount,
    });
    expect(receipt.counts).toMatchObject({ annotators: 2, items: itemCount, with_audio: 3, with_transcript: 3, with_final_label: 4 });

    const records = await readJsonl(out);
    const ann = records.find((r) => r.annotator === 'Ann Example' && r.item_id === 'demo-01')!;
    expect(ann).toMatchObject({
      final_label: 'Polite',
      label_source: 'voice',
      blind_label: 'Polite',
      model: TEST_MODEL,
      app_version: '0.1.0',
    });
    expect(ann.transcript).toBe(' Hmm, this is kind of polite. I label this polite.');
    for (const c of ann.commitments) expect(ann.transcript!.slice(c.start, c.end)).toBe(c.quote);
    expect(ann.audio!.sha256).toBe(sha256(await readFile(path.join(dir, ...ann.audio!.path.split('/')))));
    expect(ann.audio!.duration_ms).toBe(2000);
    expect(ann.config_sha256).toBe(sha256(await readFile(path.join(dir, 'aloud.yaml'))));
    expect(ann.item_text_sha256).toBe(
      sha256(JSON.parse((await readFile(path.join(dir, 'items.jsonl'), 'utf8')).split('\n')[0]!).text as string),
    );
    expect(ann.completed_at).not.toBeNull();
    expect(ann.signals).toMatchObject({ commitment_count: 1, total_chunks: expect.any(Number) });

    const changed = records.find((r) => r.annotator === 'Ann Example' && r.item_id === 'demo-02')!;
    expect(changed).toMatchObject({ blind_label: 'Impolite', final_label: 'Neutral', label_source: 'voice' });
    const clicked = records.find((r) => r.annotator === 'Ann Example' && r.item_id === 'demo-03')!;
    expect(clicked).toMatchObject({ final_label: 'Impolite', label_source: 'click', transcript: null, audio: null });
    expect(receipt.gaps).toContainEqual({ annotator: 'Ann Example', item_id: 'demo-03', reason: 'no_audio' });
    expect(receipt.gaps).toContainEqual({ annotator: 'bob', item_id: 'demo-04', reason: 'no_label' });
    expect(receipt.gaps).not.toContainEqual(expect.objectContaining({ annotator: 'Ann Example', item_id: 'demo-01' }));

    const validated = await cli('validate', out, '--project', dir);
    expect(validated.code, validated.out).toBe(0);
    expect(JSON.parse(validated.out)).toEqual([]);
  });

  it.each(['json', 'csv'] as const)('writes %s exports that validate, each with its receipt', async (format) => {
    const out = path.join(dir, `export.${format}`);
    expect((await cli('export', '--project', dir, '--format', format, '--out', out)).code).toBe(0);
    const receipt = await readJson<ExportReceiptV1>(`${out}.receipt.json`);
    expect(receipt.sha256).toBe(sha256(await readFile(out)));
    expect(receipt.format).toBe(format);
    const validated = await cli('validate', out, '--project', dir);
    expect(JSON.parse(validated.out)).toEqual([]);
    expect(validated.code).toBe(0);
  });

  it('v3 methods metadata: completed and time on item per record, the whole aloud.yaml in the receipt, the items with --with-items', async () => {
    const out = path.join(dir, 'methods.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    const records = (await readFile(out, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportRecord);
    const of = (annotator: string, item: string) => records.find((r) => r.annotator === annotator && r.item_id === item)!;
    expect(of('Ann Example', 'demo-01')).toMatchObject({
      schema_version: 5,
      session_kind: 'annotator',
      completed: true,
      own_final_label: 'Polite',
    });
    expect(of('Ann Example', 'demo-01').time_to_complete_ms).toEqual(expect.any(Number));
    expect(of('Ann Example', 'demo-01').time_open_ms).toEqual(expect.any(Number));
    // labelled, never completed: the record says so (agreement leaves it out by default)
    expect(of('Ann Example', 'demo-02')).toMatchObject({
      completed: false,
      completed_at: null,
      first_completed_at: null,
      time_to_complete_ms: null,
      final_label: 'Neutral',
    });
    expect(of('Ann Example', 'demo-05')).toMatchObject({ completed: false, time_open_ms: null, own_final_label: null });
    const receipt = await readJson<ExportReceiptV1>(`${out}.receipt.json`);
    const yaml = await readFile(path.join(dir, 'aloud.yaml'), 'utf8');
    expect(receipt.config).toEqual({ sha256: sha256(yaml), yaml });

    const csv = path.join(dir, 'items.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csv, '--with-items')).code).toBe(0);
    const [header, firstRow] = (await readFile(csv, 'utf8')).split('\r\n');
    expect(header!.split(',').slice(-3)).toEqual(['item_text', 'item_context', 'item_metadata']);
    const firstText = JSON.parse((await readFile(path.join(dir, 'items.jsonl'), 'utf8')).split('\n')[0]!).text as string;
    expect(firstRow).toContain(firstText.replace(/"/g, '""'));
    const validated = await cli('validate', csv, '--project', dir);
    expect(validated.code, validated.out).toBe(0);
    const refused = await cli('export', '--project', dir, '--format', 'jsonl', '--out', path.join(dir, 'x.jsonl'), '--with-items');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--with-items adds columns to a csv export/);
  });

  it('--annotator exports one annotator; an unknown one is a one-line usage error', async () => {
    const out = path.join(dir, 'bob.jsonl');
    expect((await cli('export', '--project', dir, '--annotator', 'bob', '--format', 'jsonl', '--out', out)).code).toBe(0);
    const records = await readJsonl(out);
    expect(new Set(records.map((r) => r.annotator))).toEqual(new Set(['bob']));
    expect(records.find((r) => r.item_id === 'demo-01')).toMatchObject({ final_label: 'Impolite', label_source: 'voice' }); // "rude" is Impolite's synonym
    const unknown = await cli('export', '--project', dir, '--annotator', 'carol', '--format', 'jsonl', '--out', out);
    expect(unknown.code).toBe(2);
    expect(unknown.err.trim().split('\n')).toHaveLength(1);
    expect(unknown.err).toContain('no session for annotator "carol"');
  });

  it('a file changed after export fails validation against its receipt', async () => {
    const out = path.join(dir, 'tampered.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    const text = await readFile(out, 'utf8');
    await writeFile(out, text.replace('"final_label":"Polite"', '"final_label":"Neutral"'));
    const validated = await cli('validate', out);
    expect(validated.code).toBe(1);
    const problems = JSON.parse(validated.out) as InputProblem[];
    expect(problems).toContainEqual(expect.objectContaining({ file: `${out}.receipt.json`, field: 'sha256', stage: 'rule' }));
  });

  it('one invalid record fails the whole export: exit 1, no file, no receipt, nothing partial', async () => {
    const out = path.join(dir, 'refused.jsonl');
    const good = {
      item_id: 'demo-01',
      audio_path: null,
      audio_ms: 0,
      transcript: ' I label this polite.',
      segments: [{ t0_ms: 0, t1_ms: 900, text: ' I label this polite.' }],
      commitments: [{ label: 'Polite', quote: 'I label this polite', start: 1, end: 20, t_ms: 900, stem: 'x' }],
      final_label: 'Polite',
      label_source: 'voice' as const,
      blind_label: 'Polite',
      signals: null,
      model: null,
      started_at: null,
      completed_at: null,
      stale_results: 0,
      ...NOTHING_MORE,
      segment_refs: [{ utterance: 0, segment: 0 }],
      label_history: [
        { label: 'Polite', source: 'voice' as const, at: '2026-01-01T00:00:00.000Z', audio_ms: 900, quote: 'I label this polite' },
      ],
    };
    const bad = { ...good, item_id: 'demo-02', commitments: [{ ...good.commitments[0]!, start: 2, end: 21 }] };
    const command = makeExportCommand(fixedSessionSource([{ annotator: 'x', items: [good, bad], warnings: [] }]));
    let err = '';
    let stdout = '';
    const code = await command.run(['--project', dir, '--format', 'jsonl', '--out', out, '--json'], {
      out: (t) => (stdout += t),
      err: (t) => (err += t),
    });
    expect(code).toBe(1);
    expect(err).toContain('nothing written');
    expect(err).toContain('refused.jsonl:2: quote "I label this polite" is not the transcript text at 2..21');
    // --json: how many problems, by stage, and the first ones (a pipeline's stdout stays bounded); --full: every one
    expect(JSON.parse(stdout)).toEqual({
      problems_count: 1,
      problems_by_stage: { rule: 1 },
      first_problems: [expect.objectContaining({ line: 2, field: 'commitments[0].quote', stage: 'rule' })],
    });
    let full = '';
    expect(
      await command.run(['--project', dir, '--format', 'jsonl', '--out', out, '--json', '--full'], {
        out: (t) => (full += t),
        err: () => undefined,
      }),
    ).toBe(1);
    expect((JSON.parse(full) as { problems: InputProblem[] }).problems).toEqual([
      expect.objectContaining({ line: 2, field: 'commitments[0].quote', stage: 'rule' }),
    ]);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.receipt.json`)).toBe(false);
    expect((await readdir(dir)).filter((f) => f.includes('refused'))).toEqual([]);
    // the same states without the bad one export fine through the same command
    const fine = makeExportCommand(fixedSessionSource([{ annotator: 'x', items: [good], warnings: [] }]));
    expect(await fine.run(['--project', dir, '--format', 'jsonl', '--out', out], { out: () => undefined, err: () => undefined })).toBe(0);
    expect(existsSync(`${out}.receipt.json`)).toBe(true);
  });

  it('re-exporting over a file replaces it and its receipt; a refused export leaves the earlier pair untouched', async () => {
    const out = path.join(dir, 'again.jsonl');
    expect((await cli('export', '--project', dir, '--annotator', 'bob', '--format', 'jsonl', '--out', out)).code).toBe(0);
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    const receipt = await readJson<ExportReceiptV1>(`${out}.receipt.json`);
    expect(receipt.sha256).toBe(sha256(await readFile(out)));
    expect(receipt.counts.annotators).toBe(2);
    const before = [await readFile(out), await readFile(`${out}.receipt.json`)];
    const bad = {
      item_id: 'demo-01',
      audio_path: null,
      audio_ms: 0,
      transcript: 'x',
      segments: [],
      commitments: [],
      final_label: 'Rude',
      label_source: 'key' as const,
      blind_label: 'Rude',
      signals: null,
      model: null,
      started_at: null,
      completed_at: null,
      stale_results: 0,
      ...NOTHING_MORE,
      label_history: [{ label: 'Rude', source: 'key' as const, at: '2026-01-01T00:00:00.000Z', audio_ms: null, quote: null }],
    };
    const refused = makeExportCommand(fixedSessionSource([{ annotator: 'x', items: [bad], warnings: [] }]));
    let err = '';
    expect(await refused.run(['--project', dir, '--format', 'jsonl', '--out', out], { out: () => undefined, err: (t) => (err += t) })).toBe(
      1,
    );
    expect(err).toContain('label "Rude" is not in the project\'s label schema');
    expect([await readFile(out), await readFile(`${out}.receipt.json`)]).toEqual(before);
    expect((await cli('validate', out, '--project', dir)).code).toBe(0);
  });

  it('lists session states of items the project no longer has instead of dropping them silently', async () => {
    const orphan = {
      item_id: 'gone-1',
      audio_path: null,
      audio_ms: 0,
      transcript: '',
      segments: [],
      commitments: [],
      final_label: null,
      label_source: null,
      blind_label: null,
      signals: null,
      model: null,
      started_at: null,
      completed_at: null,
      stale_results: 0,
      ...NOTHING_MORE,
    };
    const command = makeExportCommand(fixedSessionSource([{ annotator: 'x', items: [orphan], warnings: ['a warning'] }]));
    let stdout = '';
    let err = '';
    const out = path.join(dir, 'orphans.jsonl');
    expect(
      await command.run(['--project', dir, '--format', 'jsonl', '--out', out, '--json'], {
        out: (t) => (stdout += t),
        err: (t) => (err += t),
      }),
    ).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ skipped_states: [{ annotator: 'x', item_id: 'gone-1' }], skipped_states_count: 1 });
    expect(err).toContain('warning: a warning');
  });

  it('--json is a summary whose size does not grow with the study; --full prints every gap, warning and skipped state', async () => {
    const orphan = (item_id: string) => ({
      item_id,
      audio_path: null,
      audio_ms: 0,
      transcript: '',
      segments: [],
      commitments: [],
      final_label: null,
      label_source: null,
      blind_label: null,
      signals: null,
      model: null,
      started_at: null,
      completed_at: null,
      stale_results: 0,
      ...NOTHING_MORE,
    });
    const run = async (annotators: number, ...flags: string[]) => {
      const sessions = Array.from({ length: annotators }, (_, a) => ({
        annotator: `annotator-${a}`,
        items: [orphan(`gone-${a}`)],
        warnings: [`warning ${a}`],
      }));
      let stdout = '';
      const out = path.join(dir, `bounded-${annotators}.jsonl`);
      const code = await makeExportCommand(fixedSessionSource(sessions)).run(
        ['--project', dir, '--format', 'jsonl', '--out', out, '--force', '--json', ...flags],
        { out: (t) => (stdout += t), err: () => undefined },
      );
      expect(code).toBe(0);
      return { stdout, receipt: await readJson<ExportReceiptV1>(`${out}.receipt.json`) };
    };
    const small = await run(2);
    const large = await run(60);
    // 60 annotators × every item of the project: hundreds of gaps in the receipt, a summary of the same few fields
    expect(large.receipt.gaps.length).toBeGreaterThan(20 * small.receipt.gaps.length);
    const summary = JSON.parse(large.stdout) as Record<string, unknown> & { receipt: Record<string, unknown> };
    expect(summary).toMatchObject({ warnings_count: 60, skipped_states_count: 60 });
    expect(summary.warnings).toHaveLength(20);
    expect(summary.skipped_states).toHaveLength(20);
    expect(summary.receipt).toMatchObject({ gaps_count: large.receipt.gaps.length, records: large.receipt.records });
    expect(Object.values(summary.receipt.gaps_by_reason as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      large.receipt.gaps.length,
    );
    expect(summary.receipt).not.toHaveProperty('gaps');
    expect(large.stdout.length).toBeLessThan(6000);
    // what grows with the study is only the kept lists' first 20 elements: 30 times the annotators, not 30 times the bytes
    expect(large.stdout.length).toBeLessThan(3 * small.stdout.length);
    const full = await run(60, '--full');
    expect(JSON.parse(full.stdout).receipt.gaps).toHaveLength(large.receipt.gaps.length);
    expect(full.stdout.length).toBeGreaterThan(5 * large.stdout.length);
  });

  it('bad arguments exit 2 with one line', async () => {
    for (const args of [
      ['--project', dir, '--format', 'xml', '--out', path.join(dir, 'x.xml')],
      ['--project', dir, '--format', 'jsonl'],
      ['--project', dir, '--format', 'jsonl', '--out', path.join(dir, 'no-such-folder', 'x.jsonl')],
      ['--project', path.join(dir, 'nope'), '--format', 'jsonl', '--out', path.join(dir, 'x.jsonl')],
    ]) {
      const run = await cli('export', ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('aloud export (transcripts)', () => {
  it.each(['txt', 'srt', 'vtt'] as const)(
    'writes one %s file per item with a transcript, and a receipt with their sha256',
    async (format) => {
      const out = path.join(dir, `transcripts-${format}`);
      const run = await cli('export', '--project', dir, '--format', format, '--out', out, '--json');
      expect(run.code, run.err).toBe(0);
      const receipt = await readJson<{
        files: Array<{ annotator: string; item_id: string; path: string; sha256: string }>;
        gaps: unknown[];
      }>(path.join(out, 'transcripts.receipt.json'));
      expect(receipt.files.map((f) => [f.annotator, f.item_id])).toEqual([
        ['Ann Example', 'demo-01'],
        ['Ann Example', 'demo-02'],
        ['bob', 'demo-01'],
      ]);
      // names encoded as the session store encodes them (upper case escaped, so distinct on case-insensitive disks)
      expect(receipt.files[0]!.path).toBe(`%41nn%20%45xample/demo-01.${format}`);
      for (const f of receipt.files) expect(sha256(await readFile(path.join(out, ...f.path.split('/'))))).toBe(f.sha256);
      expect(receipt.gaps).toHaveLength(2 * itemCount - 3);
      const text = await readFile(path.join(out, '%41nn%20%45xample', `demo-01.${format}`), 'utf8');
      if (format === 'txt') expect(text).toBe(' Hmm, this is kind of polite. I label this polite.');
      if (format === 'srt')
        expect(text).toBe(
          '1\n00:00:00,100 --> 00:00:00,900\nHmm, this is kind of polite.\n\n2\n00:00:01,100 --> 00:00:01,900\nI label this polite.\n\n',
        );
      if (format === 'vtt') expect(text.startsWith('WEBVTT\n\n00:00:00.100 --> 00:00:00.900\nHmm, this is kind of polite.\n')).toBe(true);
    },
  );
});
