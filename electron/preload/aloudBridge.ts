import type { AloudEvent } from '../../core/common/contract/aloudApi';
import type { AloudBridge } from '../../core/common/contract/aloudBridge';
import type { CallOutcome } from '../../core/common/refusal/callOutcome';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../core/common/contract/transportNames';

/** The part of ipcRenderer the bridge uses; the page never sees it. */
export interface BridgeIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/**
 * window.aloudBridge: one call function on IPC_CALL_CHANNEL and one event subscription on IPC_EVENT_CHANNEL.
 * Listeners receive the event payload only, never Electron's IpcRendererEvent (which carries the sender).
 */
export function createAloudBridge(ipc: BridgeIpc): AloudBridge {
  return Object.freeze({
    call(method: string, args: unknown[]): Promise<CallOutcome> {
      return ipc.invoke(IPC_CALL_CHANNEL, method, args) as Promise<CallOutcome>;
    },
    onEvent(listener: (event: AloudEvent) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('aloudBridge.onEvent: listener must be a function');
      const forward = (_event: unknown, payload: unknown): void => listener(payload as AloudEvent);
      ipc.on(IPC_EVENT_CHANNEL, forward);
      return () => {
        ipc.removeListener(IPC_EVENT_CHANNEL, forward);
      };
    },
  });
}
