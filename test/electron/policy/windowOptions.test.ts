import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from '../../../electron/policy/windowOptions';

describe('secureWebPreferences', () => {
  it('spells out every protection, whatever Electron defaults to', () => {
    expect(secureWebPreferences({ preload: '/app/out/electron/preload.cjs', devTools: false })).toEqual({
      preload: '/app/out/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      devTools: false,
    });
  });

  it('only DevTools follows the caller (on in development, off when packaged)', () => {
    const dev = secureWebPreferences({ preload: 'p', devTools: true });
    const packaged = secureWebPreferences({ preload: 'p', devTools: false });
    expect(dev.devTools).toBe(true);
    expect({ ...dev, devTools: false }).toEqual(packaged);
  });
});
