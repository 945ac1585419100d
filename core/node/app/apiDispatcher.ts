import type { AloudApi, AloudMethod } from '../../common/contract/aloudApi';
import { checkApiCall } from '../../common/contract/apiMethods';
import { errorOutcome, type CallOutcome } from '../../common/refusal/callOutcome';
import { asRefusal, Refusal } from '../../common/refusal/refusal';

export interface DispatchHooks {
  /** runs after the call was checked and before the handler, e.g. a host's own refusal for this method */
  beforeCall?(method: AloudMethod): void;
  /** runs after a handler succeeded */
  afterCall?(method: AloudMethod, result: unknown): void;
}

/**
 * THE dispatcher of the app API, for every host (Electron IPC, browser-mode HTTP): checks the method and its
 * arguments against the contract's table, calls the handler, and answers with a CallOutcome whose error carries
 * the contract's code. Never throws, because an Error thrown across a transport loses its code.
 */
export async function dispatchApiCall(
  api: AloudApi | null,
  method: unknown,
  args: unknown,
  hooks: DispatchHooks = {},
): Promise<CallOutcome> {
  try {
    const call = checkApiCall(method, args);
    if (!api) throw new Refusal('conflict', 'no project is open yet: choose one with File > Open Project…');
    hooks.beforeCall?.(call.method);
    const handler = api[call.method] as (...callArgs: unknown[]) => Promise<unknown>;
    const result = (await handler.apply(api, call.args)) ?? null;
    hooks.afterCall?.(call.method, result);
    return { ok: true, result };
  } catch (e) {
    return errorOutcome(asRefusal(e));
  }
}
