/** The language guidelines are shown in: the interface's (two or three letters, e.g. "de"), read from the document or the browser. */
export function guidelineLanguage(): string {
  const tag =
    (typeof document !== 'undefined' && document.documentElement.lang) ||
    (typeof navigator !== 'undefined' ? navigator.language : '') ||
    'en';
  return tag.toLowerCase().split('-')[0] || 'en';
}
