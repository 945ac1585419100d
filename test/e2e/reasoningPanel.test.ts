import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { fixtureAudio, screenshotsDir, serveProject, shootBoth } from './appHarness';

const clip = fixtureAudio('commit-polite.wav');
const unavailable = chromiumUnavailableReason([clip]);
if (unavailable) console.warn(`skipping the model-reasoning E2E: ${unavailable}`);

/**
 * The model's reasoning on the Label screen in headless Chromium, browser mode, scripted engine: hidden until the
 * annotator's own label, then shown with its steps; a click and a spoken phrase judge steps, and the log has both.
 */
describe.skipIf(unavailable !== undefined)('model reasoning on the Label screen', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined, { force: true });
    const script = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-e2e-reason-')), 'engine-script.json');
    await writeFile(script, JSON.stringify({ items: { 'demo-01': [{ text: ' Hmm. Step three is wrong.', delay_ms: 100 }] } }));
    served = await serveProject({ rendererDir, app: { engineScript: script } });
    browser = await launchChromium({ fakeAudioFile: clip, screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('keeps the reasoning hidden until the blind label, then judges steps by click and by voice', { timeout: 90_000 }, async () => {
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('ana');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await expect
      .poll(() => page.locator('.model-reasoning.withheld').textContent(), { timeout: 15_000 })
      .toContain('once you have given your own label');
    expect(await page.locator('.model-step').count()).toBe(0);

    await page.keyboard.press('1');
    await expect.poll(() => page.locator('.model-step').count(), { timeout: 15_000 }).toBe(4);
    expect(await page.locator('.model-label').textContent()).toBe('Polite');
    await page.getByRole('group', { name: 'judge step 2' }).getByRole('button', { name: '✗' }).click();
    await expect.poll(() => page.locator('.model-step[data-step="2"]').getAttribute('data-reward')).toBe('-1');

    // focus is on the step's button (Space would press it): record with the record button
    await page.locator('button.record').click();
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('.clock').textContent(), { timeout: 20_000 }).toMatch(/^[2-9]\.\d s$/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.locator('.model-step[data-step="3"]').getAttribute('data-reward'), { timeout: 20_000 }).toBe('-1');
    expect(await page.locator('.model-step[data-step="3"] .step-source').textContent()).toBe('by voice');
    await shootBoth(browser, page, '20-model-reasoning');

    const item = (await served.app.sessionItem('demo-01'))!;
    expect(item.reasoning).toMatchObject({ model_label: 'Polite', steps: expect.arrayContaining(['4. So the reply is polite.']) });
    expect(item.step_judgments!.map((j) => [j.index, j.reward, j.source, j.quote])).toEqual([
      [2, -1, 'click', null],
      [3, -1, 'voice', 'Step three is wrong'],
    ]);
    // the blind label came before the reasoning was shown
    expect(item.label_history[0]!.at <= item.reasoning!.shown_at).toBe(true);
  });

  it(
    "Review shows the think-aloud beside the model's steps, mentions marked on both sides, judgments and features",
    { timeout: 60_000 },
    async () => {
      await page.getByRole('tab', { name: 'Review' }).click();
      const pair = page.getByLabel("think-aloud beside the model's reasoning");
      await expect.poll(() => pair.count(), { timeout: 15_000 }).toBe(1);
      expect(await pair.getByLabel("annotator's think-aloud").textContent()).toContain('Step three is wrong.');
      expect(await pair.locator('.model .mention').allTextContents()).toEqual(['polite']);
      expect(await pair.locator('li[data-step="3"] .step-verdict').textContent()).toBe('✗ wrong (voice: “Step three is wrong”)');
      expect(await pair.locator('li[data-step="2"] .step-verdict').textContent()).toBe('✗ wrong (click)');
      expect(await pair.locator('li[data-step="1"] .step-verdict').textContent()).toBe('not judged');
      expect(await pair.locator('[data-feature="finals_agree"]').textContent()).toBe('yes');
      expect(await pair.locator('[data-feature="first_wrong_step"]').textContent()).toBe('2');
      expect(await pair.locator('[data-feature="first_contradicting_step"]').textContent()).toBe('—');
      expect(await pair.locator('[data-feature="right_for_wrong_reason"]').textContent()).toBe('yes');
      await shootBoth(browser, page, '21-review-side-by-side');
    },
  );
});
