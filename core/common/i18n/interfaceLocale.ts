/** The languages the interface speaks. The CLI's output and --json stay English whatever a person chose. */
export const INTERFACE_LOCALES = ['en', 'de'] as const;
export type InterfaceLocale = (typeof INTERFACE_LOCALES)[number];

/** The language a person asked for: one of ours, or the system's (navigator.languages, Electron's app locale). */
export type InterfaceLanguageChoice = InterfaceLocale | 'system';

export function isInterfaceLocale(value: unknown): value is InterfaceLocale {
  return typeof value === 'string' && (INTERFACE_LOCALES as readonly string[]).includes(value);
}

/**
 * The interface language for a choice and the system's preferred tags (BCP 47, most wanted first): the choice if it
 * is one of ours, else the first preferred tag whose language we speak ("de-AT" → de), else English.
 */
export function pickInterfaceLocale(choice: string | null | undefined, preferred: readonly string[]): InterfaceLocale {
  if (isInterfaceLocale(choice)) return choice;
  for (const tag of preferred) {
    let language: string;
    try {
      language = new Intl.Locale(tag).language;
    } catch {
      continue; // a malformed tag from the system says nothing
    }
    if (isInterfaceLocale(language)) return language;
  }
  return 'en';
}
