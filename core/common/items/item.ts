/** One thing to label: a chatbot reply, with its user context when it came from a conversation. */
export interface Item {
  id: string;
  text: string;
  /** the user message this reply answers, when the item came from a conversation export */
  context?: string;
  /** any further fields from the source file, kept as given */
  meta?: Record<string, unknown>;
}
