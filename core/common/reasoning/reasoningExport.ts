/**
 * The reasoning fields of one export record: the model's side as the annotator saw it, their step judgments,
 * when the reasoning was shown, and the deterministic features. Pure: the record mapping adds these fields.
 */
import type { Item } from '../items/item';
import type { ReasoningConfig } from '../project/projectConfig';
import type { ItemSessionState } from '../session/itemState';
import { createMentionFinder, type LabelMention } from './labelMentions';
import type { LabelSchemaContext } from './modelLabel';
import { reasoningFeatures, type ReasoningFeatures } from './reasoningFeatures';
import { itemModelReasoning } from './reasoningSteps';
import type { StepJudgmentRecord } from './stepJudgments';

export interface ExportModelSide {
  label: string | null;
  steps: string[];
  /** labels each step names (negation-aware), for marking them beside the human transcript */
  mentions: Array<{ step: number; mentions: LabelMention[] }>;
}

export interface ReasoningExportFields {
  /** the model's answer and steps as shown (else as the item holds them); null when the item has no reasoning */
  model: ExportModelSide | null;
  step_judgments: StepJudgmentRecord[];
  /** ISO 8601; null when the annotator never saw the model's reasoning */
  reasoning_shown_at: string | null;
  /** labels the annotator named in the transcript, negation-aware, with offsets into it */
  human_mentions: LabelMention[];
  /** null when the item has no reasoning */
  reasoning_features: ReasoningFeatures | null;
}

/** Compile once per export (the label matcher), then map each record's item and state. */
export function createReasoningExport(schema: LabelSchemaContext, reasoning: ReasoningConfig): (item: Item, state: ItemSessionState | null) => ReasoningExportFields {
  const mentionsIn = createMentionFinder(schema);
  return (item, state) => {
    const shown = state?.reasoning ?? null;
    const fromItem = itemModelReasoning(item, reasoning.split);
    const side = shown ? { label: shown.model_label, steps: shown.steps } : fromItem ? { label: fromItem.label, steps: fromItem.steps } : null;
    const human = state && state.transcript !== '' ? mentionsIn(state.transcript) : [];
    const judgments = state?.step_judgments ?? [];
    if (!side) return { model: null, step_judgments: judgments, reasoning_shown_at: null, human_mentions: human, reasoning_features: null };
    const mentions = side.steps.map((text, i) => ({ step: i + 1, mentions: mentionsIn(text) }));
    return {
      model: { label: side.label, steps: side.steps, mentions },
      step_judgments: judgments,
      reasoning_shown_at: shown?.shown_at ?? null,
      human_mentions: human,
      reasoning_features: reasoningFeatures({
        human_mentions: human,
        model_mentions: mentions,
        human_final: state?.final_label ?? null,
        model_final: side.label,
        step_judgments: judgments,
      }),
    };
  };
}
