/**
 * What a refusal says, as a catalog message (area `refusal`, core/common/refusal/messages): the app shows it in the
 * person's language; the CLI, logs and --json keep the English text formatted from the same catalog.
 */
import { createTranslator, type Translator } from '../i18n/translator';
import refusalEn from './messages/en.json';

export type RefusalMessageId = keyof typeof refusalEn;

/**
 * An argument: plain (a name, a file, a count) or another catalog message (a verb, a lock's owner, a file's problem),
 * said in the same language as the message that holds it.
 */
export type RefusalValue = string | number | RefusalMessage;
export type RefusalValues = Readonly<Record<string, RefusalValue>>;

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
    Object.entries(message.values ?? {}).map(([k, v]) => [
      k,
      typeof v === 'object' ? englishRefusal(v) : typeof v === 'number' && text.includes(`{${k}, plural,`) ? v : String(v),
    ]),
  );
  return english.formatMessage({ id: message.id }, values);
}

/** What formats one catalog message in a language: react-intl's IntlShape and the translator both are one. */
export interface MessageFormatter {
  readonly messages: Readonly<Record<string, unknown>>;
  formatMessage(descriptor: { id: string }, values?: Record<string, string | number>): string;
}

/** A message as it arrived from a host: its id is a plain string until a catalog is asked (RefusalBody.say). */
export interface SaidMessage {
  id: string;
  values?: Readonly<Record<string, string | number | SaidMessage>>;
}

/**
 * A refusal message in the formatter's language, its nested messages in the same language; null when the catalog
 * lacks one of its ids (a newer host's message: the caller shows the English text instead).
 */
export function formatRefusal(format: MessageFormatter, message: SaidMessage): string | null {
  if (!Object.hasOwn(format.messages, message.id)) return null;
  const values: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(message.values ?? {})) {
    if (typeof v !== 'object') values[k] = v;
    else {
      const nested = formatRefusal(format, v);
      if (nested === null) return null;
      values[k] = nested;
    }
  }
  return format.formatMessage({ id: message.id }, values);
}
