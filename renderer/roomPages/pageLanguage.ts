import { pickInterfaceLocale } from '../../core/common/i18n/interfaceLocale';
import { setRoomLanguage } from './roomLanguage';

/** The script speaks the language the host served the page in (`<html lang>`, from the browser's Accept-Language). */
export function speakPageLanguage(): void {
  setRoomLanguage(pickInterfaceLocale(document.documentElement.lang, navigator.languages ?? [navigator.language]));
}
