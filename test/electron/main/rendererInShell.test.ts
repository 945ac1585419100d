import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AloudBridge } from '../../../core/common/contract/aloudBridge';
import { AppService } from '../../../core/node/app/appService';
import { initProject } from '../../../core/node/project/projectFolder';
import { createAppRequestHandler } from '../../../electron/main/appRequests';
import { handleIpcCall } from '../../../electron/main/ipcCalls';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../helpers/chromium';

const REPO = path.resolve(import.meta.dirname, '../../..');
const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the renderer-in-shell test: ${unavailable}`);

/**
 * The built renderer in headless Chromium, served by the shell's own protocol handler (CSP and all) through a
 * loopback adapter, with a window.aloudBridge whose calls go through handleIpcCall to a real AppService. What
 * Electron adds on top (the aloud: origin, contextBridge, the sandbox) is not here; everything of ours is.
 */
describe.skipIf(unavailable !== undefined)('the built renderer under the shell’s CSP, protocol handler and IPC handler', () => {
  let work: string;
  let app: AppService;
  let server: Server;
  let browser: ChromiumSession;
  let page: Page;
  const violations: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'aloud-shell-page-'));
    const rendererRoot = path.join(work, 'renderer');
    const { build } = await import('vite');
    await build({
      configFile: path.join(REPO, 'renderer/vite.config.ts'),
      logLevel: 'warn',
      build: { outDir: rendererRoot, emptyOutDir: true },
    });

    const projectDir = path.join(work, 'project');
    await initProject(projectDir, { demo: true });
    app = await AppService.open({ projectDir, mode: 'electron', openEngine: null });

    const handle = createAppRequestHandler({
      appOrigin: APP_ORIGIN,
      rendererRoot,
      itemAudio: (itemId) => {
        const file = app.itemAudioFile(itemId);
        return file ? { file, projectDir } : null;
      },
      protocolAudio: (itemId, protocol) => app.protocolAudioFile(itemId, protocol),
    });
    // Loopback adapter: http://127.0.0.1:<port>/x is answered as aloud://app/x would be.
    server = createServer((req, res) => {
      const headers = new Headers();
      if (req.headers.range) headers.set('range', req.headers.range);
      void handle(new Request(`${APP_ORIGIN}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers })).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const trusted = { senderFrameUrl: `${APP_ORIGIN}/index.html`, isMainFrame: true, senderId: 1, mainWindowId: 1, appOrigin: APP_ORIGIN };
    // Binary audio frames cross the test's binding as number lists and become Buffers again, as IPC delivers them.
    await page.exposeFunction('__aloudInvoke', (method: string, args: unknown[]) =>
      handleIpcCall(
        trusted,
        method,
        args.map((arg) => (arg && typeof arg === 'object' && 'bytes' in arg ? Buffer.from((arg as { bytes: number[] }).bytes) : arg)),
        app,
      ),
    );
    await page.addInitScript(() => {
      const invoke = (window as unknown as { __aloudInvoke: (m: string, a: unknown[]) => Promise<never> }).__aloudInvoke;
      window.addEventListener('securitypolicyviolation', (e) =>
        console.error(`Refused to load ${e.blockedURI} (CSP ${e.violatedDirective})`),
      );
      (window as unknown as { aloudBridge: AloudBridge }).aloudBridge = {
        call: (method: string, args: unknown[]) =>
          invoke(
            method,
            args.map((arg) => (arg instanceof Uint8Array ? { bytes: Array.from(arg) } : arg)),
          ),
        onEvent: () => () => undefined,
      };
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await app?.close();
    await rm(work, { recursive: true, force: true });
  });

  it(
    'starts a session, records the microphone through the worklet, labels by key and plays the recording back with ranges',
    { timeout: 90_000 },
    async () => {
      const { port } = server.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.getByLabel('Your annotator name').fill('ana');
      await page.getByRole('button', { name: 'Start labelling' }).click();
      await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('Thank you so much for your patience');

      await page.keyboard.press('Space');
      // opening the microphone and the audio graph can take seconds on a loaded 2-core machine
      await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
      await page.waitForTimeout(2000);
      await page.keyboard.press('Space');
      await expect.poll(async () => (await app.sessionItem('demo-01'))?.audio_ms ?? 0, { timeout: 10_000 }).toBeGreaterThan(1500);

      await page.keyboard.press('1');
      await expect.poll(() => page.locator('.final-label').textContent()).toBe('Polite');
      expect(await app.sessionItem('demo-01')).toMatchObject({ final_label: 'Polite', label_source: 'key' });

      await page.getByRole('tab', { name: 'Review' }).click();
      const audio = page.getByLabel('recording of demo-01');
      await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect(await audio.evaluate((a: HTMLAudioElement) => a.duration)).toBeGreaterThan(1.5);

      expect(violations).toEqual([]);
      expect(browser.pageErrors).toEqual([]);
    },
  );
});
