import { Refusal, type RefusalCode } from './refusal';

/** A refusal crossing a transport as data (CallOutcome): a code the UI can act on and a message a person can read. */
export interface RefusalBody {
  code: RefusalCode;
  message: string;
}

/**
 * What a transport carries back for one call. Errors travel as data (code + message) because neither
 * Electron IPC nor HTTP preserves an Error's class or fields.
 */
export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: RefusalBody };

export function errorOutcome(e: Refusal): CallOutcome {
  return { ok: false, error: { code: e.code, message: e.message } };
}

export function unwrapOutcome(outcome: CallOutcome): unknown {
  if (outcome.ok) return outcome.result;
  throw new Refusal(outcome.error.code, outcome.error.message);
}
