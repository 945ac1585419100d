/** The interface language outside a hook: `<html lang>`, which InterfaceLanguageProvider sets (English before it has). */
export function guidelineLanguage(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang.split('-')[0]) || 'en';
}
