/** One thing to label: a chatbot reply, with its user context when it came from a conversation. */
export interface Item {
  id: string;
  text: string;
  /** the user message this reply answers, when the item came from a conversation export */
  context?: string;
  /** a model's reasoning about the item as one text, split into steps by aloud.yaml `reasoning.split` */
  model_reasoning?: string;
  /** a model's reasoning already as steps (never given together with model_reasoning) */
  model_steps?: string[];
  /** the model's final answer: a label name of the schema (resolved when the items were read against it) */
  model_label?: string;
  /** any further fields from the source file, kept as given */
  meta?: Record<string, unknown>;
}

/** The item fields that hold a model's reasoning, in the order the items file writes them. */
export const MODEL_FIELDS = ['model_reasoning', 'model_steps', 'model_label'] as const;
