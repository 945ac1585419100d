import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { readSessionLog } from '../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../core/node/session/sessionPaths';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import {
  outside127,
  repoRoot,
  screenshotsDir,
  serveProject,
  shootBoth,
  slowModelServer,
  toneAndSilenceWav,
  unlabelledControls,
  watchRequests,
} from './appHarness';

const testModel = path.resolve(repoRoot, '../shared/models/for-tests-ggml-tiny.en.bin');
const unavailable = chromiumUnavailableReason([testModel]);
if (unavailable) console.warn(`skipping settings E2E: ${unavailable}`);

/**
 * A new annotator's first run and the settings: no model installed, the models panel downloads one from a model server
 * on 127.0.0.1 (with progress, a cancel and a resume), thresholds go to aloud.yaml with an undo, the keep-talking cue
 * is logged; then a second annotator, one spelling per annotator, and the host going away.
 */
describe.skipIf(unavailable !== undefined)('first run, models and settings in Chromium', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let models: Awaited<ReturnType<typeof slowModelServer>>;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    const payload = await readFile(testModel);
    models = await slowModelServer(payload);
    const work = await mkdtemp(path.join(tmpdir(), 'aloud-e2e-first-'));
    const wav = path.join(work, 'tone-silence.wav');
    // speech-like tone, then 3.5 s of silence (the cue comes after 2 s), then tone again
    await writeFile(
      wav,
      toneAndSilenceWav([
        [1, 'tone'],
        [3.5, 'silence'],
        [1, 'tone'],
      ]),
    );
    served = await serveProject({
      rendererDir,
      app: {
        modelsDir: path.join(work, 'models'),
        allowLoopbackModelDownloads: true,
        modelManifest: {
          manifest_version: 1,
          default: 'tiny.en',
          models: [
            {
              name: 'tiny.en',
              file: 'ggml-tiny.en.bin',
              url: models.url,
              bytes: payload.length,
              approx_mib: 1,
              checksum: { algo: 'sha256', value: createHash('sha256').update(payload).digest('hex') },
              english_only: true,
              size_class: 'tiny',
              source: 'the test model, served from 127.0.0.1',
            },
          ],
        },
      },
    });
    browser = await launchChromium({ fakeAudioFile: wav, screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
  }, 120_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close().catch(() => undefined);
    await models?.close();
  });

  it('first run: no model, the banner leads to the models panel; download with progress, cancel, resume', { timeout: 90_000 }, async () => {
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('Ana');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('No transcription yet');
    await page.getByRole('button', { name: 'Get a model…' }).click();
    await page.getByRole('button', { name: 'Download' }).click();
    const bar = page.getByLabel('downloading tiny.en');
    await expect.poll(() => bar.evaluate((p: HTMLProgressElement) => p.value), { timeout: 10_000 }).toBeGreaterThan(5);
    await shootBoth(browser, page, '12-models-downloading');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Resume download' }).count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Resume download' }).click();
    await expect.poll(() => page.locator('.models-table').textContent(), { timeout: 30_000 }).toContain('installed, checksum verified');
    // the second request continued where the first stopped
    expect(models.requests[0]).toBeUndefined();
    expect(models.requests[1]).toMatch(/^bytes=\d+-$/);
    // the session now transcribes with it: the banner is gone
    await expect.poll(async () => (await served.app.appInfo()).engine.available, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.locator('.banner.warn').count()).toBe(0);
    await page.getByRole('button', { name: 'Verify installed models' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Verify installed models' }).isEnabled()).toBe(true);
    await shootBoth(browser, page, '13-settings');
    expect(await unlabelledControls(page)).toEqual([]);
  });

  it(
    'thresholds: written to aloud.yaml through its validation, a wrong value refused by field, and undo',
    { timeout: 60_000 },
    async () => {
      const yaml = () => readFile(path.join(served.projectDir, 'aloud.yaml'), 'utf8');
      await page.getByLabel('Long pause (ms)').fill('1500');
      await page.getByRole('button', { name: /^Save 1 change/ }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved to aloud.yaml' }).count(), { timeout: 20_000 }).toBe(1);
      expect(await yaml()).toMatch(/long_pause_ms: 1500/);
      expect(await yaml()).toContain('# Aloud demo project'); // comments kept
      expect((await served.app.project()).thinkaloud.long_pause_ms).toBe(1500);
      await page.getByLabel('Silence threshold (dBFS)').fill('5');
      await page.getByRole('button', { name: /^Save 1 change/ }).click();
      await expect
        .poll(() => page.getByRole('alert').filter({ hasText: 'Not saved' }).textContent(), { timeout: 10_000 })
        .toContain('silence_threshold_dbfs');
      expect(await yaml()).not.toMatch(/silence_threshold_dbfs: 5/);
      await page.getByLabel('Silence threshold (dBFS)').fill('-45');
      await page.getByRole('button', { name: 'Undo last change' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Undone' }).count(), { timeout: 20_000 }).toBe(1);
      expect(await yaml()).toMatch(/long_pause_ms: 1000/);
    },
  );

  it('the keep-talking cue (off by default) shows after the chosen silence and is logged', { timeout: 90_000 }, async () => {
    await page.getByLabel('Show the cue').check();
    await page.getByLabel('seconds of silence before the cue').fill('2');
    await page.getByRole('tab', { name: 'Label' }).click();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('.keep-talking').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.locator('.keep-talking').textContent()).toBe('Please keep talking');
    await shootBoth(browser, page, '14-keep-talking');
    // the tone comes back: the cue goes
    await expect.poll(() => page.locator('.keep-talking').count(), { timeout: 20_000 }).toBe(0);
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('.clock').textContent(), { timeout: 15_000 }).toMatch(/s recorded$/);
    const log = await readSessionLog(sessionPaths(served.projectDir, 'Ana').events);
    const cues = log.events
      .filter((e) => e.type === 'cue_shown')
      .map((e) => e.data as { cue: string; silence_ms: number; audio_ms: number });
    expect(cues).toHaveLength(1);
    expect(cues[0]!.cue).toBe('keep_talking');
    expect(cues[0]!.silence_ms).toBeGreaterThanOrEqual(2000);
    expect(cues[0]!.audio_ms).toBeGreaterThan(2500);
    // and the review marks it on the waveform's timeline
    await page.getByRole('tab', { name: 'Review' }).click();
    await expect
      .poll(() => page.getByLabel('keep-talking cues').textContent(), { timeout: 15_000 })
      .toMatch(/after [2-9]\.\d s of silence/);
    await shootBoth(browser, page, '14b-review-cue');
    await page.getByRole('tab', { name: 'Label' }).click();
  });

  it(
    'the start screen lists annotators; "ana" continues Ana; a second annotator shows on the agreement screen',
    { timeout: 60_000 },
    async () => {
      await page.reload();
      await expect.poll(() => page.getByRole('group', { name: 'existing annotators' }).textContent()).toContain('Ana');
      await page.getByLabel('Your annotator name').fill('  ana ');
      await expect.poll(() => page.locator('#annotator-hint').textContent()).toContain('Continues the session of “Ana”');
      await shootBoth(browser, page, '15-start-annotators');
      await page.getByLabel('Your annotator name').fill('kim');
      await page.getByRole('button', { name: 'Start labelling' }).click();
      await expect.poll(() => page.locator('.annotator').textContent()).toBe('kim');
      await page.keyboard.press('1');
      await expect.poll(() => page.locator('.final-label').textContent()).toBe('Polite');
      await page.reload();
      await page.getByLabel('Your annotator name').fill('ANA');
      await page.getByRole('button', { name: 'Continue as Ana' }).click();
      await expect.poll(() => page.locator('.annotator').textContent()).toBe('Ana');
      expect((await served.app.annotators()).sort()).toEqual(['Ana', 'kim']);
      await page.keyboard.press('2');
      await expect.poll(() => page.locator('.final-label').textContent()).toBe('Impolite');
      await page.getByRole('tab', { name: 'Agreement' }).click();
      await expect.poll(() => page.locator('.agreement').textContent()).toContain('kim');
      await shootBoth(browser, page, '16-agreement-two');
      await page.getByRole('tab', { name: 'Label' }).click();
      await page.getByLabel('export whose sessions').selectOption('all');
      await page.getByRole('button', { name: 'Export' }).click();
      await expect
        .poll(() => page.locator('.export-summary').textContent(), { timeout: 15_000 })
        .toMatch(/Exported 40 records; .* \(Ana, kim\)\./);
      await shootBoth(browser, page, '20-exported-all');
    },
  );

  it(
    'projects: import items with a bad file (by line and field), create a project, open the recent one again',
    { timeout: 60_000 },
    async () => {
      const work = await mkdtemp(path.join(tmpdir(), 'aloud-e2e-projects-'));
      const bad = path.join(work, 'bad-items.jsonl');
      await writeFile(bad, '{"id": "n-1", "text": "Fine."}\n{"id": "n-2"}\n{"id": "n-1", "text": "Twice."}\n');
      const good = path.join(work, 'good-items.jsonl');
      await writeFile(good, '{"id": "n-1", "text": "Thanks a lot!"}\n{"id": "n-2", "text": "Whatever."}\n');
      await page.getByRole('tab', { name: 'Project' }).click();
      await page.getByLabel('Items file', { exact: true }).fill(bad);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const problems = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
      await expect.poll(() => problems.textContent()).toContain('bad-items.jsonl');
      const cells = await problems.locator('tbody tr').first().locator('td').allTextContents();
      expect(cells).toEqual(['bad-items.jsonl', '2', 'text', 'required field is missing']);
      expect((await served.app.project()).items).toHaveLength(20);
      await shootBoth(browser, page, '18-import-problems');
      await page.getByLabel('Items file', { exact: true }).fill(good);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Imported' }).textContent()).toContain('2 new');
      expect((await served.app.project()).items).toHaveLength(22);
      // a new project with its own labels and keys, items through the strict import
      const demoDir = (await served.app.project()).dir!;
      await page.getByLabel('New (or empty) folder').fill(path.join(work, 'tone-study'));
      await page.getByLabel('Name', { exact: true }).fill('tone-study');
      await page.getByLabel('Labels, one per line, each with its key').fill('Warm w\nCold c');
      await page.getByLabel('Items file (optional)').fill(good);
      await shootBoth(browser, page, '19-project-create');
      expect(await unlabelledControls(page)).toEqual([]);
      await page.getByRole('button', { name: 'Create and open' }).click();
      await expect.poll(() => page.locator('.start h1').textContent()).toBe('tone-study');
      expect(await page.locator('.start .lead').textContent()).toContain('2 items · labels Warm, Cold');
      expect((await served.app.project()).schema.labels.map((l) => [l.name, l.key])).toEqual([
        ['Warm', 'w'],
        ['Cold', 'c'],
      ]);
      await page.getByRole('button', { name: 'Open or create another project…' }).click();
      await page.getByLabel('Open a project folder').fill(demoDir);
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await expect.poll(() => page.locator('.start h1').textContent()).toBe('politeness-demo');
      await page.getByRole('button', { name: 'Ana', exact: true }).click();
      await expect.poll(() => page.locator('.annotator').textContent()).toBe('Ana');
    },
  );

  it('with the host gone, recording says Aloud cannot be reached', async () => {
    await page.getByRole('tab', { name: 'Label' }).click();
    await served.close();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toContain('Cannot reach Aloud');
    await shootBoth(browser, page, '17-host-gone');
    expect(outside127(requests)).toEqual([]);
  });
});
