import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { screenshotsDir, serveProject, shootBoth } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the shadow room rejoin E2E: ${unavailable}`);

/**
 * A trainee who leaves a shadow room comes back under her own name, in headless Chromium: the expert opens the room
 * from the Label screen, ben joins from the room's page; a new tab of his browser offers to come back as ben (the
 * browser keeps his rejoin key), another browser needs the key typed; his name alone, a look-alike or a wrong key are refused.
 */
describe.skipIf(unavailable !== undefined)('a shadow room trainee rejoins as himself', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;
  let trainee: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    served = await serveProject({ rendererDir });
    browser = await launchChromium({ screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('the expert opens the room and ben joins', { timeout: 60_000 }, async () => {
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('ana');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await page.getByRole('button', { name: 'Shadow room…' }).click();
    await page.getByRole('button', { name: 'Open shadow room' }).click();
    const panel = page.getByRole('region', { name: 'shadow room' });
    await expect.poll(() => panel.locator('.room-code').count(), { timeout: 15_000 }).toBe(1);
    trainee = await browser.newPage();
    await trainee.goto((await panel.locator('code').textContent())!);
    await trainee.getByLabel('Room code').fill((await panel.locator('.room-code').textContent())!);
    await trainee.getByLabel('Your name').fill('ben');
    await trainee.getByLabel('Your name').press('Enter');
    await expect.poll(() => trainee.locator('#who').textContent(), { timeout: 15_000 }).toContain('You are ben');
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('1 watching: ben');
  });

  it(
    'ben comes back as himself: a new tab offers his kept key, another browser takes it typed; his name alone, a look-alike or a wrong key is refused',
    { timeout: 90_000 },
    async () => {
      const panel = page.getByRole('region', { name: 'shadow room' });
      const url = (await panel.locator('code').textContent())!;
      const code = (await panel.locator('.room-code').textContent())!;
      // his rejoin key is shown to him in the room
      await expect.poll(() => trainee.locator('#rejoin').isVisible()).toBe(true);
      const key = (await trainee.locator('#rejoin-key').textContent())!;
      expect(key.length).toBeGreaterThan(20);
      // a reload is still ben; a new tab of the same browser offers to come back as ben (one browser may serve two people)
      await trainee.reload();
      await expect.poll(() => trainee.locator('#who').textContent(), { timeout: 15_000 }).toContain('You are ben');
      const tab = await browser.newPage();
      await tab.goto(url);
      await tab.getByRole('button', { name: 'Come back as ben' }).click();
      await expect.poll(() => tab.locator('#who').textContent(), { timeout: 15_000 }).toContain('You are ben');
      expect(await tab.locator('#join').isVisible()).toBe(false);
      await tab.close();
      // another browser (nothing kept): his name alone is taken, and the refusal says how to come back
      const other = await browser.newPage();
      await other.goto(url);
      await other.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await other.reload();
      await other.getByLabel('Room code').fill(code);
      await other.getByLabel('Your name').fill('ben');
      await other.getByRole('button', { name: 'Join' }).click();
      await expect.poll(() => other.locator('#join-error').textContent(), { timeout: 10_000 }).toContain('"ben" is already in the room');
      expect(await other.locator('#join-error').textContent()).toContain('type the rejoin key');
      // a look-alike (Cyrillic е) is refused too, key or not
      await other.getByLabel('Your name').fill('bеn');
      await other.getByRole('button', { name: 'Join' }).click();
      await expect.poll(() => other.locator('#join-error').textContent(), { timeout: 10_000 }).toContain('looks like "ben"');
      // a wrong key does not let anyone in
      await other.getByLabel(/Rejoin key/).fill('not-a-key-of-this-room-at-all-000');
      await other.getByRole('button', { name: 'Join' }).click();
      await expect.poll(() => other.locator('#join-error').textContent(), { timeout: 10_000 }).toContain('not one of this room');
      // with his key he is ben again: one member, one name
      await other.getByLabel(/Rejoin key/).fill(key);
      await other.getByRole('button', { name: 'Join' }).click();
      await expect.poll(() => other.locator('#who').textContent(), { timeout: 15_000 }).toContain('You are ben');
      await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('1 watching: ben');
      await shootBoth(browser, other, '26-shadow-rejoin');
      await other.close();
    },
  );
});
