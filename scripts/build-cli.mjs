#!/usr/bin/env node
// Compiles the CLI to JavaScript once, so a command starts without a TypeScript loader:
//   out/cli/aloud.mjs        the CLI (core/node/cli/bin.ts), and out/cli/aloud-*.mjs the commands it loads when they run
//                            (beside it: core modules find repo files relative to the bundle's folder)
//   out/cli/engineProcess.js the whisper engine's own process it forks (engineProcessHost looks for it beside itself)
//   out/cli/aloud.stamp.json what the bundle was built from and wrote, with each file's size and modification time
//
// Run by `npm install` (postinstall, after the engine) and by `npm run build:cli`; `npm run aloud` (scripts/aloud.mjs)
// checks the stamp at every start and compiles first when a source changed, so it never runs stale code.
//
//   node scripts/build-cli.mjs [--if-stale] [--out DIR] [--postinstall (a failure warns, the install goes on)]
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT_DIR = path.join(REPO_ROOT, 'out/cli');
export const CLI_BUNDLE = path.join(CLI_OUT_DIR, 'aloud.mjs');
/** Files outside the bundle's inputs that change what it holds: the dependency tree and the build itself. */
const BUILD_FILES = ['package-lock.json', 'scripts/build-cli.mjs', 'scripts/build-electron.mjs'];

const stampFile = (outDir) => path.join(outDir, 'aloud.stamp.json');

/** Size and modification time of a file (relative to the repository), or "missing". */
const fingerprint = (file) => {
  const info = statSync(path.resolve(REPO_ROOT, file), { throwIfNoEntry: false });
  return info ? `${info.size}:${Math.trunc(info.mtimeMs)}` : 'missing';
};

/**
 * Whether the bundle in outDir is missing or older than its sources: every repository file it was built from (from
 * the stamp; dependencies count through package-lock.json) and every file it wrote is compared by size and
 * modification time, a few hundred stats, so the check costs milliseconds. A source that changed to import a new
 * file has itself changed.
 */
export function cliBundleIsStale({ outDir = CLI_OUT_DIR } = {}) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile(outDir), 'utf8'));
  } catch {
    return true;
  }
  if (stamp.node !== process.versions.modules) return true;
  for (const [file, print] of [...Object.entries(stamp.outputs), ...Object.entries(stamp.inputs)])
    if (fingerprint(file) !== print) return true;
  return false;
}

/** Writes a file under a temporary name and moves it into place, so a CLI starting meanwhile reads the old file or the new. */
function writeInPlace(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, contents);
  renameSync(part, file);
}

/** Removes chunks no build has written for an hour (a CLI started before a rebuild may still load its own). */
function pruneChunks(outDir, current) {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(outDir)) {
    if (!/^aloud-.+-[A-Z0-9]{8}\.mjs(\.map)?$/.test(name)) continue;
    const file = path.join(outDir, name);
    if (current.has(file.replace(/\.map$/, ''))) continue;
    if ((statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < hourAgo) rmSync(file, { force: true });
  }
}

/**
 * Builds the CLI and the engine process's entry beside it: the CLI is split by command (aloud-*.mjs, named by content), so a
 * start parses only the command it runs. Every file is written under a temporary name and moved into place, chunks
 * first and the entry last, then the stamp; chunks of earlier builds stay an hour for CLIs still running them.
 */
export async function buildCliBundle({ outDir = CLI_OUT_DIR, logLevel = 'warning' } = {}) {
  const { build } = await import('esbuild');
  const { sourceLocationPlugin, ESM_REQUIRE_BANNER } = await import('./build-electron.mjs');
  const common = {
    bundle: true,
    absWorkingDir: REPO_ROOT,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel,
    metafile: true,
    legalComments: 'none',
    sourcemap: 'linked',
    write: false,
    banner: { js: ESM_REQUIRE_BANNER },
    plugins: [sourceLocationPlugin(outDir)],
    // development tools the CLI loads only when asked (vite builds the app's pages for `serve`)
    external: ['vite', 'esbuild', 'tsx', 'electron'],
  };
  const [cli, engineProcess] = await Promise.all([
    build({
      ...common,
      entryPoints: { aloud: 'core/node/cli/bin.ts' },
      outdir: outDir,
      splitting: true,
      chunkNames: 'aloud-[name]-[hash]',
      outExtension: { '.js': '.mjs' },
    }),
    build({ ...common, entryPoints: ['core/node/engine/engineProcess.ts'], outfile: path.join(outDir, 'engineProcess.js') }),
  ]);
  const bundle = path.join(outDir, 'aloud.mjs');
  const outputs = [...engineProcess.outputFiles, ...cli.outputFiles];
  const isEntry = (f) => f.path === bundle;
  for (const output of [...outputs.filter((f) => !isEntry(f)), ...outputs.filter(isEntry)]) writeInPlace(output.path, output.contents);
  const inputs = {};
  for (const result of [cli, engineProcess]) {
    for (const input of Object.keys(result.metafile.inputs)) if (!input.includes('node_modules/')) inputs[input] = fingerprint(input);
  }
  for (const file of BUILD_FILES) inputs[file] = fingerprint(file);
  const written = outputs.map((f) => path.relative(REPO_ROOT, f.path)).filter((f) => !f.endsWith('.map'));
  const stamp = { node: process.versions.modules, outputs: Object.fromEntries(written.map((f) => [f, fingerprint(f)])), inputs };
  writeInPlace(stampFile(outDir), `${JSON.stringify(stamp, null, 1)}\n`);
  pruneChunks(outDir, new Set(outputs.map((f) => f.path)));
  return {
    bundle,
    engineProcess: path.join(outDir, 'engineProcess.js'),
    inputs: Object.keys(inputs).length,
  };
}

/** The bundle, compiled first when it is missing or stale. */
export async function ensureCliBundle({ quiet = false } = {}) {
  if (!cliBundleIsStale()) return CLI_BUNDLE;
  if (!quiet) process.stderr.write('aloud: compiling the CLI (its sources changed)…\n');
  await buildCliBundle();
  return CLI_BUNDLE;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const outFlag = process.argv.indexOf('--out');
  const outDir = outFlag > 0 && process.argv[outFlag + 1] ? path.resolve(process.argv[outFlag + 1]) : CLI_OUT_DIR;
  try {
    if (process.argv.includes('--if-stale') && !cliBundleIsStale({ outDir })) process.exit(0);
    const { bundle, inputs } = await buildCliBundle({ outDir });
    process.stdout.write(`aloud CLI: ${path.relative(process.cwd(), bundle)} (${inputs} source files)\n`);
  } catch (e) {
    rmSync(stampFile(outDir), { force: true });
    process.stderr.write(
      `aloud CLI build: ${e instanceof Error ? e.message : String(e)}\nThe CLI still runs from source: npx tsx core/node/cli/bin.ts\n`,
    );
    // an install goes on without the compiled CLI (`npm run aloud` compiles it, or runs the sources, later)
    process.exit(process.argv.includes('--postinstall') ? 0 : 1);
  }
}
