import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where `npm run build:renderer` puts the app's pages. */
export const RENDERER_OUT_DIR = path.join(repoRoot, 'out', 'renderer');

/** Builds the renderer with Vite when it has not been built yet (a fresh checkout running `aloud serve`). */
export async function ensureRendererBuilt(log: (line: string) => void, options: { force?: boolean } = {}): Promise<string> {
  if (!options.force && existsSync(path.join(RENDERER_OUT_DIR, 'index.html'))) return RENDERER_OUT_DIR;
  log('building the app pages (vite build)…');
  const { build } = await import('vite');
  await build({ configFile: path.join(repoRoot, 'renderer', 'vite.config.ts'), logLevel: 'warn' });
  return RENDERER_OUT_DIR;
}
