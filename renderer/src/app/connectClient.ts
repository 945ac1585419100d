import type { AloudBridge } from '../../../core/common/contract/aloudBridge';
import { createApiClient, type ApiClient } from '../contract/apiClient';
import { bridgeTransport } from '../contract/bridgeTransport';
import { httpTransport } from '../contract/httpTransport';

declare global {
  interface Window {
    /** set by Electron's preload; absent in browser mode */
    aloudBridge?: AloudBridge;
  }
}

/** The contract client for wherever this page runs: Electron's bridge, or the local HTTP host that served it. */
export function connectClient(): ApiClient {
  if (window.aloudBridge) return createApiClient(bridgeTransport(window.aloudBridge, window.location.origin));
  return createApiClient(httpTransport(window.location.origin));
}
