/**
 * One annotator, one spelling: names that differ only by letter case or spacing ("Ana", "ana", " ana ") are the same
 * person, so the app continues the existing session instead of starting a second, silent folder.
 */
export function annotatorKey(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLocaleLowerCase('und');
}

/** The existing annotator a typed name stands for, or null when it is a new one. */
export function existingAnnotator(typed: string, existing: readonly string[]): string | null {
  const key = annotatorKey(typed);
  return existing.find((name) => annotatorKey(name) === key) ?? null;
}
