/**
 * What a refusal says, as a catalog message (area `refusal`, core/common/refusal/messages): the app shows it in the
 * person's language; the CLI, logs and --json keep the English text formatted from the same catalog.
 */
import { createTranslator, type Translator } from '../i18n/translator';
import refusalEn from './messages/en.json';

export type RefusalMessageId = keyof typeof refusalEn;

/** Plain arguments only (a name, a file, a count): a message that needs another message is two messages. */
export type RefusalValues = Readonly<Record<string, string | number>>;

/** A catalog message: its id and its arguments. Crossing a transport the id is a plain string (RefusalBody.say). */
export interface RefusalMessage {
  id: RefusalMessageId;
  values?: RefusalValues;
}

/** The refusal's words as a catalog message (the English text is formatted from it when the refusal is made). */
export function say(id: RefusalMessageId, values?: RefusalValues): RefusalMessage {
  return values === undefined ? { id } : { id, values };
}

let english: Translator | null = null;

/**
 * The English text of a refusal message. Plain arguments are formatted as text (a number as String(n), no digit
 * grouping), so the English stays byte-identical to the messages written before the catalog and the CLI's output does
 * not move; a plural's count stays a number.
 */
export function englishRefusal(message: RefusalMessage): string {
  english ??= createTranslator('en', refusalEn);
  const text = refusalEn[message.id];
  const values = Object.fromEntries(
    Object.entries(message.values ?? {}).map(([k, v]) => [k, typeof v === 'number' && text.includes(`{${k}, plural,`) ? v : String(v)]),
  );
  return english.formatMessage({ id: message.id }, values);
}
