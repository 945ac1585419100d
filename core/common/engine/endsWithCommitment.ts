import { createCommitParser } from '../parser/commitPhrase';
import type { ParseOptions } from '../parser/parseTypes';

/** Nothing but a sentence's end after the label: a full stop, question or exclamation mark, closing quotes or brackets. */
const SENTENCE_END_ONLY = /^["'”’)\]]*[.?!]["'”’)\]]*\s*$/u;

/**
 * Whether a text ends with a commit phrase and then a sentence end ("… I label this polite."): the cut that listens
 * reads it from the speculative final, for its timing only. The commitments found are not returned: a label is
 * committed from the final text at the cut, never from this.
 */
export function createEndsWithCommitment(options: ParseOptions): (text: string) => boolean {
  const parse = createCommitParser(options);
  return (text) => {
    const last = parse(text).commitments.at(-1);
    return last !== undefined && SENTENCE_END_ONLY.test(text.slice(last.end));
  };
}
