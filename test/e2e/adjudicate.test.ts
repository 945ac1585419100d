import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { exportGold } from '../../core/node/adjudication/goldExport';
import { adjudicate } from '../../core/node/adjudication/projectAdjudication';
import { loadProjectConfig } from '../../core/node/project/projectFolder';
import { recordSession } from '../core/node/export/recordSession';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { outside127, serveProject, shootBoth, screenshotsDir, watchRequests } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the adjudication E2E: ${unavailable}`);

/** Three annotators thinking aloud (spoken labels, recorded through the session store): 01 unanimous, 02 2–1 with a change of mind, 03 all different. */
async function threeAnnotators(dir: string): Promise<void> {
  const project = await loadProjectConfig(dir);
  await recordSession(project, 'ana', [
    { id: 'demo-01', said: [' Thanks and patience, I label this polite.'], complete: true },
    { id: 'demo-02', said: [' Friendly enough.', ' I label this polite.'], complete: true },
    { id: 'demo-03', said: [' It apologises, so I label this polite.'], complete: true },
  ]);
  await recordSession(project, 'ben', [
    { id: 'demo-01', said: [' I label this polite.'], complete: true },
    { id: 'demo-02', said: [' Hmm. I label this neutral.', ' Well, it helps. I label this polite.'], complete: true },
    { id: 'demo-03', said: [' Earlier confusion. Um, I label this impolite.'], complete: true },
  ]);
  await recordSession(project, 'cai', [
    { id: 'demo-01', said: [' I label this polite.'], complete: true },
    { id: 'demo-02', said: [' Sounds curt to me, I label this impolite.'], complete: true },
    { id: 'demo-03', said: [' Just a number. I label this neutral.'], complete: true },
  ]);
}

const SPOKEN_RATIONALE = ' Ben changed his mind to polite, and two of three hear it as friendly.';

async function sessionBytes(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(path.join(dir, 'sessions'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(path.join(entry.parentPath, entry.name), (await readFile(path.join(entry.parentPath, entry.name))).toString('base64'));
  }
  return files;
}

/**
 * The lead adjudicates a three-annotator demo study in headless Chromium against the browser-mode host, by keyboard
 * only: the queue lowest agreement first, each protocol played by its key, adopt an annotator's label, confidence,
 * cause, a typed rationale, Enter.
 */
describe.skipIf(unavailable !== undefined)('adjudicating in Chromium', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];
  let before: Map<string, string>;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    // the lead's spoken rationale on demo-02 "transcribes" to this (Chromium's fake microphone plays a beep)
    const engineScript = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-adj-engine-')), 'engine.json');
    await writeFile(engineScript, JSON.stringify({ items: { 'demo-02': [{ text: SPOKEN_RATIONALE, delay_ms: 0 }] } }));
    served = await serveProject({ rendererDir, app: { openEngine: null, engineScript } });
    await threeAnnotators(served.projectDir);
    before = await sessionBytes(served.projectDir);
    browser = await launchChromium({ screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-adjudicate-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it(
    'the lead decides both disagreements by keyboard; the gold export holds every item with its source',
    { timeout: 120_000 },
    async () => {
      await page.goto(served.host.url);
      await page.getByLabel('Your annotator name').fill('lead');
      await page.getByLabel('Your annotator name').press('Enter');
      await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe('lead');
      await page.getByRole('tab', { name: 'Adjudicate' }).focus();
      await page.keyboard.press('Enter');
      await page
        .locator('body')
        .focus()
        .catch(() => undefined);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await expect.poll(() => page.locator('.adj-main h2').textContent(), { timeout: 15_000 }).toContain('demo-03');
      expect(await page.locator('.adj-queue li').allTextContents()).toEqual([
        expect.stringContaining('demo-03'),
        expect.stringContaining('demo-02'),
      ]);
      expect(await page.locator('.adj-protocol .adj-final').allTextContents()).toEqual(['Polite', 'Impolite', 'Neutral']);
      expect(await page.locator('.adj-protocol .commit-phrase').allTextContents()).toEqual([
        'I label this polite',
        'I label this impolite',
        'I label this neutral',
      ]);
      // each protocol's waveform over its own player, its commit phrase marked
      await expect
        .poll(() => page.locator('.adj-protocol .adj-waveform').evaluateAll((boxes) => boxes.map((b) => b.children.length > 0)), {
          timeout: 15_000,
        })
        .toEqual([true, true, true]);
      await expect.poll(() => page.locator('.adj-protocol').getByText('▼ commit').count(), { timeout: 15_000 }).toBe(3);
      // each marker sits on its own wave, not somewhere else on the page
      for (let n = 0; n < 3; n++) {
        const wave = (await page.locator('.adj-waveform').nth(n).boundingBox())!;
        const marker = (await page.locator('.adj-protocol').nth(n).getByText('▼ commit').boundingBox())!;
        expect(marker.x).toBeGreaterThanOrEqual(wave.x);
        expect(marker.x).toBeLessThanOrEqual(wave.x + wave.width);
        expect(marker.y).toBeGreaterThanOrEqual(wave.y - 1);
        expect(marker.y).toBeLessThanOrEqual(wave.y + wave.height);
      }
      await shootBoth(browser, page, '40-adjudicate-item');

      // hear the protocols by keyboard: Shift+2 plays annotator 2 (not an adoption), Shift+1 switches to annotator 1
      const audio = page.locator('.adj-protocol audio');
      expect(await audio.count()).toBe(3);
      const heard = (n: number) =>
        audio
          .nth(n)
          .evaluate((a: HTMLAudioElement) => ({ t: a.currentTime, paused: a.paused, ended: a.ended, error: a.error?.code ?? null }));
      await page.keyboard.press('Shift+Digit2');
      await expect.poll(async () => (await heard(1)).t, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((await heard(1)).error).toBeNull();
      await page.keyboard.press('Shift+Digit1');
      await expect.poll(async () => (await heard(0)).t, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((await heard(1)).paused).toBe(true); // one protocol heard at a time
      // o: annotator 1 again, from her commit phrase (spoken 0.1–0.9 s into her take)
      await page.keyboard.press('o');
      await expect
        .poll(
          async () => {
            const h = await heard(0);
            return !h.paused || h.ended;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      expect(await page.locator('.adj-protocol').nth(0).locator('.adj-player').textContent()).toMatch(
        /commit phrase at (\d+ ms|\d\.\d sec)/,
      ); // the locale's duration
      await page.keyboard.press('Space'); // Space pauses (or restarts) the protocol last played, never decides
      expect(await page.locator('.notice').count()).toBe(0);
      await expect.poll(() => page.locator('.adj-protocol .adj-final').allTextContents()).toEqual(['Polite', 'Impolite', 'Neutral']);
      expect(await page.locator('[aria-label="gold label"] [aria-pressed="true"]').count()).toBe(0); // playing adopted nothing
      expect(requests.some((r) => r.includes('/api/protocol-audio/demo-03/2'))).toBe(true);

      // demo-03: adopt annotator 3's label, medium, "edge case" (the fourth cause: f), a typed rationale
      for (const key of ['3', 'm', 'f', 'r']) await page.keyboard.press(key);
      await page.keyboard.type('cai read the hedge right');
      await page.keyboard.press('Escape');
      await shootBoth(browser, page, '41-adjudicate-draft');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.notice').textContent(), { timeout: 15_000 }).toBe('demo-03: gold "Neutral"');
      // on to demo-02 (ben changed his mind: blind Neutral, final Polite)
      await expect.poll(() => page.locator('.adj-main h2').textContent(), { timeout: 15_000 }).toContain('demo-02');
      expect(await page.locator('.adj-protocol').nth(1).textContent()).toContain('blind: Neutral');
      for (const key of ['1', 'h', 's']) await page.keyboard.press(key);
      // her rationale spoken: Shift+R records, Shift+R again stops and the host transcribes it
      await page.keyboard.press('Shift+KeyR');
      await expect
        .poll(() => page.locator('.adj-spoken').textContent(), { timeout: 15_000 })
        .toMatch(/Recording your rationale [1-9]\.\d s/);
      await page.keyboard.press('Shift+KeyR');
      await expect.poll(() => page.locator('.adj-spoken').textContent(), { timeout: 20_000 }).toContain(SPOKEN_RATIONALE.trim());
      await shootBoth(browser, page, '43-adjudicate-spoken-rationale');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.notice').textContent(), { timeout: 15_000 }).toBe('demo-02: gold "Polite"');
      await expect.poll(() => page.locator('.adj-queue li.decided').count(), { timeout: 15_000 }).toBe(2);
      await shootBoth(browser, page, '42-adjudicate-done');

      const out = path.join(path.dirname(served.projectDir), 'gold.jsonl');
      const project = await loadProjectConfig(served.projectDir);
      const { receipt } = await exportGold({ project, format: 'jsonl', out });
      expect(receipt.counts).toEqual({ unanimous: 1, majority: 0, adjudicated: 2, model: 0, unresolved: 17 });
      const gold = (await readFile(out, 'utf8'))
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              item_id: string;
              gold_label: string;
              gold_source: string;
              adjudication: {
                adjudicator: string;
                causes: string[];
                rationale: string | null;
                rationale_kind: string | null;
                rationale_audio: { file: string; audio_ms: number } | null;
              } | null;
            },
        );
      expect(gold.filter((g) => g.gold_source !== 'unresolved').map((g) => [g.item_id, g.gold_label, g.gold_source])).toEqual([
        ['demo-01', 'Polite', 'unanimous'],
        ['demo-02', 'Polite', 'adjudicated'],
        ['demo-03', 'Neutral', 'adjudicated'],
      ]);
      expect(gold.find((g) => g.item_id === 'demo-03')!.adjudication).toMatchObject({
        adjudicator: 'lead',
        causes: ['edge case'],
        rationale: 'cai read the hedge right',
        rationale_kind: 'typed',
      });
      const spoken = gold.find((g) => g.item_id === 'demo-02')!.adjudication!;
      expect(spoken).toMatchObject({ rationale: SPOKEN_RATIONALE.trim(), rationale_kind: 'spoken' });
      // her recording is in her own folder, a WAV of what the microphone heard
      expect(spoken.rationale_audio!.file).toMatch(/^adjudication\/lead\/rationales\/[0-9a-f]{64}\.wav$/);
      expect(spoken.rationale_audio!.audio_ms).toBeGreaterThan(900);
      expect((await readFile(path.join(served.projectDir, spoken.rationale_audio!.file))).subarray(0, 4).toString()).toBe('RIFF');
      // every file of the annotators' sessions is byte for byte what it was before the lead began
      const after = await sessionBytes(served.projectDir);
      for (const [file, bytes] of before) expect(after.get(file), file).toBe(bytes);
      expect(outside127(requests)).toEqual([]);
    },
  );

  it('an item assigned to an annotator who has not seen it comes first on her Label screen', { timeout: 60_000 }, async () => {
    await adjudicate(await loadProjectConfig(served.projectDir), 'lead', { kind: 'assign', item_id: 'demo-05', annotator: 'dora' });
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('dora');
    await page.getByLabel('Your annotator name').press('Enter');
    await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe('dora');
    await expect.poll(() => page.getByText(/Item 1 of 20/).textContent(), { timeout: 15_000 }).toContain('demo-05');
  });
});
