import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { AppService, type AppServiceOptions } from '../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { initProject } from '../../core/node/project/projectFolder';
import type { ChromiumSession } from '../helpers/chromium';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const fixtureAudio = (name: string): string => path.resolve(repoRoot, '../shared/fixtures/audio', name);

/** Where the suite writes its screenshots: ALOUD_SCREENSHOTS (docs/screenshots for the README), else a temp folder. */
export const screenshotsDir = process.env.ALOUD_SCREENSHOTS ? path.resolve(repoRoot, process.env.ALOUD_SCREENSHOTS) : path.join(tmpdir(), 'aloud-e2e-screenshots');

/** The two window sizes every screen is checked at. */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const;

/** Screenshots of the page at both sizes (`<name>-1280x800.png`, `<name>-1024x640.png`); the viewport is restored. */
export async function shootBoth(browser: ChromiumSession, page: Page, name: string): Promise<string[]> {
  const before = page.viewportSize();
  const files: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // let layout settle (resize observers redraw the waveform)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    files.push(await browser.screenshot(page, `${name}-${size.width}x${size.height}`));
  }
  if (before) await page.setViewportSize(before);
  return files;
}

/** A copy of the demo project (optionally other items / config lines) served in browser mode. */
export async function serveProject(options: {
  rendererDir: string;
  items?: string;
  configExtra?: string;
  app?: Partial<AppServiceOptions>;
}): Promise<{ app: AppService; host: HttpHost; projectDir: string; close(): Promise<void> }> {
  const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-e2e-')), 'project');
  await initProject(projectDir, { demo: true });
  if (options.items !== undefined) await writeFile(path.join(projectDir, 'items.jsonl'), options.items);
  if (options.configExtra) {
    const { readFile } = await import('node:fs/promises');
    const config = await readFile(path.join(projectDir, 'aloud.yaml'), 'utf8');
    await writeFile(path.join(projectDir, 'aloud.yaml'), `${config.trimEnd()}\n${options.configExtra}\n`);
  }
  const app = await AppService.open({ projectDir, mode: 'browser', ...options.app });
  const host = await startHttpHost({ app, rendererDir: options.rendererDir });
  return {
    app,
    host,
    projectDir,
    async close() {
      await host.close();
      await app.close();
    },
  };
}

/** Records every request the browser makes, to prove none leaves 127.0.0.1. */
export function watchRequests(browser: ChromiumSession): string[] {
  const urls: string[] = [];
  browser.context.on('request', (request) => urls.push(request.url()));
  return urls;
}

export function outside127(urls: readonly string[]): string[] {
  return urls.filter((u) => !/^(http:\/\/127\.0\.0\.1:\d+\/|data:|blob:http:\/\/127\.0\.0\.1:\d+\/|about:blank)/.test(u));
}
