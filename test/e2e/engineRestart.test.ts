import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { ENGINE_REGISTRY_ENV, runningEngines } from '../../core/node/engine/engineRegistry';
import { readSessionLog } from '../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../core/node/session/sessionPaths';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { FOR_TESTS_MODEL } from '../core/node/engine/engineTestModels';
import { fixtureAudio, screenshotsDir, serveProject, shootBoth } from './appHarness';

const clip = fixtureAudio('commit-polite.wav');
const unavailable = chromiumUnavailableReason([clip, FOR_TESTS_MODEL]);
if (unavailable) console.warn(`skipping engine-restart E2E: ${unavailable}`);

/** The engine process dies while the annotator labels: the Label screen says once, in words, that transcription restarted. */
describe.skipIf(unavailable !== undefined)('the Label screen when the engine process dies, in Chromium', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;
  let registry: string;

  beforeAll(async () => {
    registry = await mkdtemp(path.join(tmpdir(), 'aloud-e2e-registry-'));
    process.env[ENGINE_REGISTRY_ENV] = registry;
    const rendererDir = await ensureRendererBuilt(() => undefined);
    served = await serveProject({ rendererDir, app: { modelFile: FOR_TESTS_MODEL } });
    browser = await launchChromium({ fakeAudioFile: clip, screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close().catch(() => undefined);
    delete process.env[ENGINE_REGISTRY_ENV];
  });

  it('one line says transcription restarted; recording goes on and the item is transcribed', { timeout: 300_000 }, async () => {
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('ana');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('Thank you so much for your patience');
    expect(await page.locator('.engine-notice').count()).toBe(0);

    await expect.poll(async () => (await runningEngines(registry)).length).toBe(1);
    const [engine] = await runningEngines(registry);
    expect(engine).toMatchObject({ host_pid: process.pid, model: 'for-tests-ggml-tiny.en', state: 'running', restarts: 0 });
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
    process.kill(engine!.pid!, 'SIGKILL');

    const notice = page.locator('.engine-notice');
    // a new engine process loads its model before it says so: under load that can take most of a minute
    await expect
      .poll(() => notice.textContent(), { timeout: 120_000 })
      .toBe(
        'Transcription restarted after the engine stopped unexpectedly. Nothing recorded was lost; waiting utterances are being transcribed now.',
      );
    expect(await notice.count()).toBe(1);
    expect(await notice.getAttribute('role')).toBe('status');
    await shootBoth(browser, page, 'label-engine-restarted');

    // the recording never stopped: it ends when the annotator stops it, with all its audio, and is transcribed
    await expect
      .poll(async () => Number.parseFloat((await page.locator('.clock').textContent()) ?? '0'), { timeout: 20_000 })
      .toBeGreaterThan(9);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await served.app.sessionItem('demo-01'))?.audio_ms ?? 0, { timeout: 15_000 }).toBeGreaterThan(8700);
    await expect.poll(async () => (await served.app.session()).pending_transcriptions, { timeout: 60_000 }).toBe(0);
    const { events } = await readSessionLog(sessionPaths(served.projectDir, 'ana').events);
    const transcribed = events.flatMap((e) => (e.type === 'utterance_transcribed' ? [e.data.utterance] : []));
    expect(transcribed.length).toBeGreaterThan(0);
    expect(new Set(transcribed).size).toBe(transcribed.length);
    expect(events.filter((e) => e.type === 'stale_result')).toEqual([]);
    expect((await runningEngines(registry))[0]).toMatchObject({ restarts: 1, state: 'running' });
    // still one line, not one per event
    expect(await notice.count()).toBe(1);
  });
});
