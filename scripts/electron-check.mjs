#!/usr/bin/env node
// `npm start` runs this first: without the Electron binary (its download skipped, e.g. ELECTRON_SKIP_BINARY_DOWNLOAD
// or `npm install --ignore-scripts`) the electron package only throws "delete node_modules/electron and try again".
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

let binary = null;
try {
  binary = createRequire(import.meta.url)('electron');
} catch {
  // the package throws when its download never happened
}
if (typeof binary !== 'string' || !existsSync(binary)) {
  process.stderr.write(
    'aloud: the Electron binary is not installed (its download was skipped), so the desktop app cannot start; `npm run -s aloud -- serve` runs the app in a browser (or `node node_modules/electron/install.js` downloads Electron)\n',
  );
  process.exit(1);
}
