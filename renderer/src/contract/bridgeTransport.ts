import type { AloudMethod } from '../../../core/common/contract/aloudApi';
import type { AloudBridge } from '../../../core/common/contract/aloudBridge';
import { ITEM_AUDIO_ROUTE, PROTOCOL_AUDIO_ROUTE, protocolAudioTail } from '../../../core/common/contract/transportNames';
import type { ApiTransport } from './apiClient';

/** Electron: the preload's `window.aloudBridge` (IPC underneath); item audio through the app's own protocol. */
export function bridgeTransport(bridge: AloudBridge, origin = 'aloud://app'): ApiTransport {
  return {
    call: (method: AloudMethod, args: unknown[]) => bridge.call(method, args),
    onEvent: (listener) => bridge.onEvent(listener),
    itemAudioUrl: (itemId) => `${origin}/${ITEM_AUDIO_ROUTE}/${encodeURIComponent(itemId)}`,
    protocolAudioUrl: (itemId, protocol) => `${origin}/${PROTOCOL_AUDIO_ROUTE}/${protocolAudioTail(itemId, protocol)}`,
  };
}
