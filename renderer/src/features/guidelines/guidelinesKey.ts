import type { KeyPress } from '../../shared/keyPress';

/** The one key that shows the guidelines on every screen (Label, Review, Coding, Adjudicate). */
export const GUIDELINES_KEY = 'i';

/**
 * Whether a press asks for the guidelines: `i` (or `I`) alone, not typed into a field, not held. A project whose label
 * or code takes `i` (keys are case-sensitive) keeps it: then `I` (Shift+I) shows the guidelines there.
 */
export function isGuidelinesPress(press: KeyPress, takenKeys: readonly string[]): boolean {
  if (press.inField || press.ctrlKey || press.metaKey || press.altKey || press.repeat) return false;
  if (press.key !== GUIDELINES_KEY && press.key !== GUIDELINES_KEY.toUpperCase()) return false;
  return !takenKeys.includes(press.key);
}

/** The key as the shortcut lists show it: `i`, or `Shift+I` where a label or code has taken `i`. */
export function guidelinesKeyShown(takenKeys: readonly string[]): string {
  return takenKeys.includes(GUIDELINES_KEY) ? 'Shift+I' : GUIDELINES_KEY;
}
