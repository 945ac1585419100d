// Bundled to CommonJS (scripts/build-electron.mjs): sandboxed preloads cannot load ES modules or other files.
import { contextBridge, ipcRenderer } from 'electron';
import { createAloudBridge } from './aloudBridge';

contextBridge.exposeInMainWorld('aloudBridge', createAloudBridge(ipcRenderer));
