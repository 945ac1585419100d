import type { ReasoningSplit } from './reasoningSteps';

/** When the Label screen shows a model's reasoning: after the annotator's own (blind) label, always, or never. */
export type ReasoningReveal = 'after_blind' | 'always' | 'never';
export const REASONING_REVEALS: readonly ReasoningReveal[] = ['after_blind', 'always', 'never'];

/** aloud.yaml `reasoning`: how a model's reasoning text becomes steps, and when the annotator sees it. */
export interface ReasoningConfig {
  split: ReasoningSplit;
  reveal: ReasoningReveal;
}

export function defaultReasoning(): ReasoningConfig {
  return { split: 'auto', reveal: 'after_blind' };
}
