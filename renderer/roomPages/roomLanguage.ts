import type { InterfaceLocale } from '../../core/common/i18n/interfaceLocale';
import { roomWords, type RoomMessageId, type RoomWords } from '../../core/common/rooms/roomWords';

/** The page's words: English until the page says which language it was served in (`<html lang>`, see speakPageLanguage). */
let words: RoomWords = roomWords('en');

export function setRoomLanguage(locale: InterfaceLocale): void {
  words = roomWords(locale);
}

/** A catalog message of the room pages, in the page's language. */
export function t(id: RoomMessageId, values?: Readonly<Record<string, string | number>>): string {
  return words(id, values);
}

/** A number with `digits` decimals, the page language's way. */
export function fixed(x: number, digits: number): string {
  return words.fixed(x, digits);
}

export function pageLocale(): InterfaceLocale {
  return words.locale;
}
