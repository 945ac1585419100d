import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProcessRewardReceipt, ProcessRewardRecord } from '../../../../core/common/reasoning/processReward';
import { validateProcessRewardText } from '../../../../core/common/reasoning/processReward';
import { loadProjectConfig, type OpenProject } from '../../../../core/node/project/projectFolder';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { projectStepAgreement } from '../../../../core/node/export/processRewardExport';
import { projectSessionSource } from '../../../../core/node/session/projectSessions';
import { cli } from '../../../helpers/cli';

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

let dir: string;
let project: OpenProject;

async function judgeSession(
  annotator: string,
  itemId: string,
  judgments: Array<[number, 1 | 0 | -1 | null, 'step' | 'first_error']>,
): Promise<void> {
  const store = await SessionStore.open({ project, annotator });
  try {
    await store.append('item_opened', { item_id: itemId, text_sha256: null });
    await store.append('label_committed', {
      item_id: itemId,
      label: 'Polite',
      source: 'key',
      quote: null,
      start: null,
      end: null,
      stem: null,
      audio_ms: null,
      utterance: null,
      parser_version: null,
      reviewer: null,
    });
    await store.append('reasoning_shown', {
      item_id: itemId,
      steps: ['a', 'b', 'c', 'd'],
      model_label: 'Polite',
      split: 'numbered',
      reveal: 'after_blind',
      audio_samples: 0,
    });
    for (const [index, reward, kind] of judgments) {
      await store.append('step_judged', {
        item_id: itemId,
        index,
        reward,
        source: 'key',
        kind,
        quote: null,
        start: null,
        end: null,
        utterance: null,
        audio_ms: null,
      });
    }
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-prm-')), 'proj');
  expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
  project = await loadProjectConfig(dir);
  await judgeSession('ana', 'demo-03', [
    [1, 1, 'step'],
    [2, -1, 'step'],
    [2, -1, 'first_error'],
    [4, 0, 'step'],
  ]);
  await judgeSession('ben', 'demo-03', [
    [1, 1, 'step'],
    [2, 1, 'step'],
    [3, -1, 'step'],
    [3, null, 'step'],
  ]);
});

describe('aloud export --format process-reward', () => {
  it('writes one validated record per annotator per item with model reasoning, and a receipt for the exact bytes', async () => {
    const out = path.join(dir, 'prm.jsonl');
    const run = await cli('export', '--project', dir, '--format', 'process-reward', '--out', out, '--json');
    expect(run.code, run.err).toBe(0);
    const bytes = await readFile(out);
    const records = bytes
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ProcessRewardRecord);
    // demo items 01, 03, 08, 13, 15 carry reasoning: five records per annotator
    expect(records.map((r) => `${r.annotator}/${r.instance_id}`)).toEqual([
      'ana/demo-01',
      'ana/demo-03',
      'ana/demo-08',
      'ana/demo-13',
      'ana/demo-15',
      'ben/demo-01',
      'ben/demo-03',
      'ben/demo-08',
      'ben/demo-13',
      'ben/demo-15',
    ]);
    expect(records[1]).toEqual({
      instance_id: 'demo-03',
      annotator: 'ana',
      mode: 'first_error',
      steps: [
        { index: 1, reward: 1 },
        { index: 2, reward: -1 },
        { index: 3, reward: null },
        { index: 4, reward: 0 },
      ],
    });
    expect(records[6]).toEqual({
      instance_id: 'demo-03',
      annotator: 'ben',
      mode: 'per_step',
      steps: [
        { index: 1, reward: 1 },
        { index: 2, reward: 1 },
        { index: 3, reward: null },
        { index: 4, reward: null },
      ],
    });
    // never shown: the item's steps by today's split, all unjudged
    expect(records[0]!.steps.every((s) => s.reward === null)).toBe(true);
    expect(validateProcessRewardText(bytes.toString('utf8'), out).problems).toEqual([]);
    const receipt = JSON.parse(await readFile(`${out}.receipt.json`, 'utf8')) as ProcessRewardReceipt;
    expect(JSON.parse(run.out).receipt).toEqual(receipt);
    expect(receipt).toMatchObject({ kind: 'process-reward', file: 'prm.jsonl', sha256: sha256(bytes), bytes: bytes.length, records: 10 });
    expect(receipt.counts).toEqual({ annotators: 2, items: 5, judged_records: 2, judged_steps: 5, first_error_records: 1 });
  });

  it('exports one annotator, and refuses to overwrite a file that is not an earlier export', async () => {
    const out = path.join(dir, 'ana.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'process-reward', '--annotator', 'ana', '--out', out)).code).toBe(0);
    expect((await readFile(out, 'utf8')).trimEnd().split('\n')).toHaveLength(5);
    const stranger = path.join(dir, 'notes.jsonl');
    await writeFile(stranger, 'mine\n');
    const run = await cli('export', '--project', dir, '--format', 'process-reward', '--out', stranger);
    expect(run.code).not.toBe(0);
    expect(await readFile(stranger, 'utf8')).toBe('mine\n');
    expect(existsSync(`${stranger}.receipt.json`)).toBe(false);
  });
});

describe('agreement on step judgments over the project', () => {
  it('pairs the steps both annotators judged (steps 1 and 2 of demo-03); a position judged once is listed unpaired', async () => {
    const result = await projectStepAgreement(project, projectSessionSource);
    expect(result.annotators).toEqual(['ana', 'ben']);
    expect(result.all_steps.pairable_units).toBe(2);
    expect(result.by_position.map((p) => [p.index, p.pairable_units])).toEqual([
      [1, 1],
      [2, 1],
      [4, 0],
    ]); // step 4: judged by ana only, not pairable
  });
});

describe('aloud export (records) with model reasoning', () => {
  it('carries model_reasoning, step_judgments, reasoning_shown_at and the features in JSONL and CSV, and validates', async () => {
    const jsonl = path.join(dir, 'records.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', jsonl)).code).toBe(0);
    const records = (await readFile(jsonl, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const ana = records.find((r) => r.annotator === 'ana' && r.item_id === 'demo-03')!;
    expect(ana.model_reasoning).toEqual({ label: 'Polite', steps: ['a', 'b', 'c', 'd'] });
    expect(ana.reasoning_shown_at).toMatch(/^\d{4}-/);
    expect((ana.step_judgments as unknown[]).length).toBe(4);
    expect(ana.reasoning_features).toMatchObject({
      human_final: 'Polite',
      model_final: 'Polite',
      finals_agree: true,
      first_wrong_step: 2,
      right_for_wrong_reason: true,
    });
    // an item without reasoning, and one never shown (model side from the item, nothing judged)
    expect(records.find((r) => r.annotator === 'ana' && r.item_id === 'demo-02')).toMatchObject({
      model_reasoning: null,
      step_judgments: [],
      reasoning_shown_at: null,
      reasoning_features: null,
    });
    expect(records.find((r) => r.annotator === 'ana' && r.item_id === 'demo-01')).toMatchObject({
      reasoning_shown_at: null,
      reasoning_features: { first_wrong_step: null, right_for_wrong_reason: null },
    });
    expect((await cli('validate', jsonl, '--project', dir)).code).toBe(0);

    const csv = path.join(dir, 'records.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csv)).code).toBe(0);
    const [header, ...rows] = (await readFile(csv, 'utf8')).trimEnd().split('\r\n');
    const columns = header!.split(',');
    const row = rows
      .map((r) => r.split(','))
      .find((cells) => cells[columns.indexOf('annotator')] === 'ben' && cells[columns.indexOf('item_id')] === 'demo-03')!;
    const cell = (name: string) => row[columns.indexOf(name)];
    expect([
      cell('model_label'),
      cell('model_steps'),
      cell('step_rewards'),
      cell('first_wrong_step'),
      cell('right_for_wrong_reason'),
    ]).toEqual(['Polite', '4', '1:1 | 2:1', '', 'false']);
    const validated = await cli('validate', csv, '--project', dir);
    expect(validated.code, validated.out + validated.err).toBe(0);
  });
});
