/**
 * The words of the hosts' HTTP server's own refusals (a body too large, not JSON, an internal error): a catalog, so a
 * host that answers people (a room listener) says them in the asker's language; programs read the English `message`.
 */
import type { AreaCatalogs } from '../../common/i18n/messageCatalog';
import { createTranslator, type Translator } from '../../common/i18n/translator';
import de from './messages/de.json';
import en from './messages/en.json';

export type HttpMessageId = keyof typeof en;

export const httpCatalogs: AreaCatalogs = { en, de };

let english: Translator | null = null;

/** The English text of a server refusal; numbers as plain digits, so the English stays what programs always read. */
export function englishHttpWords(id: HttpMessageId, values?: Readonly<Record<string, number>>): string {
  english ??= createTranslator('en', en);
  return english.formatMessage({ id }, values && Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])));
}
