import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import { writeFileAtomic } from '../fs/atomicFile';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The member pages' browser code (TypeScript, typechecked and linted like the renderer). */
const SOURCES = path.join(repoRoot, 'renderer', 'roomPages');
const ENTRIES = { room: 'renderer/roomPages/roomPage.ts', shadow: 'renderer/roomPages/shadowPage.ts' } as const;
/** Where the pages' scripts and stylesheets are built (`npm run build:rooms`, or the first room served). */
export const ROOM_PAGES_OUT_DIR = path.join(repoRoot, 'out', 'room-pages');
const STAMP = path.join(ROOM_PAGES_OUT_DIR, 'room-pages.stamp.json');

export type RoomPageName = keyof typeof ENTRIES;
/** The bundler, loaded only to build the pages from their sources (a development checkout). */
const ESBUILD = 'esbuild';

/** A member page's built script and stylesheet, as the room listener serves them (`/<name>.js`, `/<name>.css`). */
export interface RoomPageAssets {
  js: string;
  css: string;
}

/** What a build read and wrote: each file (relative to the repository) with its size and modification time. */
interface Stamp {
  inputs: Record<string, string>;
  outputs: Record<string, string>;
}

async function fingerprint(file: string): Promise<string> {
  const info = await stat(path.resolve(repoRoot, file)).catch(() => null);
  return info ? `${info.size}:${Math.trunc(info.mtimeMs)}` : 'missing';
}

/**
 * Built pages missing, or older than a file they were built from (sources, core/common types, the lock file): a few
 * dozen stats. Without sources (a packaged app) the built pages are what there is.
 */
export async function roomPagesAreStale(): Promise<boolean> {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(await readFile(STAMP, 'utf8')) as Stamp;
  } catch {
    return true;
  }
  for (const [file, print] of Object.entries(stamp.outputs)) if ((await fingerprint(file)) !== print) return true;
  if ((await stat(SOURCES).catch(() => null)) === null) return false;
  for (const [file, print] of Object.entries(stamp.inputs)) if ((await fingerprint(file)) !== print) return true;
  // a new source file changes an entry that imports it, so the entries' prints above catch it
  return false;
}

/** Bundles each page's script (one IIFE, no imports at run time) and its stylesheet; every file moved into place whole. */
export async function buildRoomPages(): Promise<{ outputs: string[] }> {
  // a name, not a literal: bundles of the app (Electron main, the CLI) keep this import out and ship built pages
  const { build } = (await import(ESBUILD)) as typeof Esbuild;
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: ENTRIES,
    outdir: ROOM_PAGES_OUT_DIR,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    charset: 'utf8',
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  await mkdir(ROOM_PAGES_OUT_DIR, { recursive: true });
  for (const output of result.outputFiles) await writeFileAtomic(output.path, output.contents);
  const inputs: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs)) inputs[input] = await fingerprint(input);
  inputs['package-lock.json'] = await fingerprint('package-lock.json');
  const outputs: Record<string, string> = {};
  for (const output of result.outputFiles) {
    const relative = path.relative(repoRoot, output.path);
    outputs[relative] = await fingerprint(relative);
  }
  await writeFileAtomic(STAMP, `${JSON.stringify({ inputs, outputs } satisfies Stamp, null, 1)}\n`);
  return { outputs: Object.keys(outputs) };
}

let building: Promise<unknown> | null = null;

/** Builds the pages when they are missing or stale (one build at a time in this process). */
export async function ensureRoomPagesBuilt(): Promise<void> {
  if (building) await building;
  if (!(await roomPagesAreStale())) return;
  building ??= buildRoomPages().finally(() => {
    building = null;
  });
  await building;
}

/** A page's script and stylesheet, built first when needed. */
export async function roomPageAssets(name: RoomPageName): Promise<RoomPageAssets> {
  try {
    await ensureRoomPagesBuilt();
  } catch (e) {
    throw new Error(
      `the room pages could not be built (${e instanceof Error ? e.message.split('\n')[0] : String(e)}): run npm run build:rooms`,
    );
  }
  const [js, css] = await Promise.all([
    readFile(path.join(ROOM_PAGES_OUT_DIR, `${name}.js`), 'utf8'),
    readFile(path.join(ROOM_PAGES_OUT_DIR, `${name}.css`), 'utf8'),
  ]);
  return { js, css };
}
