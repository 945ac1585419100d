import { krippendorffAlpha, type AlphaResult } from '../agreement/krippendorff';
import type { ProcessRewardRecord } from './processReward';

/** The reward scale in order, for the ordinal metric: wrong < neutral < correct. */
const REWARD_CATEGORIES = ['-1', '0', '1'];

export interface StepAgreement {
  /** every (item, step) judged by at least two annotators is one unit */
  all_steps: AlphaResult;
  /** the units at each step position (step 1 of every item, step 2, …) */
  by_position: Array<{ index: number } & AlphaResult>;
  annotators: string[];
}

/**
 * Krippendorff's alpha (ordinal, over −1 < 0 < +1) on step judgments: units are (item, step index), coders are
 * annotators, an unjudged step is a missing value. The rewards are the ones exported (first-error records with
 * their implied +1 steps), so the figure describes the same data a process-reward model would be trained on.
 */
export function stepJudgmentAgreement(records: readonly ProcessRewardRecord[]): StepAgreement {
  const annotators = [...new Set(records.map((r) => r.annotator))].sort();
  const column = new Map(annotators.map((a, i) => [a, i]));
  const units = new Map<string, { index: number; values: Array<string | null> }>();
  for (const record of records) {
    for (const step of record.steps) {
      if (step.reward === null) continue;
      const key = JSON.stringify([record.instance_id, step.index]);
      let unit = units.get(key);
      if (!unit) {
        unit = { index: step.index, values: annotators.map(() => null) };
        units.set(key, unit);
      }
      unit.values[column.get(record.annotator)!] = String(step.reward);
    }
  }
  const all = [...units.values()];
  const positions = [...new Set(all.map((u) => u.index))].sort((a, b) => a - b);
  return {
    all_steps: krippendorffAlpha(
      all.map((u) => u.values),
      REWARD_CATEGORIES,
      'ordinal',
    ),
    by_position: positions.map((index) => ({
      index,
      ...krippendorffAlpha(
        all.filter((u) => u.index === index).map((u) => u.values),
        REWARD_CATEGORIES,
        'ordinal',
      ),
    })),
    annotators,
  };
}
