import type { AloudApi, AloudEvent, AloudMethod } from '../../../core/common/contract/aloudApi';
import { apiOverCall } from '../../../core/common/contract/apiMethods';
import { unwrapOutcome, type CallOutcome } from '../../../core/common/contract/callOutcome';

/** How calls and events travel: Electron's preload bridge or HTTP on 127.0.0.1. */
export interface ApiTransport {
  call(method: AloudMethod, args: unknown[]): Promise<CallOutcome>;
  onEvent(listener: (event: AloudEvent) => void): () => void;
  /** URL the page can play an item's recording from */
  itemAudioUrl(itemId: string): string;
}

export interface ApiClient extends AloudApi {
  onEvent(listener: (event: AloudEvent) => void): () => void;
  itemAudioUrl(itemId: string): string;
}

/** The typed app API over a transport, one function per entry of the contract's method table; errors come back as a Refusal with the contract's code. */
export function createApiClient(transport: ApiTransport): ApiClient {
  const api = apiOverCall(async (method, args) => unwrapOutcome(await transport.call(method, args)));
  return {
    ...api,
    onEvent: (listener) => transport.onEvent(listener),
    itemAudioUrl: (itemId) => transport.itemAudioUrl(itemId),
  };
}
