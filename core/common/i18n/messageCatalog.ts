/**
 * Message catalogs: every string the interface shows a person, by language. A catalog is a flat JSON object of
 * ICU MessageFormat strings (FormatJS), keyed `<area>.<name>`; each area keeps its catalogs beside its code as
 * `messages/en.json` and `messages/de.json` (test/i18n/catalogs.test.ts holds them equal in keys and arguments).
 */
import type { InterfaceLocale } from './interfaceLocale';

export type MessageCatalog = Readonly<Record<string, string>>;

/** One area's catalogs in every interface language. */
export type AreaCatalogs = Readonly<Record<InterfaceLocale, MessageCatalog>>;

/** The areas' catalogs as one per language; a key defined twice is a mistake that would hide a string, so it throws. */
export function mergeCatalogs(areas: readonly AreaCatalogs[]): Record<InterfaceLocale, Record<string, string>> {
  const merged: Record<InterfaceLocale, Record<string, string>> = { en: {}, de: {} };
  for (const area of areas) {
    for (const locale of Object.keys(merged) as InterfaceLocale[]) {
      for (const [key, text] of Object.entries(area[locale])) {
        if (key in merged[locale]) throw new Error(`message key ${key} is defined in two catalogs`);
        merged[locale][key] = text;
      }
    }
  }
  return merged;
}
