import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { AppService } from '../../core/node/app/appService';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { sessionPaths } from '../../core/node/session/sessionPaths';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { screenshotsDir, serveProject, shootBoth, SIZES } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the review-from-Start E2E: ${unavailable}`);

/**
 * The Start screen's review form in headless Chromium (browser mode): with Ana's session in the project, a reviewer
 * types her own name, the screen offers "Review, as Rey, the session of Ana"; one click opens Ana's session under
 * Rey's name, the keyboard works there as anywhere (the clicked button does not take Space or Enter), and the label
 * Rey changes is logged as Rey's act in Ana's log, Ana's own acts staying hers.
 */
describe.skipIf(unavailable !== undefined)('reviewing a session from the Start screen', () => {
  let projectDir: string;
  let app: AppService;
  let host: HttpHost;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined, { force: true });
    // Ana labels demo-01 by key and completes it; then the app restarts on the project (the Start screen shows)
    const first = await serveProject({ rendererDir, configExtra: '  require_spoken_label: false' });
    projectDir = first.projectDir;
    await first.app.openSession('Ana');
    await first.app.openItem('demo-01');
    await first.app.commitLabel('Polite', 'key');
    await first.app.completeItem();
    await first.close();
    app = await AppService.open({ projectDir, mode: 'browser' });
    host = await startHttpHost({ app, rendererDir });
    browser = await launchChromium({ screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-review-start-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await app?.close();
  });

  it("offers the sessions to review once a name is typed, and opens the one clicked under the reviewer's name", async () => {
    await page.goto(host.url);
    const form = page.getByRole('group', { name: 'review a session' });
    // no name typed yet: nothing to review as
    await expect.poll(() => page.getByLabel('Your annotator name').count()).toBe(1);
    expect(await form.count()).toBe(0);
    await page.getByLabel('Your annotator name').fill('Rey');
    await expect.poll(() => form.textContent()).toContain('Review, as Rey, the session of');
    await shootBoth(browser, page, '30-start-review-form');
    await form.getByRole('button', { name: 'Ana' }).click();
    await expect.poll(async () => (await app.session().catch(() => null))?.annotator ?? null, { timeout: 15_000 }).toBe('Ana');
    expect(await app.session()).toMatchObject({ annotator: 'Ana', reviewer: 'Rey' });
    await expect.poll(() => page.locator('.item-head .counter code').textContent(), { timeout: 15_000 }).toBeTruthy();
  });

  it('after the click the keyboard labels as Rey: a changed label asks first, Enter says yes, the log names Rey', async () => {
    await page.keyboard.press('Control+g');
    await page.keyboard.type('demo-01');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.item-head .counter code').textContent(), { timeout: 15_000 }).toBe('demo-01');
    await page.keyboard.press('2');
    await expect.poll(() => page.locator('.confirm-change').count(), { timeout: 15_000 }).toBe(1);
    await page.keyboard.press('Enter');
    const demo01 = async () => await app.sessionItem('demo-01');
    await expect.poll(async () => (await demo01())?.final_label, { timeout: 15_000 }).toBe('Impolite');
    expect((await demo01())!.label_history.map((a) => [a.label, a.source, a.reviewer])).toEqual([
      ['Polite', 'key', null],
      ['Impolite', 'key', 'Rey'],
    ]);
    await shootBoth(browser, page, '31-review-label-changed');
    const log = (await readFile(sessionPaths(projectDir, 'Ana').events, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; data: { reviewer?: string | null; label?: string } });
    expect(log.filter((e) => e.type === 'label_committed').map((e) => [e.data.label, e.data.reviewer])).toEqual([
      ['Polite', null],
      ['Impolite', 'Rey'],
    ]);
    expect(log.filter((e) => e.type === 'session_resumed').map((e) => e.data.reviewer)).toEqual(['Rey']);
  });

  it("never records the reviewer's voice into Ana's session: Space says recording is off, the button is disabled, the host refuses", async () => {
    // Rey's label is marked as hers on the Label screen
    await expect.poll(() => page.locator('.verdict .reviewer-act').textContent(), { timeout: 15_000 }).toContain('given by Rey');
    const record = page.locator('.record-row button.record');
    expect(await record.isDisabled()).toBe(true);
    expect(await record.getAttribute('title')).toContain('Recording is off in review');
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.recording-off.said').count(), { timeout: 5_000 }).toBe(1);
    // the banner and the record agree: the banner says recording is off too
    expect(await page.locator('.banner.info', { hasText: 'Reviewing' }).textContent()).toContain('Recording is off');
    await shootBoth(browser, page, '32-review-recording-off');
    // the top bar stays one line at both sizes, in review mode too (a reviewer's name is longer)
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await expect.poll(async () => (await page.locator('.topbar').boundingBox())!.height).toBeLessThan(60);
    }
    // defence in depth: a start-recording call for a reviewer is refused by the host, and nothing is logged
    await expect(app.startRecording(null)).rejects.toThrow(/recording is off in review/);
    expect((await app.session()).recording_item).toBeNull();
    const log = (await readFile(sessionPaths(projectDir, 'Ana').events, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string });
    expect(log.filter((e) => e.type === 'recording_started')).toEqual([]);
  });
});
