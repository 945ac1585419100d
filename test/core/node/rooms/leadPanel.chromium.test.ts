import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppService } from '../../../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../../../core/node/app/httpHost';
import { initProject } from '../../../../core/node/project/projectFolder';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../../helpers/chromium';
import { RoomClient } from './roomClient';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the lead panel test: ${unavailable}`);

/** The renderer built into its own folder, so this test never races another test's build of out/renderer. */
async function buildRenderer(): Promise<string> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'aloud-renderer-'));
  const { build } = await import('vite');
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.resolve('renderer/vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
  return outDir;
}

/** The lead's panel in the app (browser mode, real Chromium): open a room, watch votes arrive hidden, reveal. */
describe.skipIf(unavailable !== undefined)("the lead's room panel in the app", () => {
  let app: AppService;
  let host: HttpHost;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await buildRenderer();
    const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-lead-')), 'project');
    await initProject(projectDir, { demo: true });
    app = await AppService.open({ projectDir, mode: 'browser', openEngine: null });
    host = await startHttpHost({ app, rendererDir });
    browser = await launchChromium({ fakeMediaDevices: false, acceptMediaPrompts: false });
    page = await browser.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await app?.close();
  });

  it('opens a room on chosen items, shows who voted (not what), reveals, and closes', { timeout: 90_000 }, async () => {
    await page.goto(host.url);
    await page.getByLabel('Your annotator name').fill('lead');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await page.getByRole('tab', { name: 'Agreement' }).click();
    await page.getByText('Choose items').click();
    await page.locator('.room-item-choice', { hasText: 'demo-01' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Open a room on 1 chosen item' }).click();
    await expect
      .poll(() => page.locator('.room-code').textContent(), { timeout: 15_000 })
      .toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/);
    const code = (await page.locator('.room-code').textContent())!;
    const status = (await app.room())!;
    expect(await page.locator('.room-panel').textContent()).toContain(status.url);
    expect(status.lan).toBe(false);

    const ana = await RoomClient.join(status.url, code, 'ana');
    const ben = await RoomClient.join(status.url, code, 'ben');
    await ana.vote('demo-01', 'Polite');
    await ben.vote('demo-01', 'Impolite');
    const row = page.locator('.room-panel tbody tr', { hasText: 'demo-01' });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('ana, ben');
    expect(await row.textContent()).toContain('hidden until revealed');
    expect(await row.textContent()).not.toMatch(/Polite|Impolite/);
    await browser.screenshot(page, 'lead-panel-blind');

    await row.getByRole('button', { name: 'Reveal' }).click();
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('ana: Polite; ben: Impolite');
    await ana.vote('demo-01', 'Impolite');
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('ana: Polite → Impolite');
    await expect.poll(() => page.locator('.room-panel').textContent()).toContain('ana: 1 change, 1 toward the others’ majority');
    await browser.screenshot(page, 'lead-panel-revealed');

    await page.getByRole('button', { name: 'Close the room' }).click();
    await expect.poll(() => page.getByRole('button', { name: /Huddle on the/ }).count()).toBe(1);
    expect(await app.room()).toBeNull();
    await page.getByRole('button', { name: 'Write back the final votes as new sessions' }).click();
    await expect.poll(() => page.locator('.written-back').textContent()).toBe(`ana (room ${code}): 1 label; ben (room ${code}): 1 label`);
    expect(browser.pageErrors).toEqual([]);
  });
});
