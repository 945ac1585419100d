import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { ItemSessionState } from '../../core/common/session/itemState';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { fixtureAudio, repoRoot, screenshotsDir, serveProject, shootBoth } from './appHarness';

const clip = fixtureAudio('commit-polite.wav');
const unavailable = chromiumUnavailableReason([clip]);
if (unavailable) console.warn(`skipping the label-states E2E: ${unavailable}`);

/**
 * The Label screen's states in headless Chromium (browser mode, the fake microphone playing commit-polite.wav, a
 * scripted engine): Enter right after Space waits for the stop; a refusal goes when its reason does; "transcribing"
 * where the label goes while the phrase is still on its way; a completed item's label changes only after a yes; the
 * model's steps numbered and a pressed verdict that looks pressed; Review's segment keys and the label the corrected
 * text would set.
 */
describe.skipIf(unavailable !== undefined)('the Label screen says what is going on', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined, { force: true });
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-e2e-states-'));
    const script = path.join(dir, 'engine-script.json');
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 100 },
            { text: ' I label this polite.', delay_ms: 300 },
          ],
          'demo-02': [
            { text: ' Hmm, well.', delay_ms: 100 },
            { text: ' I label this polite.', delay_ms: 100 },
          ],
          // slow on purpose: the label area says the words are being transcribed
          'demo-03': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 1500 },
            { text: ' I label this polite.', delay_ms: 2500 },
          ],
        },
      }),
    );
    // demo-05's model reasoning in plain sentences: the split does not number them, the screen must
    const demoItems = (await readFile(path.join(repoRoot, 'demo-project', 'items.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const items = demoItems.map((item) =>
      item.id === 'demo-05'
        ? {
            ...item,
            model_reasoning: 'The reply refuses to help. It tells the user to search for themselves. That is rude.',
            model_label: 'Impolite',
          }
        : item,
    );
    served = await serveProject({
      rendererDir,
      items: `${items.map((i) => JSON.stringify(i)).join('\n')}\n`,
      app: { engineScript: script },
    });
    browser = await launchChromium({ fakeAudioFile: clip, screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-states-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const itemOf = async (id: string): Promise<ItemSessionState | undefined> => (await served.app.sessionItem(id)) ?? undefined;
  const logOf = async () =>
    (await readFile(path.join(served.projectDir, 'sessions', 'ana', 'events.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
  /** records until the whole clip (8.8 s) has been heard */
  const recordWholeClip = async () => {
    await page.keyboard.press('Space');
    await poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
    await poll(() => page.locator('.clock').textContent(), { timeout: 30_000 }).toMatch(/^(9|1\d)\.\d s$/);
  };

  it('Enter right after Space waits for the stop and its last chunk: the item completes, no error', { timeout: 90_000 }, async () => {
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('ana');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await poll(() => shownItem(page)).toBe('demo-01');
    await recordWholeClip();
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await poll(() => shownItem(page), { timeout: 30_000 }).toBe('demo-02');
    await poll(() => page.locator('button.record').textContent()).toMatch(/Record/);
    expect(await page.locator('.banner.error').count()).toBe(0);
    const item = (await itemOf('demo-01'))!;
    expect(item.completed_at).not.toBeNull();
    expect(item.final_label).toBe('Polite');
    // one stop, the annotator's own; every chunk of the take stored (the host stopped after the last one arrived)
    const stops = (await logOf()).filter((e) => e.type === 'recording_stopped' && e.data.item_id === 'demo-01');
    expect(stops.map((e) => e.data.reason)).toEqual(['user']);
    expect(browser.pageErrors.filter((e) => !e.includes('status of 409'))).toEqual([]);
  });

  it('the refusal to complete goes once its reason has: a spoken label after "Record more"', { timeout: 90_000 }, async () => {
    await page.keyboard.press('2');
    await poll(() => page.locator('.final-label').textContent()).toBe('Impolite');
    await page.keyboard.press('Enter');
    await poll(() => page.locator('.refusal').textContent()).toContain('needs a spoken label');
    await recordWholeClip();
    await poll(() => page.locator('.verdict .source').textContent(), { timeout: 30_000 }).toBe('by voice');
    expect(await page.locator('.final-label').textContent()).toBe('Polite');
    await poll(() => page.locator('.refusal').count()).toBe(0);
    await page.keyboard.press('Space');
    await poll(() => page.locator('.clock').textContent(), { timeout: 15_000 }).toMatch(/s recorded$/);
    expect(await page.locator('.refusal').count()).toBe(0);
  });

  it('while the phrase is being transcribed the label area says so, then shows the label', { timeout: 90_000 }, async () => {
    await page.keyboard.press('ArrowRight');
    await poll(() => shownItem(page)).toBe('demo-03');
    await recordWholeClip();
    await page.keyboard.press('Space');
    await poll(() => page.locator('.verdict').textContent(), { timeout: 10_000, interval: 25 }).toContain('Transcribing what you said');
    await shootBoth(browser, page, '23-transcribing');
    await poll(() => page.locator('.final-label').textContent(), { timeout: 30_000 }).toBe('Polite');
    await poll(() => page.locator('.verdict .transcribing').count()).toBe(0);
  });

  it(
    'a completed item: a label key asks first, Esc keeps the label, Enter changes it and the screen marks the change',
    { timeout: 60_000 },
    async () => {
      await goTo(page, 'demo-01');
      const acts = async () => (await itemOf('demo-01'))!.label_history.length;
      const before = await acts();
      await page.keyboard.press('2');
      await poll(() => page.locator('.confirm-change').count()).toBe(1);
      expect(await page.locator('.confirm-change').textContent()).toContain('completed with Polite');
      await shootBoth(browser, page, '24-confirm-change');
      expect(await acts()).toBe(before);
      await page.keyboard.press('Escape');
      await poll(() => page.locator('.confirm-change').count()).toBe(0);
      expect(await page.locator('.final-label').textContent()).toBe('Polite');
      expect(await acts()).toBe(before);
      await page.keyboard.press('2');
      await poll(() => page.locator('.confirm-change').count()).toBe(1);
      await page.keyboard.press('Enter');
      await poll(() => page.locator('.final-label').textContent()).toBe('Impolite');
      expect(await page.locator('.verdict .after-completion').textContent()).toContain('changed after completion');
      expect(await page.locator('.item-link.current .item-changed').count()).toBe(1);
      const item = (await itemOf('demo-01'))!;
      expect(item.label_history.slice(before).map((a) => [a.source, a.label])).toEqual([['key', 'Impolite']]);
      expect(item.changed_after_completion).toBe(true);
    },
  );

  it("the model's steps split into sentences are numbered, and a pressed ✗ is filled, not a focus ring", { timeout: 60_000 }, async () => {
    await goTo(page, 'demo-05');
    await page.keyboard.press('2');
    await poll(() => page.locator('.model-step').count(), { timeout: 15_000 }).toBe(3);
    expect(await page.locator('.model-step .step-number').allTextContents()).toEqual(['1.', '2.', '3.']);
    // the demo's numbered steps keep their own numbers, not a second one
    const wrong = page.getByRole('group', { name: 'judge step 2' }).getByRole('button', { name: '✗' });
    const right = page.getByRole('group', { name: 'judge step 2' }).getByRole('button', { name: '✓' });
    await wrong.click();
    await poll(() => wrong.getAttribute('aria-pressed')).toBe('true');
    const look = (button: typeof wrong) =>
      button.evaluate((el) => ({ background: getComputedStyle(el).backgroundColor, outline: getComputedStyle(el).outlineStyle }));
    const pressed = await look(wrong);
    const unpressed = await look(right);
    expect(pressed.background).not.toBe(unpressed.background);
    expect(pressed.outline).toBe('none');
    await shootBoth(browser, page, '25-steps-numbered');
    await goTo(page, 'demo-01');
    // demo-01's own steps (the panel never shows demo-05's beside demo-01, not even for a frame), numbered by the text
    expect(await page.locator('.model-step[data-step="4"] .step-text').textContent()).toBe('4. So the reply is polite.');
    expect(await page.locator('.model-step .step-number').count()).toBe(0);
  });

  it('Review: ↓ and ↑ go from segment to segment; the corrected text says which label it would set', { timeout: 90_000 }, async () => {
    await page.getByRole('tab', { name: 'Review' }).click();
    await page.getByRole('button', { name: /^demo-02/ }).click();
    await poll(() => page.getByLabel('waveform of demo-02').getAttribute('data-ready'), { timeout: 20_000 }).toBe('true');
    const position = () => page.locator('.clock').textContent();
    const item = (await itemOf('demo-02'))!;
    const second = item.segments[1]!.t0_ms;
    expect(second).toBeGreaterThan(3000);
    await page.keyboard.press('ArrowDown');
    await poll(position).toMatch(new RegExp(`^0:0${Math.floor(second / 1000)}\\.`));
    await page.keyboard.press('ArrowUp');
    await poll(position).toMatch(/^0:00\./);
    await page.getByRole('button', { name: 'correct segment 2' }).click();
    await page.getByLabel('corrected text of segment 2').fill('I label this impolite.');
    await page.getByRole('button', { name: 'Save correction' }).click();
    const setLabel = page.getByRole('button', { name: 'Set the label Impolite from the corrected text' });
    await poll(() => setLabel.count()).toBe(1);
    await shootBoth(browser, page, '26-review-correction-label');
    await setLabel.click();
    await poll(async () => (await itemOf('demo-02'))!.label_history.at(-1)).toMatchObject({ source: 'correction', label: 'Impolite' });
  });
});

function poll<T>(read: () => T | Promise<T>, options: { timeout?: number; interval?: number } = {}) {
  return expect.poll(read, { timeout: 15_000, interval: 50, ...options });
}

async function shownItem(page: Page): Promise<string> {
  return (await page.locator('.item-head .counter code').textContent()) ?? '';
}

/** Opens an item from the sidebar (keyboard jumps are the keyboard-model E2E's). */
async function goTo(page: Page, id: string): Promise<void> {
  await page.locator('.item-link', { hasText: id }).click();
  await poll(() => shownItem(page)).toBe(id);
}
