import type { AloudApi, AloudEvent, AloudMethod } from '../../../core/common/contract/aloudApi';
import { apiOverCall } from '../../../core/common/contract/apiMethods';
import { unwrapOutcome, type CallOutcome } from '../../../core/common/refusal/callOutcome';
import { eventSubscriptions, type AloudEventSubscriptions } from '../../../core/common/contract/eventSubscriptions';

/** How calls and events travel: Electron's preload bridge or HTTP on 127.0.0.1. */
export interface ApiTransport {
  call(method: AloudMethod, args: unknown[]): Promise<CallOutcome>;
  onEvent(listener: (event: AloudEvent) => void): () => void;
  /** URL the page can play an item's recording from */
  itemAudioUrl(itemId: string): string;
  /** URL the lead can play annotator n's recording of an item from (n: the protocol's number in the side-by-side view) */
  protocolAudioUrl(itemId: string, protocol: number): string;
}

/** The app API, the typed event subscriptions (onItem, onPartial, …) and every event at once (onEvent). */
export interface ApiClient extends AloudApi, AloudEventSubscriptions {
  onEvent(listener: (event: AloudEvent) => void): () => void;
  itemAudioUrl(itemId: string): string;
  protocolAudioUrl(itemId: string, protocol: number): string;
}

/**
 * The typed app API over a transport, one function per entry of the contract's method table (errors come back as a
 * Refusal with the contract's code), and one typed subscription per event type of the contract.
 */
export function createApiClient(transport: ApiTransport): ApiClient {
  const api = apiOverCall(async (method, args) => unwrapOutcome(await transport.call(method, args)));
  // one stream from the host for every listener of the page (a browser allows few connections per host)
  const listeners = new Set<{ hear: (event: AloudEvent) => void }>();
  let stopStream: (() => void) | null = null;
  const onEvent = (hear: (event: AloudEvent) => void): (() => void) => {
    const listener = { hear };
    listeners.add(listener);
    stopStream ??= transport.onEvent((event) => {
      for (const l of [...listeners]) l.hear(event);
    });
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0) return;
      stopStream?.();
      stopStream = null;
    };
  };
  return {
    ...api,
    ...eventSubscriptions(onEvent),
    onEvent,
    itemAudioUrl: (itemId) => transport.itemAudioUrl(itemId),
    protocolAudioUrl: (itemId, protocol) => transport.protocolAudioUrl(itemId, protocol),
  };
}
