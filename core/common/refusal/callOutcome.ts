import { Refusal, type RefusalCode } from './refusal';
import type { RefusalMessage, SaidMessage } from './refusalMessage';

/**
 * A refusal crossing a transport as data (CallOutcome): a code the UI can act on, the English message (logs, the CLI,
 * older clients) and, when the refusal has one, the catalog message the app shows in the person's language.
 */
export interface RefusalBody {
  code: RefusalCode;
  message: string;
  say?: SaidMessage;
}

/**
 * What a transport carries back for one call. Errors travel as data (code + message) because neither
 * Electron IPC nor HTTP preserves an Error's class or fields.
 */
export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: RefusalBody };

export function errorOutcome(e: Refusal): CallOutcome {
  const error: RefusalBody = { code: e.code, message: e.message };
  if (e.say) error.say = plainMessage(e.say);
  return { ok: false, error };
}

/** A catalog message as plain data (its nested messages too): what JSON and structured clone carry unchanged. */
function plainMessage(m: SaidMessage): SaidMessage {
  if (m.values === undefined) return { id: m.id };
  return {
    id: m.id,
    values: Object.fromEntries(Object.entries(m.values).map(([k, v]) => [k, typeof v === 'object' ? plainMessage(v) : v])),
  };
}

export function unwrapOutcome(outcome: CallOutcome): unknown {
  if (outcome.ok) return outcome.result;
  const { code, message, say } = outcome.error;
  // the id is the host's: the renderer checks it against its catalogs before showing it (refusalText)
  throw new Refusal(code, message, say as RefusalMessage | undefined);
}
