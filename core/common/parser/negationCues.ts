/**
 * One-word negation cues (a word ending in "n't" is one too), shared by the commit parser, the step-judgment
 * parser and label mentions. Its own module so the renderer can mark mentions without loading the config schema.
 */
export const SINGLE_WORD_CUES: ReadonlySet<string> = new Set([
  'not',
  'never',
  'cannot',
  'nicht',
  'nie',
  'kein',
  'keine',
  'keinen',
  'keinem',
  'keiner',
  'keines',
]);
