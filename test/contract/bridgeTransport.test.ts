import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../core/common/contract/transportNames';
import { AppService } from '../../core/node/app/appService';
import { initProject } from '../../core/node/project/projectFolder';
import { handleIpcCall, type IpcCallSender } from '../../electron/main/ipcCalls';
import { APP_ORIGIN } from '../../electron/policy/appOrigin';
import { createAloudBridge, type BridgeIpc } from '../../electron/preload/aloudBridge';
import { createApiClient } from '../../renderer/src/contract/apiClient';
import { bridgeTransport } from '../../renderer/src/contract/bridgeTransport';
import { contractSuite } from './contractSuite';

const apps: AppService[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

const WINDOW_ID = 7;
const trusted: IpcCallSender = {
  senderFrameUrl: 'aloud://app/index.html',
  isMainFrame: true,
  senderId: WINDOW_ID,
  mainWindowId: WINDOW_ID,
  appOrigin: APP_ORIGIN,
};

/**
 * Electron's IPC as main.ts wires it, without the binary: the real preload bridge over a stand-in ipcRenderer whose
 * invoke structured-clones the call into the real handleIpcCall (and so the shared dispatcher; audio arrives as a
 * Node Buffer, as IPC delivers it) and the outcome back.
 */
function electronIpc(app: AppService): BridgeIpc {
  const listeners = new Set<(event: unknown, ...args: unknown[]) => void>();
  app.subscribe((event) => {
    const payload = structuredClone(event);
    for (const listener of listeners) listener({ sender: 'ipcRenderer' }, payload);
  });
  return {
    async invoke(channel, method, args) {
      expect(channel).toBe(IPC_CALL_CHANNEL);
      const cloned = (structuredClone(args) as unknown[]).map((arg) => (arg instanceof Uint8Array ? Buffer.from(arg) : arg));
      return structuredClone(await handleIpcCall(trusted, method, cloned, app));
    },
    on(channel, listener) {
      expect(channel).toBe(IPC_EVENT_CHANNEL);
      listeners.add(listener);
    },
    removeListener(channel, listener) {
      expect(channel).toBe(IPC_EVENT_CHANNEL);
      listeners.delete(listener);
    },
  };
}

describe('contract over the Electron bridge (preload bridge → stand-in IPC → handleIpcCall → dispatcher)', () => {
  contractSuite(async () => {
    const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-ipc-')), 'project');
    await initProject(projectDir, { demo: true });
    const app = await AppService.open({ projectDir, mode: 'electron', openEngine: null });
    apps.push(app);
    return { client: createApiClient(bridgeTransport(createAloudBridge(electronIpc(app)))), mode: 'electron' };
  });
});
