import type { AreaCatalogs } from './messageCatalog';
import de from './messages/de.json';
import en from './messages/en.json';

/** Words every surface shares (buttons, language names). */
export const commonCatalogs: AreaCatalogs = { en, de };
