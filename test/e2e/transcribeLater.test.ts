import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { AppService } from '../../core/node/app/appService';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { fixtureAudio, outside127, screenshotsDir, serveProject, watchRequests } from './appHarness';

const clip = fixtureAudio('commit-polite.wav');
const unavailable = chromiumUnavailableReason([clip]);
if (unavailable) console.warn(`skipping transcribe-later E2E: ${unavailable}`);

/**
 * Audio recorded while no engine existed is transcribed later from the Settings screen: the host first runs without
 * an engine (the recording is kept, nothing is transcribed), then again on the same project folder with the scripted
 * engine, and "Transcribe them now" gives the item its transcript and its spoken label.
 */
describe.skipIf(unavailable !== undefined)('transcribe later, from Settings, in Chromium', () => {
  let rendererDir: string;
  let first: Awaited<ReturnType<typeof serveProject>> | null = null;
  let second: { app: AppService; host: HttpHost } | null = null;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    rendererDir = await ensureRendererBuilt(() => undefined);
    // no engine at all (not even ALOUD_ENGINE_SCRIPT): audio is recorded, nothing is transcribed
    first = await serveProject({ rendererDir, app: { openEngine: null } });
    browser = await launchChromium({ fakeAudioFile: clip, screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
  }, 120_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-later-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await first?.close().catch(() => undefined);
    if (second) {
      await second.host.close().catch(() => undefined);
      await second.app.close().catch(() => undefined);
    }
  });

  it('without an engine the recording is kept and nothing is transcribed', { timeout: 60_000 }, async () => {
    const served = first!;
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('ana');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('Thank you so much for your patience');
    expect((await served.app.appInfo()).engine.available).toBe(false);
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('.clock').textContent(), { timeout: 20_000 }).toMatch(/^(9|1\d)\.\d s$/);
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.clock').textContent(), { timeout: 15_000 }).toMatch(/s recorded$/);
    await expect.poll(async () => (await served.app.sessionItem('demo-01'))?.audio_ms ?? 0, { timeout: 15_000 }).toBeGreaterThan(8700);
    const item = (await served.app.sessionItem('demo-01'))!;
    expect(existsSync(path.join(served.projectDir, item.audio_path!))).toBe(true);
    expect(item.segments).toEqual([]);
    expect(item.final_label).toBeNull();
    expect(await page.locator('.transcript-text mark.commit').count()).toBe(0);
    expect(await page.locator('.final-label').count()).toBe(0);
  });

  it('with an engine, "Transcribe them now" gives the item its transcript and the spoken label Polite', { timeout: 60_000 }, async () => {
    const projectDir = first!.projectDir;
    await first!.close();
    first = null;
    const script = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-e2e-later-')), 'engine-script.json');
    await writeFile(script, JSON.stringify({ items: { 'demo-01': [{ text: ' Hmm, well.' }, { text: ' I label this polite.' }] } }));
    const app = await AppService.open({ projectDir, mode: 'browser', engineScript: script });
    second = { app, host: await startHttpHost({ app, rendererDir }) };
    await page.goto(second.host.url);
    await page.getByLabel('Your annotator name').fill('ana');
    await page.getByRole('button', { name: /^(Start labelling|Continue as ana)$/ }).click();
    await expect.poll(() => page.locator('.annotator').textContent()).toBe('ana');
    await expect.poll(async () => (await app.appInfo()).engine.available, { timeout: 15_000 }).toBe(true);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const offer = page.locator('.transcribe-later');
    await expect.poll(() => offer.textContent(), { timeout: 15_000 }).toContain('1 recording has no transcript yet');
    await page.getByRole('button', { name: 'Transcribe them now' }).click();
    // the app: the transcript, the label from the voice
    await expect.poll(async () => (await app.sessionItem('demo-01'))?.final_label ?? null, { timeout: 20_000 }).toBe('Polite');
    const item = (await app.sessionItem('demo-01'))!;
    expect(item.segments.map((s) => s.text)).toEqual([' Hmm, well.', ' I label this polite.']);
    expect(item.label_history.map((a) => [a.label, a.source])).toEqual([['Polite', 'voice']]);
    await expect.poll(() => offer.count()).toBe(0);
    // the screen: the Label tab shows the transcript with the spoken commitment as the final label
    await page.getByRole('tab', { name: 'Label' }).click();
    await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('Thank you so much for your patience');
    await expect
      .poll(() => page.locator('.transcript-text mark.commit.final').textContent(), { timeout: 15_000 })
      .toBe('I label this polite');
    expect(await page.locator('.transcript-text').textContent()).toContain('Hmm, well.');
    expect(await page.locator('.final-label').textContent()).toBe('Polite');
    expect(await page.locator('.verdict .source').textContent()).toBe('by voice');
    expect(outside127(requests)).toEqual([]);
  });
});
