/**
 * Deterministic features of one item seen twice: the annotator's think-aloud and a model's reasoning. Each is a
 * plain fact about the recorded data (which labels were named, where, which step was judged wrong); none is a
 * score, and none says who is right — the human's final label is a reference only in the names "contradicts"
 * and "right".
 */
import { labelsInOrder, type LabelMention } from './labelMentions';
import { lastJudgmentPerStep, type StepJudgmentRecord } from './stepJudgments';

export interface StepMentions {
  /** 1-based step index */
  step: number;
  mentions: LabelMention[];
}

export interface ReasoningFeatures {
  /** labels the annotator named while thinking aloud, in order (negated mentions left out, repeats at once merged) */
  human_labels_mentioned: string[];
  /** labels the model's steps name, in order, by the same rule */
  model_labels_mentioned: string[];
  human_final: string | null;
  model_final: string | null;
  /** null when either side has no final label */
  finals_agree: boolean | null;
  /**
   * The first step that names a label other than the human's final label, or names the human's final label
   * negated ("this is not polite"); null when no step does or the human has no final label.
   */
  first_contradicting_step: number | null;
  /** the first step whose standing judgment is −1; null when no step is judged wrong */
  first_wrong_step: number | null;
  /**
   * The model's final equals the human's final, and the annotator judged at least one step wrong: right for a
   * reason the annotator judged wrong. false when the finals agree and no step is judged wrong (some judged);
   * null when there is nothing to decide on (no final on either side, the finals differ, or no step judged).
   */
  right_for_wrong_reason: boolean | null;
}

export interface ReasoningFeatureInput {
  /** mentions in the annotator's transcript, in order */
  human_mentions: readonly LabelMention[];
  /** mentions in each model step */
  model_mentions: readonly StepMentions[];
  human_final: string | null;
  model_final: string | null;
  step_judgments: readonly StepJudgmentRecord[];
}

export function reasoningFeatures(input: ReasoningFeatureInput): ReasoningFeatures {
  const { human_final, model_final } = input;
  const finalsAgree = human_final === null || model_final === null ? null : human_final === model_final;
  let firstContradicting: number | null = null;
  if (human_final !== null) {
    for (const { step, mentions } of [...input.model_mentions].sort((a, b) => a.step - b.step)) {
      if (mentions.some((m) => (m.negated ? m.label === human_final : m.label !== human_final))) {
        firstContradicting = step;
        break;
      }
    }
  }
  const standing = [...lastJudgmentPerStep(input.step_judgments).values()];
  const firstWrong = standing.find((j) => j.reward === -1)?.index ?? null;
  const rightForWrongReason = finalsAgree !== true || standing.length === 0 ? null : firstWrong !== null;
  return {
    human_labels_mentioned: labelsInOrder(input.human_mentions),
    model_labels_mentioned: labelsInOrder([...input.model_mentions].sort((a, b) => a.step - b.step).flatMap((s) => s.mentions)),
    human_final,
    model_final,
    finals_agree: finalsAgree,
    first_contradicting_step: firstContradicting,
    first_wrong_step: firstWrong,
    right_for_wrong_reason: rightForWrongReason,
  };
}
