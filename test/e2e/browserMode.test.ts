import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppService } from '../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { initProject } from '../../core/node/project/projectFolder';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const clip = path.resolve(repoRoot, '../shared/fixtures/audio/commit-polite.wav');
const testModel = path.resolve(repoRoot, '../shared/models/for-tests-ggml-tiny.en.bin');
const unavailable = chromiumUnavailableReason([clip, testModel]);
if (unavailable) console.warn(`skipping browser-mode E2E: ${unavailable}`);

/**
 * The real app in headless Chromium against the browser-mode host: the fake microphone plays
 * commit-polite.wav, the whisper worker runs the vocab-only test model (its text is empty), and the
 * session is written to a temporary copy of the demo project.
 */
describe.skipIf(unavailable !== undefined)('browser mode, end to end in Chromium', () => {
  let app: AppService;
  let host: HttpHost;
  let browser: ChromiumSession;
  let page: Page;
  let projectDir: string;
  const screenshotsDir = process.env.ALOUD_SCREENSHOTS ?? path.join(tmpdir(), 'aloud-e2e-screenshots');

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined, { force: true });
    projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-e2e-')), 'project');
    await initProject(projectDir, { demo: true });
    app = await AppService.open({ projectDir, mode: 'browser', modelFile: testModel });
    host = await startHttpHost({ app, rendererDir });
    browser = await launchChromium({ fakeAudioFile: clip, screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await app?.close();
  });

  it('starts a session for an annotator', async () => {
    await page.goto(host.url);
    await page.getByLabel('Your annotator name').fill('ana');
    await browser.screenshot(page, '01-start');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('Thank you so much for your patience');
    expect(await page.locator('.annotator').textContent()).toBe('ana');
  });

  it('records the microphone with Space, keeps the audio and shows its pauses', { timeout: 90_000 }, async () => {
    await page.keyboard.press('Space');
    // opening the microphone and the audio graph can take seconds on a loaded 2-core machine
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
    await page.waitForTimeout(4000);
    await browser.screenshot(page, '02-recording');
    await page.waitForTimeout(5300); // the clip is 8.754 s
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.clock').textContent(), { timeout: 15_000 }).toMatch(/s recorded$/);
    const view = await app.session();
    const item = view.items.find((i) => i.item_id === 'demo-01')!;
    expect(item.audio_ms).toBeGreaterThan(8700);
    expect(item.audio_ms).toBeLessThan(12_000);
    expect(existsSync(path.join(projectDir, item.audio_path!))).toBe(true);
    // the clip's 2 s gap is one long pause
    expect(item.signals?.pauses?.long_count).toBeGreaterThanOrEqual(1);
    await expect.poll(() => page.getByLabel('hesitation signals').textContent()).toContain('Pauses');
  });

  it('labels by key, and explains why the item cannot be completed without a spoken label', async () => {
    await page.keyboard.press('1');
    await expect.poll(() => page.locator('.final-label').textContent()).toBe('Polite');
    expect(await page.locator('.verdict .source').textContent()).toBe('by key');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('needs a spoken label');
    await browser.screenshot(page, '03-labelled');
    await page.getByRole('button', { name: 'dismiss error' }).click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('great question');
    expect((await app.session()).current_item).toBe('demo-02');
  });

  it('plays the recording back on the Review tab', async () => {
    await page.getByRole('tab', { name: 'Review' }).click();
    const audio = page.getByLabel('recording of demo-01');
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const duration = await audio.evaluate((a: HTMLAudioElement) => a.duration);
    expect(duration).toBeGreaterThan(8.7);
    await browser.screenshot(page, '04-review');
  });

  it('shows agreement and exports the session with a receipt', async () => {
    await page.getByRole('tab', { name: 'Agreement' }).click();
    await expect.poll(() => page.locator('.agreement').textContent()).toContain('1 annotator(s): ana');
    await browser.screenshot(page, '05-agreement');
    await page.getByRole('button', { name: 'Export' }).click();
    await expect.poll(() => page.getByRole('status').last().textContent(), { timeout: 15_000 }).toMatch(/Exported 20 records/);
    const text = (await page.getByRole('status').last().textContent())!;
    const file = /to (\S+\.jsonl);/.exec(text)![1]!;
    const record = (await readFile(file, 'utf8')).split('\n').map((l) => (l ? JSON.parse(l) : null)).find((r) => r?.item_id === 'demo-01');
    expect(record).toMatchObject({ annotator: 'ana', final_label: 'Polite', label_source: 'key' });
    expect(record.audio.duration_ms).toBeGreaterThan(8700);
    // the one failed request the page made on purpose: completing without a spoken label (409)
    expect(browser.pageErrors.filter((e) => !e.includes('status of 409'))).toEqual([]);
  });
});

describe.skipIf(chromiumUnavailableReason() !== undefined)('browser mode: completing by key when no spoken label is required', () => {
  it('moves to the next open item on Enter and says when every item is done', { timeout: 90_000 }, async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-e2e-keys-')), 'project');
    await initProject(projectDir, { demo: true });
    const config = await readFile(path.join(projectDir, 'aloud.yaml'), 'utf8');
    await writeFile(path.join(projectDir, 'aloud.yaml'), `${config.trimEnd()}\n  require_spoken_label: false\n`);
    await writeFile(path.join(projectDir, 'items.jsonl'), '{"id":"a","text":"Thanks, happy to help!"}\n{"id":"b","text":"Read the manual."}\n');
    const app = await AppService.open({ projectDir, mode: 'browser', openEngine: null });
    const host = await startHttpHost({ app, rendererDir });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(host.url);
      await page.getByLabel('Your annotator name').fill('kim');
      await page.getByRole('button', { name: 'Start labelling' }).click();
      await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('happy to help');
      await page.keyboard.press('1');
      await expect.poll(() => page.locator('.final-label').textContent()).toBe('Polite');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('Read the manual');
      await page.keyboard.press('2');
      await expect.poll(() => page.locator('.final-label').textContent()).toBe('Impolite');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.all-done').textContent()).toContain('All 2 items are completed');
      const view = await app.session();
      expect(view.items.map((i) => [i.item_id, i.final_label, i.label_source, i.completed_at !== null])).toEqual([
        ['a', 'Polite', 'key', true],
        ['b', 'Impolite', 'key', true],
      ]);
    } finally {
      await browser.close();
      await host.close();
      await app.close();
    }
  });
});
