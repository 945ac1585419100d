/** The renderer's webPreferences, written out in full so a default changing in Electron cannot loosen them. */
export interface SecureWebPreferences {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  navigateOnDragDrop: false;
  /** Chromium would download spell-check dictionaries from the network */
  spellcheck: false;
  safeDialogs: true;
  devTools: boolean;
}

export function secureWebPreferences(options: { preload: string; devTools: boolean }): SecureWebPreferences {
  return {
    preload: options.preload,
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
    devTools: options.devTools,
  };
}
