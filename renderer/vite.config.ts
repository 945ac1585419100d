import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { captureWorkletModuleSource } from './src/capture/captureWorklet';

const WORKLET_FILE = 'capture-worklet.js';

/** Emits the capture AudioWorklet as a file on our own origin: the app's CSP allows no blob: scripts. */
function captureWorklet(): Plugin {
  return {
    name: 'aloud-capture-worklet',
    configureServer(server) {
      server.middlewares.use(`/${WORKLET_FILE}`, (_req, res) => {
        res.setHeader('content-type', 'text/javascript; charset=utf-8');
        res.end(captureWorkletModuleSource());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: WORKLET_FILE, source: captureWorkletModuleSource() });
    },
  };
}

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: './',
  plugins: [react(), captureWorklet()],
  build: {
    outDir: new URL('../out/renderer', import.meta.url).pathname,
    emptyOutDir: true,
    // No inline scripts or eval: the CSP forbids both.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
