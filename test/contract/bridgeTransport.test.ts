import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe } from 'vitest';
import type { AloudEvent } from '../../core/common/contract/aloudApi';
import { checkApiCall } from '../../core/common/contract/apiArgs';
import { errorOutcome, type AloudBridge, type CallOutcome } from '../../core/common/contract/callOutcome';
import { AppService, toApiError } from '../../core/node/app/appService';
import { initProject } from '../../core/node/project/projectFolder';
import { createApiClient } from '../../renderer/src/contract/apiClient';
import { bridgeTransport } from '../../renderer/src/contract/bridgeTransport';
import { contractSuite } from './contractSuite';

const apps: AppService[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** An in-memory stand-in for Electron IPC: arguments and results cross by structured clone, as ipcRenderer.invoke does. */
function memoryBridge(app: AppService): AloudBridge {
  return {
    async call(method, args): Promise<CallOutcome> {
      const cloned = structuredClone(args);
      try {
        const checked = checkApiCall(method, cloned);
        const handler = app[checked.method] as (...a: unknown[]) => Promise<unknown>;
        return structuredClone({ ok: true, result: (await handler.apply(app, checked.args)) ?? null });
      } catch (e) {
        return errorOutcome(toApiError(e));
      }
    },
    onEvent: (listener: (e: AloudEvent) => void) => app.subscribe((e) => listener(structuredClone(e))),
  };
}

describe('contract over the Electron bridge (in-memory IPC)', () => {
  contractSuite(async () => {
    const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-ipc-')), 'project');
    await initProject(projectDir, { demo: true });
    const app = await AppService.open({ projectDir, mode: 'electron', openEngine: null });
    apps.push(app);
    return { client: createApiClient(bridgeTransport(memoryBridge(app))), mode: 'electron' };
  });
});
