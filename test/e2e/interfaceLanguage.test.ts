import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { screenshotsDir, serveProject, shootBoth as shootOnly, SIZES, toneAndSilenceWav } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the interface-language E2E: ${unavailable}`);

/** Words of the Start, Label, Review and Settings screens in English that a German screen must not show. */
const ENGLISH = {
  start: ['How it works', 'Start labelling', 'Your annotator name', 'Audio and transcripts stay on this computer'],
  label: ['Record more', 'Go to…', 'Complete ⏎', 'Transcript', 'Pauses', 'Add note', 'Settings'],
  // ("Commitments:" of the model-reasoning panel beside the review is another area's)
  review: ['Show items', 'Longest pause over', 'Speed', 'No pause', 'next / previous segment', 'review keys', 'play from here'],
  settings: ['Interface language', 'Models', 'Microphone', 'Record from', 'Think-aloud thresholds', 'Keep-talking cue'],
};

/** The text a person sees (and the names a screen reader reads) on the page now. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const names = [...document.querySelectorAll('[aria-label],[title],[placeholder]')].map((el) =>
      ['aria-label', 'title', 'placeholder'].map((a) => el.getAttribute(a) ?? '').join(' '),
    );
    return `${document.body.innerText}\n${names.join('\n')}`;
  });
}

/**
 * What longer words could break at either window size: a top bar on two lines, a button whose text is cut, a heading
 * that wraps. Returned as "WIDTHxHEIGHT: what" lines (empty: the screen holds).
 */
async function layoutProblems(page: Page): Promise<string[]> {
  const before = page.viewportSize();
  const problems: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const found = await page.evaluate(() => {
      const out: string[] = [];
      const bar = document.querySelector('.topbar');
      if (bar && bar.getBoundingClientRect().height > 60) out.push(`top bar ${Math.round(bar.getBoundingClientRect().height)} px high`);
      for (const el of document.querySelectorAll<HTMLElement>('button, .tab')) {
        if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1) out.push(`button cut: ${el.textContent?.trim()}`);
      }
      for (const el of document.querySelectorAll<HTMLElement>('h1, h2, h3, th, .modal-head h2')) {
        const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight) || Number.parseFloat(getComputedStyle(el).fontSize) * 1.3;
        if (el.offsetParent !== null && el.getBoundingClientRect().height > lineHeight * 1.6)
          out.push(`heading wraps: ${el.textContent?.trim()}`);
      }
      return out;
    });
    problems.push(...found.map((p) => `${size.width}x${size.height}: ${p}`));
  }
  if (before) await page.setViewportSize(before);
  return problems;
}

/** Screenshots at both sizes, after checking the layout holds at both. */
async function shootBoth(browser: ChromiumSession, page: Page, name: string): Promise<void> {
  expect(await layoutProblems(page), name).toEqual([]);
  await shootOnly(browser, page, name);
}

async function expectGerman(page: Page, german: string[], english: string[]): Promise<void> {
  const text = await visibleText(page);
  for (const words of german) expect(text, `German "${words}"`).toContain(words);
  expect(english.filter((words) => text.includes(words))).toEqual([]);
}

/**
 * A new annotator whose browser says German (Chromium --lang=de-DE, context locale de-DE) sees the Start, Label,
 * Review and Settings screens in German; switching the language in Settings to English changes the screens at once,
 * and the choice is kept after a reload. Screenshots of the four screens in both languages at both window sizes.
 */
describe.skipIf(unavailable !== undefined)('the interface language in Chromium', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    const work = await mkdtemp(path.join(tmpdir(), 'aloud-e2e-lang-'));
    const script = path.join(work, 'engine-script.json');
    // two stretches of "speech" (a tone) with a pause between: the scripted engine answers each with its line
    const clip = path.join(work, 'two-utterances.wav');
    await writeFile(
      clip,
      toneAndSilenceWav([
        [0.5, 'silence'],
        [2, 'tone'],
        [1.5, 'silence'],
        [1.5, 'tone'],
        [4, 'silence'],
      ]),
    );
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 150 },
            { text: ' I label this polite.', delay_ms: 150 },
          ],
        },
      }),
    );
    served = await serveProject({ rendererDir, app: { engineScript: script } });
    browser = await launchChromium({ fakeAudioFile: clip, screenshotsDir, locale: 'de-DE' });
    page = await browser.newPage();
  }, 120_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-lang-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('the browser says German, and the Start screen is German', async () => {
    await page.goto(served.host.url);
    expect(await page.evaluate(() => navigator.language)).toMatch(/^de/);
    await expect.poll(() => page.getByLabel('Ihr Annotator-Name').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByLabel('Ihr Annotator-Name').fill('ana');
    await expectGerman(
      page,
      ['So funktioniert es', 'Mit dem Labeln beginnen', 'Aufnahmen und Transkripte bleiben', 'Leertaste'],
      ENGLISH.start,
    );
    await shootBoth(browser, page, 'lang-de-01-start');
  });

  it('the Label screen is German: recording, the transcript, signals and the shortcut help', { timeout: 90_000 }, async () => {
    await page.getByRole('button', { name: 'Mit dem Labeln beginnen' }).click();
    await expect.poll(() => page.getByLabel('zu labelnde Antwort').count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'Aufnehmen' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Stopp' }).count(), { timeout: 30_000 }).toBe(1);
    // the running clock in German number format (a decimal comma); stop once both utterances (to 5.5 s) are recorded
    await expect.poll(() => page.locator('.clock').textContent(), { timeout: 20_000 }).toMatch(/^[7-9],\d s$/);
    await page.getByRole('button', { name: 'Stopp' }).click();
    await expect.poll(() => page.locator('.clock').textContent(), { timeout: 15_000 }).toMatch(/^\d+,\d s aufgenommen$/);
    await expect.poll(() => page.locator('.final-label').textContent(), { timeout: 20_000 }).toBe('Polite');
    await expect.poll(() => page.getByLabel('Zögersignale').count(), { timeout: 15_000 }).toBe(1);
    await expectGerman(
      page,
      [
        'Weiter aufnehmen',
        'Gehe zu…',
        'Abschließen ⏎',
        'Transkript',
        '(wörtlich)',
        'per Sprache',
        'Pausen',
        'Notiz hinzufügen',
        'Einstellungen',
      ],
      ENGLISH.label,
    );
    await shootBoth(browser, page, 'lang-de-02-label');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Tastenkürzel' });
    await expect.poll(() => help.count()).toBe(1);
    const helpText = (await help.textContent()) ?? '';
    expect(helpText).toContain('Aufnahme starten oder beenden');
    expect(helpText).toContain('Leertaste');
    expect(helpText).toContain('Strg+G');
    expect(helpText).not.toContain('Start or stop recording');
    await shootBoth(browser, page, 'lang-de-03-shortcuts');
    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
  });

  it('the Review screen is German', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Prüfung' }).click();
    await page.getByRole('button', { name: /^demo-01/ }).click();
    await expect.poll(() => page.getByLabel('Wellenform von demo-01').getAttribute('data-ready'), { timeout: 20_000 }).toBe('true');
    await expectGerman(page, ['Items anzeigen', 'Längste Pause über', 'Tempo', 'Festlegungen', 'Wiedergabe / Pause'], ENGLISH.review);
    // a position in the recording in German number format
    expect(await page.locator('.clock').textContent()).toMatch(/^0:00,0 \/ 0:\d\d,\d$/);
    await shootBoth(browser, page, 'lang-de-04-review');
  });

  it('Settings is German; choosing English changes the screens at once and is kept after a reload', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Einstellungen' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Modelle' }).count(), { timeout: 15_000 }).toBe(1);
    await expectGerman(
      page,
      ['Sprache der Oberfläche', 'Mikrofon', 'Aufnehmen von', 'Schwellenwerte für lautes Denken', 'Hinweis zum Weitersprechen'],
      ENGLISH.settings,
    );
    await shootBoth(browser, page, 'lang-de-05-settings');

    await page.getByRole('combobox', { name: 'Sprache der Oberfläche' }).selectOption('en');
    await expect.poll(() => page.getByRole('heading', { name: 'Models' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.getByRole('tab', { name: 'Settings' }).count()).toBe(1);
    await shootBoth(browser, page, 'lang-en-05-settings');
    await page.getByRole('tab', { name: 'Review' }).click();
    await expect.poll(() => page.getByLabel('waveform of demo-01').getAttribute('data-ready'), { timeout: 20_000 }).toBe('true');
    expect(await visibleText(page)).toContain('Show items');
    await shootBoth(browser, page, 'lang-en-04-review');
    await page.getByRole('tab', { name: 'Label' }).click();
    await expect.poll(() => page.getByLabel('reply to label').count(), { timeout: 15_000 }).toBe(1);
    expect(await visibleText(page)).toContain('Transcript');
    await shootBoth(browser, page, 'lang-en-02-label');

    await page.reload();
    await expect.poll(() => page.getByLabel('Your annotator name').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const text = await visibleText(page);
    expect(text).toContain('How it works');
    expect(text).not.toContain('So funktioniert es');
    await shootBoth(browser, page, 'lang-en-01-start');
    expect(browser.pageErrors).toEqual([]);
  });
});
