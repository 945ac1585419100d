import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { binaryRoute } from '../../core/common/contract/transportNames';
import { fixtureAudio, screenshotsDir, serveProject, shootBoth } from './appHarness';

const clip = fixtureAudio('commit-polite.wav');
const unavailable = chromiumUnavailableReason([clip]);
if (unavailable) console.warn(`skipping the speculative-final E2E: ${unavailable}`);

/** What the transcript showed each time it changed: its text, and how the not-yet-cut text looked. */
interface Seen {
  at: number;
  text: string;
  /** the speculative final: its text (without the mark), whether the still-listening mark is there, its colour and style */
  speculative: { text: string; mark: boolean; color: string; fontStyle: string } | null;
  /** the partial's text, and its colour */
  partial: { text: string; color: string; fontStyle: string } | null;
  /** the final's colour (a plain span of the transcript), to compare the speculative final's look with */
  finalColor: string | null;
  commitFinal: string | null;
}

/**
 * Records every state of the transcript in the page itself (a MutationObserver), so a state shown for 300 ms is not
 * missed; from the moment a speculative final holding `holdUploadsOn` is shown, the page's audio uploads wait (in the
 * page's fetch, so not one more chunk reaches the host) until `__release()`: the host hears no more silence and
 * cannot cut, as on a slow host, so the state can be photographed.
 */
async function watchTranscript(page: Page, hold: { holdUploadsOn: string; audioRoute: string }): Promise<void> {
  await page.evaluate(({ holdUploadsOn, audioRoute }) => {
    const w = window as unknown as { __seen: unknown[]; __holding: boolean; __release: () => void };
    w.__seen = [];
    w.__holding = false;
    let released = false;
    const letGo = new Promise<void>((resolve) => {
      w.__release = () => {
        released = true;
        w.__holding = false;
        resolve();
      };
    });
    const fetchOf = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      if (w.__holding && String(input instanceof Request ? input.url : input).includes(audioRoute)) await letGo;
      return fetchOf(input, init);
    };
    const started = performance.now();
    const record = (): void => {
      const text = document.querySelector('.transcript-text');
      if (!text) return;
      const speculative = text.querySelector('.speculative-final');
      if (!released && speculative?.textContent?.includes(holdUploadsOn)) w.__holding = true;
      const partial = text.querySelector('.partial');
      const plain = text.querySelector(':scope > span:not(.partial):not(.speculative-final):not(.filler)');
      const mark = speculative?.querySelector('.still-listening');
      w.__seen.push({
        at: Math.round(performance.now() - started),
        text: text.textContent ?? '',
        speculative: speculative
          ? {
              text: (speculative.textContent ?? '').replace(mark?.textContent ?? '', '').trim(),
              mark: mark !== null && mark !== undefined,
              color: getComputedStyle(speculative).color,
              fontStyle: getComputedStyle(speculative).fontStyle,
            }
          : null,
        partial: partial
          ? {
              text: (partial.textContent ?? '').trim(),
              color: getComputedStyle(partial).color,
              fontStyle: getComputedStyle(partial).fontStyle,
            }
          : null,
        finalColor: plain ? getComputedStyle(plain).color : null,
        commitFinal: text.querySelector('mark.commit.final')?.textContent ?? null,
      });
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, hold);
}

/**
 * The Label screen while the annotator speaks (browser mode, the fake microphone playing commit-polite.wav once, a
 * scripted engine that answers at once): "I label this polite." shows greyed while it is said, then — once the speech
 * has ended, before the pause is long enough to cut — as final text with the faint still-listening mark, then as the
 * final transcript with its commit phrase marked. The speculative final lasts until the pause is long enough to cut
 * (a few hundred ms); for its screenshots the page's audio uploads are held from the moment it shows (as on a slow
 * host: the host hears no more silence, so it cannot cut yet), then let go. Screenshots: label-speculative-final and label-final-after-cut.
 */
describe.skipIf(unavailable !== undefined)('the speculative final on the Label screen', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined, { force: true });
    const script = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-e2e-speculative-')), 'engine-script.json');
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 0 },
            { text: ' I label this polite.', delay_ms: 0 },
          ],
        },
      }),
    );
    served = await serveProject({ rendererDir, app: { engineScript: script } });
    browser = await launchChromium({ fakeAudioFile: clip, screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it(
    'shows the speculative final in the final style with its mark, then the final; only the final is logged',
    { timeout: 180_000 },
    async () => {
      await page.goto(served.host.url);
      await page.getByLabel('Your annotator name').fill('ana');
      await page.getByRole('button', { name: 'Start labelling' }).click();
      await expect.poll(() => page.getByLabel('reply to label').textContent()).toContain('Thank you so much for your patience');
      await page.keyboard.press('Space');
      await expect.poll(() => page.getByRole('button', { name: 'Stop' }).count(), { timeout: 30_000 }).toBe(1);
      await watchTranscript(page, { holdUploadsOn: 'I label this polite.', audioRoute: binaryRoute('appendAudio') });
      await page
        .waitForFunction(() => (window as unknown as { __holding: boolean }).__holding, undefined, { timeout: 45_000, polling: 100 })
        .catch(async (e: unknown) => {
          const seen = await page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
          throw new Error(`${(e as Error).message}; the transcript's last states: ${JSON.stringify(seen.slice(-6))}`);
        });
      await shootBoth(browser, page, 'label-speculative-final');
      // still shown after both screenshots: saved audio (an item change) does not take it away, only its final does
      expect(await page.locator('.speculative-final .still-listening').count()).toBe(1);
      await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
      await expect
        .poll(() => page.locator('.transcript-text mark.commit.final').textContent(), { timeout: 30_000 })
        .toBe('I label this polite');
      await shootBoth(browser, page, 'label-final-after-cut');
      await page.keyboard.press('Space');
      await expect.poll(() => page.locator('.clock').textContent(), { timeout: 45_000 }).toMatch(/s recorded$/);

      const seen = await page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
      const speculativeAt = seen.findIndex((s) => s.speculative?.text === 'I label this polite.');
      expect(speculativeAt).toBeGreaterThanOrEqual(0);
      const shown = seen[speculativeAt]!;
      // the final style: the transcript's own colour, upright — not the partial's grey italic — and the still-listening mark
      expect(shown.speculative!.mark).toBe(true);
      expect(shown.speculative!.fontStyle).toBe('normal');
      if (shown.finalColor !== null) expect(shown.speculative!.color).toBe(shown.finalColor);
      const partialLook = seen.find((s) => s.partial !== null)?.partial;
      expect(partialLook?.fontStyle).toBe('italic');
      expect(shown.speculative!.color).not.toBe(partialLook?.color);
      // not yet the transcript: no commit phrase marked while it is speculative
      expect(shown.commitFinal).toBeNull();
      // then the final: the same words, now the transcript, the phrase marked, the mark gone
      const finalAt = seen.findIndex((s) => s.commitFinal === 'I label this polite');
      expect(finalAt).toBeGreaterThan(speculativeAt);
      expect(seen[finalAt]!.speculative).toBeNull();
      expect(seen[finalAt]!.text).toContain('I label this polite.');
      // one label act, from the final at the cut
      const log = await readFile(path.join(served.projectDir, 'sessions', 'ana', 'events.jsonl'), 'utf8');
      expect(log.match(/"type":"label_committed"/g)).toHaveLength(1);
      expect(await page.locator('.final-label').textContent()).toBe('Polite');
    },
  );
});
