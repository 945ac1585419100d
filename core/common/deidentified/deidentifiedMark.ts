import { DEIDENTIFY_METHOD } from './deidentifyReceipt';

/**
 * What a de-identified file says about itself, inside it, so `aloud validate FILE --project DIR` checks any copy with
 * or without its receipt: an EAF HEADER PROPERTY of this name, a comment line in a TextGrid, a first line of a
 * MAXQDA transcript, the WebVTT header's text, a paragraph of the Hugging Face dataset card.
 */
export const DEIDENTIFIED_PROPERTY = 'aloud:deidentified';

/** The sentence every marker holds (no quotes, nothing a reader of the format would take for data). */
export const DEIDENTIFIED_SENTENCE = `de-identified by Aloud (${DEIDENTIFY_METHOD}): placeholders stand for what the project's list and patterns hide`;

/** Whether a file's text carries the marker of a de-identified export. */
export function saysDeidentified(text: string): boolean {
  return text.includes(DEIDENTIFIED_SENTENCE) || text.includes(`"${DEIDENTIFIED_PROPERTY}"`);
}
