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

/**
 * The languages an HTTP Accept-Language header asks for, most wanted first (RFC 9110 §12.5.4: q weights, ties
 * in the header's order; q=0 means "not this"; "*" says nothing we can use).
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const ranges: Array<{ tag: string; q: number; at: number }> = [];
  header.split(',').forEach((part, at) => {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => /^q=/i.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (tag && tag !== '*' && Number.isFinite(q) && q > 0) ranges.push({ tag: tag.trim(), q, at });
  });
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map((r) => r.tag);
}
