#!/usr/bin/env node
// Bundles the Electron shell with esbuild into out/electron/:
//   main.js         the main process (ESM; 'electron' stays external, everything else is bundled)
//   preload.cjs     the preload (CommonJS: sandboxed preloads can only be one classic script that requires 'electron')
//   engineProcess.js the whisper engine's own process (aloud-engine), an Electron utility process started from main
//                    (electron/main/engineLauncher.ts)
//
//   node scripts/build-electron.mjs [--out DIR]
//
// The renderer is built separately by Vite into out/renderer/ (npm run build:renderer).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUT_DIR = path.join(REPO_ROOT, 'out/electron');

/**
 * Core modules find repo files (package.json, demo-project/, models/manifest.json, the whisper binding) from their own
 * import.meta.url. Inside a bundle that URL is the bundle's, so each core module's import.meta.url is rewritten to its
 * source file's location, relative to the bundle: the app keeps the repo layout (out/, package.json, core/.../native).
 */
const KEEP_BUNDLE_URL = new Set([
  // looks for the compiled engineProcess.js beside itself, i.e. beside the bundle
  'core/node/engine/engineProcessHost.ts',
]);

export function sourceLocationPlugin(outDir) {
  return {
    name: 'aloud-source-location',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]core[\\/].*\.ts$/ }, async (args) => {
        const relative = path.relative(REPO_ROOT, args.path).split(path.sep).join('/');
        if (!relative.startsWith('core/')) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url') || KEEP_BUNDLE_URL.has(relative)) return undefined;
        const fromBundle = path.relative(outDir, args.path).split(path.sep).join('/');
        const located = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', located), loader: 'ts' };
      });
    },
  };
}

// CommonJS dependencies inside an ES module bundle still call require() for Node built-ins.
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __aloudCreateRequire } from 'node:module'; const require = __aloudCreateRequire(import.meta.url);";

/** Modules a bundle still loads at run time (esbuild's metafile: imports left external). */
function externalImports(result) {
  const names = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imported of output.imports) if (imported.external) names.add(imported.path);
  }
  return [...names].sort();
}

/** Builds the three bundles; returns their paths, the source files each one holds and what each still imports. */
export async function buildElectron({ outDir = DEFAULT_OUT_DIR, logLevel = 'warning' } = {}) {
  // loaded here, not at the top: the CLI launcher imports this module's plugin only when it rebuilds
  const { build } = await import('esbuild');
  const common = { bundle: true, absWorkingDir: REPO_ROOT, sourcemap: 'linked', logLevel, metafile: true, legalComments: 'none' };
  const nodeBundle = {
    ...common,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    banner: { js: ESM_REQUIRE_BANNER },
    plugins: [sourceLocationPlugin(outDir)],
  };
  const outputs = {
    main: path.join(outDir, 'main.js'),
    preload: path.join(outDir, 'preload.cjs'),
    engineProcess: path.join(outDir, 'engineProcess.js'),
  };
  const [main, preload, engineProcess] = await Promise.all([
    build({ ...nodeBundle, entryPoints: ['electron/main/main.ts'], outfile: outputs.main, external: ['electron'] }),
    build({
      ...common,
      entryPoints: ['electron/preload/preload.ts'],
      outfile: outputs.preload,
      platform: 'browser',
      format: 'cjs',
      target: 'chrome120',
      external: ['electron'],
    }),
    build({ ...nodeBundle, entryPoints: ['core/node/engine/engineProcess.ts'], outfile: outputs.engineProcess }),
  ]);
  const inputs = (result) => Object.keys(result.metafile.inputs);
  return {
    outputs,
    inputs: { main: inputs(main), preload: inputs(preload), engineProcess: inputs(engineProcess) },
    externals: { main: externalImports(main), preload: externalImports(preload), engineProcess: externalImports(engineProcess) },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outFlag = process.argv.indexOf('--out');
  const outDir = outFlag > 0 && process.argv[outFlag + 1] ? path.resolve(process.argv[outFlag + 1]) : DEFAULT_OUT_DIR;
  try {
    const { outputs } = await buildElectron({ outDir });
    for (const file of Object.values(outputs)) process.stdout.write(`${path.relative(process.cwd(), file)}\n`);
  } catch (e) {
    process.stderr.write(`aloud electron build: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
