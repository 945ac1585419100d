import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from '../../../../core/common/agreement/krippendorff';
import {
  buildProcessRewardRecord,
  isProcessRewardText,
  serializeProcessReward,
  validateProcessRewardText,
  type ProcessRewardRecord,
} from '../../../../core/common/reasoning/processReward';
import { stepJudgmentAgreement } from '../../../../core/common/reasoning/stepAgreement';
import type { StepJudgmentRecord } from '../../../../core/common/reasoning/stepJudgments';

const j = (index: number, reward: StepJudgmentRecord['reward'], kind: StepJudgmentRecord['kind'] = 'step'): StepJudgmentRecord => ({
  index,
  reward,
  kind,
  source: 'voice',
  at: '2026-12-01T10:00:00.000Z',
  audio_ms: 1200,
  quote: 'step one is wrong',
});

describe('process-reward records', () => {
  it('builds the common step-reward shape and writes one JSON line each, which validates', () => {
    const records = [
      buildProcessRewardRecord({ instanceId: 'demo-21', annotator: 'ana', stepCount: 3, judgments: [j(2, -1, 'first_error')] }),
      buildProcessRewardRecord({ instanceId: 'demo-22', annotator: 'ana', stepCount: 2, judgments: [j(1, 1), j(2, 0)] }),
    ];
    const text = serializeProcessReward(records);
    expect(text.split('\n')[0]).toBe(
      '{"instance_id":"demo-21","annotator":"ana","mode":"first_error","steps":[{"index":1,"reward":1},{"index":2,"reward":-1},{"index":3,"reward":null}]}',
    );
    expect(validateProcessRewardText(text, 'pr.jsonl')).toEqual({ records, problems: [] });
  });

  it.each([
    [
      'an unknown field',
      '{"instance_id":"a","annotator":"x","mode":"per_step","steps":[{"index":1,"reward":1}],"score":3}',
      'score',
      'schema',
    ],
    [
      'a reward off the scale',
      '{"instance_id":"a","annotator":"x","mode":"per_step","steps":[{"index":1,"reward":2}]}',
      'steps[0].reward',
      'schema',
    ],
    ['an unknown mode', '{"instance_id":"a","annotator":"x","mode":"best_of","steps":[{"index":1,"reward":1}]}', 'mode', 'schema'],
    ['no steps', '{"instance_id":"a","annotator":"x","mode":"per_step","steps":[]}', 'steps', 'schema'],
    [
      'steps out of order',
      '{"instance_id":"a","annotator":"x","mode":"per_step","steps":[{"index":2,"reward":1},{"index":1,"reward":1}]}',
      'steps[0].index',
      'rule',
    ],
    [
      'a first_error record without an error',
      '{"instance_id":"a","annotator":"x","mode":"first_error","steps":[{"index":1,"reward":1}]}',
      'mode',
      'rule',
    ],
    [
      'an unjudged step before the first error',
      '{"instance_id":"a","annotator":"x","mode":"first_error","steps":[{"index":1,"reward":null},{"index":2,"reward":-1}]}',
      'steps',
      'rule',
    ],
  ])('rejects %s, located', (_what, line, field, stage) => {
    const { problems } = validateProcessRewardText(
      `{"instance_id":"ok","annotator":"x","mode":"per_step","steps":[{"index":1,"reward":null}]}\n${line}\n`,
      'pr.jsonl',
    );
    expect(problems[0]).toMatchObject({ file: 'pr.jsonl', line: 2, field, stage });
  });

  it('rejects a second record for the same annotator and instance, and an empty export', () => {
    const line = '{"instance_id":"a","annotator":"x","mode":"per_step","steps":[{"index":1,"reward":1}]}';
    expect(validateProcessRewardText(`${line}\n${line}\n`, 'pr.jsonl').problems[0]).toMatchObject({
      line: 2,
      field: 'instance_id',
      message: expect.stringContaining('first on line 1'),
    });
    expect(validateProcessRewardText('', 'pr.jsonl').problems[0]!.message).toBe('the export has no records');
  });
});

describe('agreement on step judgments', () => {
  const record = (instance: string, annotator: string, rewards: Array<1 | 0 | -1 | null>): ProcessRewardRecord => ({
    instance_id: instance,
    annotator,
    mode: 'per_step',
    steps: rewards.map((reward, i) => ({ index: i + 1, reward })),
  });

  it('computes ordinal alpha over all judged steps and per position, unjudged steps missing', () => {
    const records = [
      record('a', 'ana', [1, -1, 1]),
      record('a', 'ben', [1, -1, 0]),
      record('b', 'ana', [1, 1, null]),
      record('b', 'ben', [-1, 1, null]),
      record('c', 'ana', [0, -1, -1]),
      record('c', 'ben', [0, 0, -1]),
    ];
    const result = stepJudgmentAgreement(records);
    expect(result.annotators).toEqual(['ana', 'ben']);
    const units = [
      ['1', '1'],
      ['-1', '-1'],
      ['1', '0'],
      ['1', '-1'],
      ['1', '1'],
      ['0', '0'],
      ['-1', '0'],
      ['-1', '-1'],
    ];
    expect(result.all_steps).toEqual(krippendorffAlpha(units, ['-1', '0', '1'], 'ordinal'));
    expect(result.all_steps.pairable_units).toBe(8);
    expect(result.by_position.map((p) => [p.index, p.pairable_units])).toEqual([
      [1, 3],
      [2, 3],
      [3, 2],
    ]);
    expect(result.by_position[0]).toMatchObject(
      krippendorffAlpha(
        [
          ['1', '1'],
          ['1', '-1'],
          ['0', '0'],
        ],
        ['-1', '0', '1'],
        'ordinal',
      ),
    );
  });

  it('perfect agreement with variation is alpha 1; a step judged by one annotator is not pairable', () => {
    const result = stepJudgmentAgreement([
      record('a', 'ana', [1, -1]),
      record('a', 'ben', [1, -1]),
      record('b', 'ana', [0, null]),
      record('b', 'ben', [0, 1]),
    ]);
    expect(result.all_steps.alpha).toBe(1);
    expect(result.all_steps.pairable_units).toBe(3);
  });
});

describe('isProcessRewardText', () => {
  it('tells a process-reward export from records by its content, even with a broken or edited line', () => {
    const prm = serializeProcessReward([
      buildProcessRewardRecord({ instanceId: 'i1', annotator: 'ana', stepCount: 2, judgments: [j(1, 1)] }),
      buildProcessRewardRecord({ instanceId: 'i2', annotator: 'ana', stepCount: 1, judgments: [] }),
    ]);
    expect(isProcessRewardText(prm)).toBe(true);
    expect(isProcessRewardText(`{"instance_id": "i1", "mode": "per_step"\n${prm}`)).toBe(true);
    expect(isProcessRewardText(prm.replace('"instance_id":"i1"', '"id":"i1"'))).toBe(true);
    expect(isProcessRewardText('{"schema_version": 2, "item_id": "i1", "annotator": "ana"}\n')).toBe(false);
    // a records file with one stray instance_id stays a records file
    expect(isProcessRewardText('{"item_id": "i1"}\n{"instance_id": "i1"}\n')).toBe(false);
    expect(isProcessRewardText('')).toBe(false);
  });
});
