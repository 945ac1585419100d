/**
 * Words are `\b\w+\b` matches with Unicode word characters (letters, numbers, underscore), the way Python's `re`
 * counts them; JavaScript's ASCII-only `\w` would split "höflich" into two words.
 */
export const WORD_PATTERN = /[\p{L}\p{N}_]+/gu;

export function countWords(text: string): number {
  return text.match(WORD_PATTERN)?.length ?? 0;
}
