/**
 * The agreement report's words (`aloud agreement --html`, with its codes and gold sections), in the report's
 * language (`--lang`); the CLI's own output stays English whatever the report speaks.
 */
import type { InterfaceLocale } from '../i18n/interfaceLocale';
import { createTranslator } from '../i18n/translator';
import de from './messages/de.json';
import en from './messages/en.json';

export type ReportMessageId = keyof typeof en;

const catalogs: Readonly<Record<InterfaceLocale, Readonly<Record<ReportMessageId, string>>>> = { en, de };

export interface ReportWords {
  readonly locale: InterfaceLocale;
  (id: ReportMessageId, values?: Readonly<Record<string, string | number>>): string;
  /** a figure with exactly `digits` decimals, the locale's way ("0.667" / "0,667") */
  n(x: number, digits: number): string;
  /** a share as a percentage with `digits` decimals ("42.5%" / "42,5 %") */
  percent(x: number, digits: number): string;
}

const made = new Map<InterfaceLocale, ReportWords>();

export function reportWords(locale: InterfaceLocale = 'en'): ReportWords {
  const known = made.get(locale);
  if (known) return known;
  const intl = createTranslator(locale, catalogs[locale]);
  const words = ((id: ReportMessageId, values?: Readonly<Record<string, string | number>>) =>
    intl.formatMessage({ id }, values)) as ReportWords;
  Object.assign(words, {
    locale,
    n: (x: number, digits: number) =>
      intl.formatNumber(x, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }),
    percent: (x: number, digits: number) =>
      intl.formatNumber(x, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }),
  });
  made.set(locale, words);
  return words;
}
