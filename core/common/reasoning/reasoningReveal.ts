import type { ReasoningReveal } from './reasoningConfig';

/** Why the model's reasoning is not shown: the item has none, the project never shows it, or the blind label comes first. */
export type ReasoningWithheld = 'no_reasoning' | 'never' | 'blind_label_first';

/** What the Label screen may show of an item's model reasoning, and whether it has been shown. */
export interface ReasoningView {
  item_id: string;
  reveal: ReasoningReveal;
  /** the reasoning as shown (the first showing is logged and stays what the annotator saw); null while withheld */
  shown: { shown_at: string; model_label: string | null; steps: string[] } | null;
  withheld: ReasoningWithheld | null;
}

/**
 * No anchoring: under `after_blind` the reasoning stays hidden until the annotator's own first label exists (by
 * voice, key or click); `always` shows it at once, `never` not at all. Once shown it stays shown.
 */
export function reasoningWithheld(
  reveal: ReasoningReveal,
  hasReasoning: boolean,
  blindLabel: string | null,
  alreadyShown: boolean,
): ReasoningWithheld | null {
  if (alreadyShown) return null;
  if (!hasReasoning) return 'no_reasoning';
  if (reveal === 'never') return 'never';
  if (reveal === 'after_blind' && blindLabel === null) return 'blind_label_first';
  return null;
}
