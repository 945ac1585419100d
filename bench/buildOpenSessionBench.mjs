// Bundles bench/openSession.ts of a checkout as the app is bundled (esbuild, no keepNames), for interleaved runs:
//   node bench/buildOpenSessionBench.mjs CHECKOUT_DIR OUTFILE [ENTRY (default bench/openSession.ts)]
import path from 'node:path';
import { build } from 'esbuild';
import { ESM_REQUIRE_BANNER, sourceLocationPlugin } from '../scripts/build-electron.mjs';

const [root, outfile] = process.argv.slice(2);
await build({
  absWorkingDir: path.resolve(root),
  entryPoints: [path.resolve(root, process.argv[4] ?? 'bench/openSession.ts')],
  outfile: path.resolve(outfile),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  banner: { js: ESM_REQUIRE_BANNER },
  plugins: [sourceLocationPlugin(path.dirname(path.resolve(outfile)))],
  external: ['vite', 'esbuild', 'tsx', 'electron'],
});
