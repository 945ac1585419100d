import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const rendererSources = path.join(repoRoot, 'renderer');

/** Where `npm run build:renderer` puts the app's pages. */
export const RENDERER_OUT_DIR = path.join(repoRoot, 'out', 'renderer');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Built pages older than the renderer's sources (a checkout that changed since the last build). */
function isStale(): boolean {
  const index = path.join(RENDERER_OUT_DIR, 'index.html');
  if (!existsSync(index)) return true;
  if (!existsSync(rendererSources)) return false; // a packaged app ships pages, not sources
  return newestSourceMtime(rendererSources) > statSync(index).mtimeMs;
}

/** Builds the renderer with Vite when it is missing or older than its sources. */
export async function ensureRendererBuilt(log: (line: string) => void, options: { force?: boolean } = {}): Promise<string> {
  if (!options.force && !isStale()) return RENDERER_OUT_DIR;
  log('building the app pages (vite build)…');
  const { build } = await import('vite');
  // Test runners set NODE_ENV=test, which would give React's development build.
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(rendererSources, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  return RENDERER_OUT_DIR;
}
