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

const nullableString = { type: ['string', 'null'] } as const;
const mention = {
  type: 'object',
  additionalProperties: false,
  required: ['label', 'negated', 'quote', 'start', 'end'],
  properties: { label: { type: 'string' }, negated: { type: 'boolean' }, quote: { type: 'string' }, start: { type: 'integer', minimum: 0 }, end: { type: 'integer', minimum: 0 } },
} as const;
const nullableStep = { type: ['integer', 'null'], minimum: 1 } as const;
const nullableBoolean = { type: ['boolean', 'null'] } as const;

/** JSON Schema (Draft 2020-12) of each reasoning field of an export record, for the record schema to include. */
export const reasoningExportFieldSchemas = {
  model: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['label', 'steps', 'mentions'],
    properties: {
      label: nullableString,
      steps: { type: 'array', items: { type: 'string' } },
      mentions: {
        type: 'array',
        items: { type: 'object', additionalProperties: false, required: ['step', 'mentions'], properties: { step: { type: 'integer', minimum: 1 }, mentions: { type: 'array', items: mention } } },
      },
    },
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
  human_mentions: { type: 'array', items: mention },
  reasoning_features: {
    type: ['object', 'null'],
    additionalProperties: false,
    required: ['human_labels_mentioned', 'model_labels_mentioned', 'human_final', 'model_final', 'finals_agree', 'first_contradicting_step', 'first_wrong_step', 'right_for_wrong_reason'],
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
