import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProjectConfig, type OpenProject } from '../../../../core/node/project/projectFolder';
import { SessionStore } from '../../../../core/node/session/sessionStore';
import { cli } from '../../../helpers/cli';

type Judgment = [item: string, index: number, reward: 1 | 0 | -1];

let dir: string;
let project: OpenProject;

/** Each item: a blind label, the reasoning shown (four steps), then the step judgments by key. */
async function judge(annotator: string, judgments: Judgment[]): Promise<void> {
  const store = await SessionStore.open({ project, annotator });
  try {
    for (const itemId of [...new Set(judgments.map(([item]) => item))]) {
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
      for (const [item, index, reward] of judgments) {
        if (item !== itemId) continue;
        await store.append('step_judged', {
          item_id: itemId,
          index,
          reward,
          source: 'key',
          kind: 'step',
          quote: null,
          start: null,
          end: null,
          utterance: null,
          audio_ms: null,
        });
      }
    }
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-agree-steps-')), 'p');
  expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
  project = await loadProjectConfig(dir);
  // the two agree everywhere but step 2 of demo-13; step 4 of demo-03 is judged by ana alone
  await judge('ana', [
    ['demo-03', 1, 1],
    ['demo-03', 2, -1],
    ['demo-03', 3, 0],
    ['demo-03', 4, 0],
    ['demo-08', 1, 1],
    ['demo-08', 2, 1],
    ['demo-13', 2, 1],
  ]);
  await judge('ben', [
    ['demo-03', 1, 1],
    ['demo-03', 2, -1],
    ['demo-03', 3, 0],
    ['demo-08', 1, 1],
    ['demo-08', 2, 1],
    ['demo-13', 2, -1],
  ]);
});

describe('aloud agreement --steps', () => {
  it('reports ordinal alpha per step position and over all judged steps in --json, undefined ones as null with a reason', async () => {
    const run = await cli('agreement', '--project', dir, '--steps', '--json');
    expect(run.code, run.err).toBe(0);
    const { steps } = JSON.parse(run.out);
    expect(steps.level).toBe('ordinal');
    expect(steps.annotators).toEqual(['ana', 'ben']);
    // six paired steps: rewards 1×7, −1×3, 0×2 (n = 12); the one disagreement is −1 vs +1, ordinal distance
    // (3/2 + 2 + 7/2)² = 49; expected: 2·(3·2·6.25 + 2·7·20.25 + 3·7·49) = 2700; alpha = 1 − 11·98/2700
    expect(steps.overall).toMatchObject({ level: 'ordinal', pairable_units: 6, pairable_values: 12, undefined_reason: null });
    expect(steps.overall.alpha).toBeCloseTo(1 - (11 * 98) / 2700, 10);
    const byIndex = Object.fromEntries(steps.per_position.map((p: { index: number }) => [p.index, p]));
    expect(steps.per_position.map((p: { index: number }) => p.index)).toEqual([1, 2, 3, 4]);
    // step 1: every pair says +1, nothing to tell from chance
    expect(byIndex[1]).toMatchObject({ alpha: null, pairable_units: 2, undefined_reason: 'no_variation' });
    // step 2: three units, −1/−1, +1/+1, +1/−1; only two categories in use, so 1 − 5·2/(3·3·2) = 4/9
    expect(byIndex[2]).toMatchObject({ pairable_units: 3, undefined_reason: null });
    expect(byIndex[2].alpha).toBeCloseTo(4 / 9, 10);
    expect(byIndex[3]).toMatchObject({ alpha: null, pairable_units: 1, undefined_reason: 'fewer_than_two_pairable_units' });
    expect(byIndex[4]).toMatchObject({ alpha: null, pairable_units: 0, undefined_reason: 'fewer_than_two_pairable_units' });
  });

  it('prints the same figures as text, and leaves them out without --steps', async () => {
    const run = await cli('agreement', '--project', dir, '--steps');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`all judged steps: ${(1 - (11 * 98) / 2700).toFixed(3)}  (6 steps judged by two or more annotators)`);
    expect(run.out).toContain('step 1: undefined — not enough data: every judgment is the same');
    expect(run.out).toContain('step 2: 0.444  (3 steps judged by two or more annotators)');
    expect(run.out).toContain('step 3: undefined — not enough data: only one step is judged by two or more annotators');
    expect(run.out).toContain('step 4: undefined — not enough data: no step is judged by two or more annotators');
    const plain = await cli('agreement', '--project', dir, '--json');
    expect(JSON.parse(plain.out)).not.toHaveProperty('steps');
    expect((await cli('agreement', '--project', dir)).out).not.toContain('step judgments');
  });

  it('refuses --steps with input files, which carry no step judgments (exit 2, one line)', async () => {
    const exported = path.join(path.dirname(dir), 'all.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', exported)).code).toBe(0);
    const run = await cli('agreement', '--export', exported, '--project', dir, '--steps');
    expect(run.code).toBe(2);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(/--steps reads the step judgments of the project's sessions/);
  });
});
