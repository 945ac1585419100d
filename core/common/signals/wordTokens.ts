/**
 * The words the transcript signals count, shared by the legacy filler list (transcriptSignals) and hesitation by
 * category (hesitation): one definition of a word, of what may stand between the words of a term, and of how an
 * offset in a normalised text maps back to the verbatim transcript.
 */

/**
 * A word token: a run of letters, marks, digits and "_" (the Unicode-aware `\b\w+\b`; marks are included so that
 * scripts written with combining vowel signs are not cut into pieces). An apostrophe (' or ’) between two word
 * characters joins them, so "don't" and "I’m" are one word each; a quote not inside a word separates.
 */
export const WORD_PATTERN = /[\p{L}\p{M}\p{N}_]+(?:['\u2019][\p{L}\p{M}\p{N}_]+)*/gu;

/** Between the words of a multi-word term only whitespace or a hyphen may stand ("kind of", "kind-of", not "kind. Of"). */
export const TERM_GAP = /^[\s\-\u2010]+$/u;

/** A character with the marks that follow it (or marks alone at the start): the unit NFKC composes within. */
const WITH_MARKS = /\P{M}\p{M}*|\p{M}+/gsu;

/**
 * Maps an offset in `transformed` (the original normalised by `transform`) back to the original: `transform` is
 * applied to one character with its marks at a time ("A" + U+0308 composes to "Ä", "ﬁ" becomes "fi"), which gives
 * the same text for ordinary input; where it does not, offsets are scaled, never outside the original.
 */
export function offsetsInOriginal(original: string, transformed: string, transform: (text: string) => string): (offset: number) => number {
  const map: number[] = [];
  for (const m of original.matchAll(WITH_MARKS)) {
    const piece = transform(m[0]);
    for (let k = 0; k < piece.length; k++) map.push(m.index);
  }
  map.push(original.length);
  if (map.length === transformed.length + 1) return (offset) => map[offset]!;
  return (offset) => Math.min(original.length, Math.round((offset * original.length) / Math.max(1, transformed.length)));
}
