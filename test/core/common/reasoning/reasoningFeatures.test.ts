import { describe, expect, it } from 'vitest';
import { createMentionFinder, labelsInOrder } from '../../../../core/common/reasoning/labelMentions';
import type { LabelSchemaContext } from '../../../../core/common/reasoning/modelLabel';
import { reasoningFeatures } from '../../../../core/common/reasoning/reasoningFeatures';
import {
  firstErrorClaim,
  lastJudgmentPerStep,
  stepRewards,
  type StepJudgmentRecord,
} from '../../../../core/common/reasoning/stepJudgments';

const schema: LabelSchemaContext = {
  labels: [
    { name: 'Polite', synonyms: { en: ['courteous'], de: ['höflich'] } },
    { name: 'Impolite', synonyms: { en: ['rude'], de: ['unhöflich'] } },
    { name: 'Neutral', synonyms: {} },
    { name: 'Not toxic', synonyms: {} },
  ],
  languages: ['en'],
};
const mentions = createMentionFinder(schema);

const judgment = (index: number, reward: StepJudgmentRecord['reward'], extra: Partial<StepJudgmentRecord> = {}): StepJudgmentRecord => ({
  index,
  reward,
  source: 'key',
  kind: 'step',
  at: '2026-12-01T10:00:00.000Z',
  audio_ms: null,
  quote: null,
  ...extra,
});

describe('label mentions', () => {
  it('finds names and synonyms in order with exact quotes, negation-aware within the clause', () => {
    const text = 'It is courteous, not rude. Rude? Not really, the tone is quite neutral, not toxic at all.';
    const found = mentions(text);
    expect(found.map((m) => [m.label, m.negated, m.quote])).toEqual([
      ['Polite', false, 'courteous'],
      ['Impolite', true, 'rude'],
      ['Impolite', false, 'Rude'],
      ['Neutral', false, 'neutral'],
      ['Not toxic', false, 'not toxic'],
    ]);
    for (const m of found) expect(text.slice(m.start, m.end)).toBe(m.quote);
    expect(labelsInOrder(found)).toEqual(['Polite', 'Impolite', 'Neutral', 'Not toxic']);
  });

  it('does not fuzzily guess labels in free text, and a cue more than three words back does not negate', () => {
    expect(mentions('polit and impolit words')).toEqual([]);
    expect(mentions('not that it matters much, polite').map((m) => m.negated)).toEqual([false]);
    expect(labelsInOrder(mentions('polite polite rude polite'))).toEqual(['Polite', 'Impolite', 'Polite']);
  });
});

describe('step judgments: last per step wins', () => {
  it('keeps the last judgment of each step; a null reward withdraws it', () => {
    const judgments = [judgment(3, -1), judgment(1, 1), judgment(3, 1, { source: 'voice' }), judgment(2, 0), judgment(2, null)];
    expect([...lastJudgmentPerStep(judgments).entries()].map(([i, j]) => [i, j.reward, j.source])).toEqual([
      [1, 1, 'key'],
      [3, 1, 'voice'],
    ]);
  });

  it('reads per-step rewards, null where unjudged', () => {
    expect(stepRewards([judgment(2, -1), judgment(4, 0)], 4)).toEqual({
      mode: 'per_step',
      steps: [
        { index: 1, reward: null },
        { index: 2, reward: -1 },
        { index: 3, reward: null },
        { index: 4, reward: 0 },
      ],
    });
  });

  it('a first-error judgment makes the steps before it +1 unless judged, and the steps after it unjudged', () => {
    const judgments = [judgment(1, 0), judgment(3, -1, { kind: 'first_error', source: 'voice' })];
    expect(firstErrorClaim(judgments)).toBe(3);
    expect(stepRewards(judgments, 4)).toEqual({
      mode: 'first_error',
      steps: [
        { index: 1, reward: 0 },
        { index: 2, reward: 1 },
        { index: 3, reward: -1 },
        { index: 4, reward: null },
      ],
    });
    // re-judging the named step withdraws the first-error claim
    expect(stepRewards([...judgments, judgment(3, 1)], 4).mode).toBe('per_step');
  });
});

describe('reasoning features on hand-made cases', () => {
  const steps = (...texts: string[]) => texts.map((t, i) => ({ step: i + 1, mentions: mentions(t) }));

  it('right for a wrong reason: same final label, and a step the annotator judged wrong', () => {
    const features = reasoningFeatures({
      human_mentions: mentions('Hmm, rude? No. It thanks them, so polite. I label this polite.'),
      model_mentions: steps('The reply refuses the refund, which is rude.', 'But it says thank you.', 'So overall it is polite.'),
      human_final: 'Polite',
      model_final: 'Polite',
      step_judgments: [judgment(1, -1, { source: 'voice', quote: 'step one is wrong' }), judgment(2, 1), judgment(3, 1)],
    });
    expect(features).toEqual({
      human_labels_mentioned: ['Impolite', 'Polite'],
      model_labels_mentioned: ['Impolite', 'Polite'],
      human_final: 'Polite',
      model_final: 'Polite',
      finals_agree: true,
      first_contradicting_step: 1,
      first_wrong_step: 1,
      right_for_wrong_reason: true,
    });
  });

  it('right for a sound reason: finals agree and no step is judged wrong', () => {
    const features = reasoningFeatures({
      human_mentions: mentions('polite'),
      model_mentions: steps('It thanks the user.', 'It is not rude.', 'Polite.'),
      human_final: 'Polite',
      model_final: 'Polite',
      step_judgments: [judgment(1, 1), judgment(2, 1), judgment(3, 0)],
    });
    // "not rude" is a negated mention of another label: no contradiction
    expect(features).toMatchObject({
      first_contradicting_step: null,
      first_wrong_step: null,
      right_for_wrong_reason: false,
      finals_agree: true,
    });
  });

  it('a negated mention of the human final contradicts it; differing finals decide nothing about reasons', () => {
    const features = reasoningFeatures({
      human_mentions: [],
      model_mentions: steps('It greets.', 'This is not polite.', 'Rude.'),
      human_final: 'Polite',
      model_final: 'Impolite',
      step_judgments: [judgment(2, -1)],
    });
    expect(features).toMatchObject({ finals_agree: false, first_contradicting_step: 2, first_wrong_step: 2, right_for_wrong_reason: null });
  });

  it('without a human final, or without any judged step, the dependent features are null', () => {
    const noHuman = reasoningFeatures({
      human_mentions: [],
      model_mentions: steps('Rude.'),
      human_final: null,
      model_final: 'Impolite',
      step_judgments: [judgment(1, -1)],
    });
    expect(noHuman).toMatchObject({
      finals_agree: null,
      first_contradicting_step: null,
      first_wrong_step: 1,
      right_for_wrong_reason: null,
    });
    const unjudged = reasoningFeatures({
      human_mentions: [],
      model_mentions: steps('Polite.'),
      human_final: 'Polite',
      model_final: 'Polite',
      step_judgments: [judgment(1, -1), judgment(1, null)],
    });
    expect(unjudged).toMatchObject({ finals_agree: true, first_wrong_step: null, right_for_wrong_reason: null });
  });
});
