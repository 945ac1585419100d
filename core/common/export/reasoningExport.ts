/**
 * The reasoning fields of one export record: the model's side as the annotator saw it, their step judgments,
 * when the reasoning was shown, and the deterministic features. Pure: the record mapping adds these fields.
 * (`model` was taken since schema v1 by the whisper model, so the model's side is `model_reasoning`.)
 */
import type { Item } from '../items/item';
import type { ReasoningConfig } from '../reasoning/reasoningConfig';
import type { ItemSessionState } from '../session/itemState';
import { createMentionFinder } from '../reasoning/labelMentions';
import type { LabelSchemaContext } from '../reasoning/modelLabel';
import { reasoningFeatures, type ReasoningFeatures } from '../reasoning/reasoningFeatures';
import { itemModelReasoning } from '../reasoning/reasoningSteps';
import type { StepJudgmentRecord } from '../reasoning/stepJudgments';

/** The model's side of an item as exported: its answer and its steps. */
export interface ExportModelReasoning {
  label: string | null;
  steps: string[];
}

export interface ReasoningExportFields {
  /** the model's answer and steps as shown (else as the item holds them); null when the item has no reasoning */
  model_reasoning: ExportModelReasoning | null;
  step_judgments: StepJudgmentRecord[];
  /** ISO 8601; null when the annotator never saw the model's reasoning */
  reasoning_shown_at: string | null;
  /** null when the item has no reasoning */
  reasoning_features: ReasoningFeatures | null;
}

/** The fields of a record without model reasoning (and of a record built without a label schema). */
export const NO_REASONING: ReasoningExportFields = {
  model_reasoning: null,
  step_judgments: [],
  reasoning_shown_at: null,
  reasoning_features: null,
};

/** Compile once per export (the label matcher), then map each record's item and state. */
export function createReasoningExport(
  schema: LabelSchemaContext,
  reasoning: ReasoningConfig,
): (item: Item, state: ItemSessionState | null) => ReasoningExportFields {
  const mentionsIn = createMentionFinder(schema);
  return (item, state) => {
    const shown = state?.reasoning ?? null;
    const fromItem = itemModelReasoning(item, reasoning.split);
    const side = shown
      ? { label: shown.model_label, steps: shown.steps }
      : fromItem
        ? { label: fromItem.label, steps: fromItem.steps }
        : null;
    const judgments = (state?.step_judgments ?? []).map((j) => ({ ...j }));
    if (!side) return { ...NO_REASONING, step_judgments: judgments };
    const human = state && state.transcript !== '' ? mentionsIn(state.transcript) : [];
    return {
      model_reasoning: { label: side.label, steps: [...side.steps] },
      step_judgments: judgments,
      reasoning_shown_at: shown?.shown_at ?? null,
      reasoning_features: reasoningFeatures({
        human_mentions: human,
        model_mentions: side.steps.map((text, i) => ({ step: i + 1, mentions: mentionsIn(text) })),
        human_final: state?.final_label ?? null,
        model_final: side.label,
        step_judgments: judgments,
      }),
    };
  };
}

const nullableString = { type: ['string', 'null'] } as const;
const nullableStep = { type: ['integer', 'null'], minimum: 1 } as const;
const nullableBoolean = { type: ['boolean', 'null'] } as const;

/** JSON Schema (Draft 2020-12) of each reasoning field of an export record, for the record schema to include. */
export const reasoningExportFieldSchemas = {
  model_reasoning: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['label', 'steps'],
    properties: { label: nullableString, steps: { type: 'array', items: { type: 'string' } } },
  },
  step_judgments: {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['index', 'reward', 'source', 'kind', 'at', 'audio_ms', 'quote'],
      properties: {
        index: { type: 'integer', minimum: 1 },
        reward: { enum: [1, 0, -1, null] },
        source: { enum: ['voice', 'click', 'key'] },
        kind: { enum: ['step', 'first_error'] },
        at: { type: 'string', minLength: 1 },
        audio_ms: { type: ['number', 'null'], minimum: 0 },
        quote: nullableString,
      },
    },
  },
  reasoning_shown_at: nullableString,
  reasoning_features: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: [
      'human_labels_mentioned',
      'model_labels_mentioned',
      'human_final',
      'model_final',
      'finals_agree',
      'first_contradicting_step',
      'first_wrong_step',
      'right_for_wrong_reason',
    ],
    properties: {
      human_labels_mentioned: { type: 'array', items: { type: 'string' } },
      model_labels_mentioned: { type: 'array', items: { type: 'string' } },
      human_final: nullableString,
      model_final: nullableString,
      finals_agree: nullableBoolean,
      first_contradicting_step: nullableStep,
      first_wrong_step: nullableStep,
      right_for_wrong_reason: nullableBoolean,
    },
  },
} as const;

/** The reasoning fields in the order an export record writes them (CSV columns hold them as JSON text, except the time). */
export const REASONING_EXPORT_FIELDS = Object.keys(reasoningExportFieldSchemas) as Array<keyof ReasoningExportFields>;
