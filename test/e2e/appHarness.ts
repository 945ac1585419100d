import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { AppServiceOptions } from '../../core/node/app/appContext';
import { AppService } from '../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { initProject } from '../../core/node/project/projectFolder';
import type { ChromiumSession } from '../helpers/chromium';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const fixtureAudio = (name: string): string => path.resolve(repoRoot, '../shared/fixtures/audio', name);

/** Where the suite writes its screenshots: ALOUD_SCREENSHOTS (docs/screenshots for the README), else a temp folder. */
export const screenshotsDir = process.env.ALOUD_SCREENSHOTS
  ? path.resolve(repoRoot, process.env.ALOUD_SCREENSHOTS)
  : path.join(tmpdir(), 'aloud-e2e-screenshots');

/** The two window sizes every screen is checked at. */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
] as const;

/**
 * Screenshots of what a person sees at both window sizes (`<name>-1280x800.png`, `<name>-1024x640.png`): the viewport,
 * not the full page (a full-page capture stretches 100vh, so scrolling panels would look unbounded). The size is restored.
 */
export async function shootBoth(_browser: ChromiumSession, page: Page, name: string): Promise<string[]> {
  const before = page.viewportSize();
  const files: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // let layout settle (resize observers redraw the waveform)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await mkdir(screenshotsDir, { recursive: true });
    const file = path.join(screenshotsDir, `${name}-${size.width}x${size.height}.png`);
    await page.screenshot({ path: file });
    files.push(file);
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

/** A 16 kHz mono 16-bit WAV of tone and silence spans, e.g. [[1, 'tone'], [4, 'silence']]. */
export function toneAndSilenceWav(spans: ReadonlyArray<readonly [seconds: number, kind: 'tone' | 'silence']>): Buffer {
  const rate = 16_000;
  const samples = spans.reduce((n, [s]) => n + Math.round(s * rate), 0);
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(samples * 2, 40);
  let at = 0;
  for (const [seconds, kind] of spans) {
    const n = Math.round(seconds * rate);
    for (let i = 0; i < n; i++, at++)
      out.writeInt16LE(kind === 'tone' ? Math.round(9000 * Math.sin((2 * Math.PI * 440 * at) / rate)) : 0, 44 + at * 2);
  }
  return out;
}

/** A model server on 127.0.0.1 that honours Range and sends slowly (8 KiB every 30 ms), so a test can cancel mid-way. */
export async function slowModelServer(
  payload: Buffer,
): Promise<{ url: string; requests: Array<string | undefined>; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const requests: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    requests.push(req.headers.range);
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    if (m)
      res.writeHead(206, {
        'content-length': String(payload.length - start),
        'content-range': `bytes ${start}-${payload.length - 1}/${payload.length}`,
      });
    else res.writeHead(200, { 'content-length': String(payload.length) });
    let at = start;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      const piece = payload.subarray(at, at + 8 * 1024);
      at += piece.length;
      if (at >= payload.length) {
        clearInterval(timer);
        res.end(piece);
      } else res.write(piece);
    }, 30);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/ggml-tiny.en.bin`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Controls on the page a screen reader could not name (no text, label, aria-label or title), as short descriptions. */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const named = (el: HTMLElement): boolean => {
      if (el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby') || el.getAttribute('title')?.trim()) return true;
      if (el instanceof HTMLButtonElement) return (el.textContent ?? '').trim() !== '';
      const labels = (el as HTMLInputElement).labels;
      return labels !== null && labels !== undefined && [...labels].some((l) => (l.textContent ?? '').trim() !== '');
    };
    return [...document.querySelectorAll<HTMLElement>('button, input, select, textarea')]
      .filter((el) => !(el as HTMLInputElement).hidden && !named(el))
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className}`);
  });
}
