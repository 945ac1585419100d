import type { AloudEvent, RefusalBody } from './aloudApi';
import { Refusal } from './refusal';

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

/**
 * What Electron's preload exposes to the page as `window.aloudBridge` (contextBridge): one call function
 * and one event subscription, never ipcRenderer itself.
 */
export interface AloudBridge {
  call(method: string, args: unknown[]): Promise<CallOutcome>;
  onEvent(listener: (event: AloudEvent) => void): () => void;
}
