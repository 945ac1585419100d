import type { StepReward } from '../parser/stepJudgment';

/** How a step judgment was given: a spoken phrase, a click on the step, or a keyboard shortcut. */
export type StepJudgmentSource = 'voice' | 'click' | 'key';
export const STEP_JUDGMENT_SOURCES: readonly StepJudgmentSource[] = ['voice', 'click', 'key'];

/** One judgment of one step as the log recorded it; `reward: null` withdraws an earlier judgment of the step. */
export interface StepJudgmentRecord {
  /** 1-based step index */
  index: number;
  reward: StepReward | null;
  source: StepJudgmentSource;
  /** `first_error`: "the first error is step N" — N is wrong and the steps before it are not */
  kind: 'step' | 'first_error';
  /** ISO 8601 time the judgment was logged */
  at: string;
  /** time on the item's audio timeline where the phrase ended (voice only) */
  audio_ms: number | null;
  /** the spoken phrase, verbatim (voice only) */
  quote: string | null;
}

/** Each judged step's last judgment (in log order), by step index; a withdrawn judgment leaves the step unjudged. */
export function lastJudgmentPerStep(judgments: readonly StepJudgmentRecord[]): Map<number, StepJudgmentRecord> {
  const last = new Map<number, StepJudgmentRecord>();
  for (const j of judgments) {
    if (j.reward === null) last.delete(j.index);
    else last.set(j.index, j);
  }
  return new Map([...last.entries()].sort((a, b) => a[0] - b[0]));
}

/** The step the annotator last named as the first error (withdrawn or re-judged since: that claim no longer holds). */
export function firstErrorClaim(judgments: readonly StepJudgmentRecord[]): number | null {
  const last = lastJudgmentPerStep(judgments);
  let claim: number | null = null;
  for (const j of judgments) if (j.kind === 'first_error' && last.get(j.index) === j) claim = j.index;
  return claim;
}

export type ProcessRewardMode = 'per_step' | 'first_error';

/**
 * Reward per step, 1..stepCount, from the annotator's judgments: each step's last judgment; `null` where the
 * step is unjudged. In `first_error` mode (the annotator's standing judgment names a first error at N), steps
 * before N that were not judged explicitly get +1 — "the first error is N" says they are not wrong, which is the
 * convention of first-error process-reward data — and steps after N stay null unless judged.
 */
export function stepRewards(
  judgments: readonly StepJudgmentRecord[],
  stepCount: number,
): { mode: ProcessRewardMode; steps: Array<{ index: number; reward: StepReward | null }> } {
  const last = lastJudgmentPerStep(judgments);
  const firstError = firstErrorClaim(judgments);
  const steps: Array<{ index: number; reward: StepReward | null }> = [];
  for (let index = 1; index <= stepCount; index++) {
    const judged = last.get(index);
    const reward = judged ? judged.reward : firstError !== null && index < firstError ? 1 : null;
    steps.push({ index, reward });
  }
  return { mode: firstError === null ? 'per_step' : 'first_error', steps };
}
