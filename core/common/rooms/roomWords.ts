/**
 * The room pages' words (norming and shadow rooms, their join form): one catalog for the page the host serves and
 * the script that runs in it, so both speak the member's language.
 */
import { createTranslator } from '../i18n/translator';
import type { InterfaceLocale } from '../i18n/interfaceLocale';
import de from './messages/de.json';
import en from './messages/en.json';

export type RoomMessageId = keyof typeof en;

export const roomCatalogs: Readonly<Record<InterfaceLocale, Readonly<Record<RoomMessageId, string>>>> = { en, de };

export interface RoomWords {
  readonly locale: InterfaceLocale;
  /** a catalog message with its arguments */
  (id: RoomMessageId, values?: Readonly<Record<string, string | number>>): string;
  /** a number with exactly `digits` decimals, the locale's way (0.667 / 0,667) */
  fixed(x: number, digits: number): string;
}

export function roomWords(locale: InterfaceLocale): RoomWords {
  const intl = createTranslator(locale, roomCatalogs[locale]);
  const words = ((id: RoomMessageId, values?: Readonly<Record<string, string | number>>) =>
    intl.formatMessage({ id }, values)) as RoomWords;
  Object.assign(words, {
    locale,
    fixed: (x: number, digits: number) => intl.formatNumber(x, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  });
  return words;
}
