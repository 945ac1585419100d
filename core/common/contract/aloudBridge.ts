import type { CallOutcome } from '../refusal/callOutcome';
import type { AloudEvent } from './aloudApi';

/**
 * What Electron's preload exposes to the page as `window.aloudBridge` (contextBridge): one call function
 * and one event subscription, never ipcRenderer itself.
 */
export interface AloudBridge {
  call(method: string, args: unknown[]): Promise<CallOutcome>;
  onEvent(listener: (event: AloudEvent) => void): () => void;
}
