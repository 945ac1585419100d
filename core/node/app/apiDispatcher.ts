import { ChunkFrameError } from '../../common/audio/chunkFrame';
import { ApiError, type AloudApi, type AloudMethod } from '../../common/contract/aloudApi';
import { checkApiCall } from '../../common/contract/apiMethods';
import { errorOutcome, type CallOutcome } from '../../common/contract/callOutcome';
import { SessionLogError } from '../../common/session/sessionLog';
import { WavError } from '../audio/wavFile';
import { ProjectError } from '../project/projectError';
import { SessionWriteError } from '../session/sessionFs';
import { SessionLockedError } from '../session/sessionLock';
import { SessionNameError } from '../session/sessionPaths';
import { SessionUsageError, SpokenLabelRequiredError } from '../session/sessionService';

/**
 * Maps a core error to one the contract carries. What a person got wrong or must resolve (a bad name, a damaged
 * log or WAV, a session open elsewhere) is a 4xx code; only what nobody foresaw is 'internal'.
 */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof SpokenLabelRequiredError) return new ApiError('spoken_label_required', e.message);
  if (e instanceof SessionUsageError || e instanceof SessionLockedError) return new ApiError('conflict', e.message);
  if (e instanceof SessionWriteError) return new ApiError('storage', e.message);
  if (e instanceof SessionNameError || e instanceof ProjectError || e instanceof ChunkFrameError) return new ApiError('bad_request', e.message);
  if (e instanceof SessionLogError || e instanceof WavError) return new ApiError('conflict', e.message);
  return new ApiError('internal', e instanceof Error ? e.message : String(e));
}

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
export async function dispatchApiCall(api: AloudApi | null, method: unknown, args: unknown, hooks: DispatchHooks = {}): Promise<CallOutcome> {
  try {
    const call = checkApiCall(method, args);
    if (!api) throw new ApiError('conflict', 'no project is open yet: choose one with File > Open Project…');
    hooks.beforeCall?.(call.method);
    const handler = api[call.method] as (...callArgs: unknown[]) => Promise<unknown>;
    const result = (await handler.apply(api, call.args)) ?? null;
    hooks.afterCall?.(call.method, result);
    return { ok: true, result };
  } catch (e) {
    return errorOutcome(toApiError(e));
  }
}
