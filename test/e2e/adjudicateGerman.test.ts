/**
 * A lead whose browser says German sees the Adjudicate and Agreement tabs in German: the catalog's words, numbers with
 * a decimal comma, the shortcut help in German; none of the English strings. Switching the interface to English (the
 * choice kept in this profile) shows the English words again. Screenshots of both tabs in both languages at both sizes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { loadProjectConfig } from '../../core/node/project/projectFolder';
import { LANGUAGE_KEY } from '../../renderer/src/shared/i18n/InterfaceLanguage';
import { recordSession } from '../core/node/export/recordSession';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { outside127, serveProject, shootBoth, screenshotsDir, watchRequests } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the German adjudication E2E: ${unavailable}`);

/** The tabs by their place (their names are in the interface language): agreement third, adjudicate fourth. */
const TAB = { agreement: 2, adjudicate: 3 } as const;

/** Buttons in `scope` whose text is cut off (German words are longer): their content wider than their box. */
function clippedButtons(page: Page, scope: string): Promise<string[]> {
  return page
    .locator(`${scope} button`)
    .evaluateAll((buttons: HTMLElement[]) =>
      buttons.filter((b) => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent ?? ''),
    );
}

describe.skipIf(unavailable !== undefined)('Adjudicate and Agreement in German', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    served = await serveProject({ rendererDir, app: { openEngine: null } });
    const project = await loadProjectConfig(served.projectDir);
    await recordSession(project, 'ana', [
      { id: 'demo-01', said: [' I label this polite.'], complete: true },
      { id: 'demo-02', said: [' Friendly enough.', ' I label this polite.'], complete: true },
      { id: 'demo-03', said: [' It apologises, so I label this polite.'], complete: true },
    ]);
    await recordSession(project, 'ben', [
      { id: 'demo-01', said: [' I label this polite.'], complete: true },
      { id: 'demo-02', said: [' Hmm. I label this neutral.', ' Well, it helps. I label this polite.'], complete: true },
      { id: 'demo-03', said: [' Um, I label this impolite.'], complete: true },
    ]);
    await recordSession(project, 'cai', [
      { id: 'demo-01', said: [' I label this polite.'], complete: true },
      { id: 'demo-02', said: [' Sounds curt to me, I label this impolite.'], complete: true },
      { id: 'demo-03', said: [' Just a number. I label this neutral.'], complete: true },
    ]);
    browser = await launchChromium({ screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
    // a browser that says German, as Playwright's `locale` does it: Intl's locale and navigator.languages
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Emulation.setLocaleOverride', { locale: 'de-DE' });
    const userAgent = await page.evaluate(() => navigator.userAgent);
    await cdp.send('Emulation.setUserAgentOverride', { userAgent, acceptLanguage: 'de-DE,de' });
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-adjudicate-de-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  /** In as the lead (the start screen's field by its id: its label is in the interface language too). */
  async function enterAsLead(): Promise<void> {
    await page.locator('#annotator').fill('lead');
    await page.locator('#annotator').press('Enter');
    await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe('lead');
  }

  const tab = (name: keyof typeof TAB) => page.locator('nav.tabs [role="tab"]').nth(TAB[name]);

  it('shows the Adjudicate tab, its shortcut help and the Agreement tab in German', { timeout: 120_000 }, async () => {
    await page.goto(served.host.url);
    expect(await page.evaluate(() => navigator.languages[0])).toBe('de-DE');
    await enterAsLead();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');

    await tab('adjudicate').click();
    await expect.poll(() => page.locator('.adj-main h2').textContent(), { timeout: 15_000 }).toContain('demo-03');
    const queue = page.getByRole('complementary', { name: 'Adjudikations-Warteschlange' });
    expect(await queue.locator('p.muted').first().textContent()).toMatch(/^2 zu adjudizieren · 0 entschieden · 1 einstimmig/);
    // agreement with a decimal comma
    expect(await page.locator('.adj-main h2').textContent()).toMatch(/Übereinstimmung -?\d,\d\d/);
    const decision = page.getByRole('form', { name: 'Entscheidung' });
    for (const german of ['Gold-Label:', 'Konfidenz:', 'Ursachen:', 'Begründung', 'Richtlinien-Hinweis', 'Entscheiden (Enter)', 'hoch'])
      expect(await decision.textContent()).toContain(german);
    const main = (await page.locator('.adjudicate').textContent())!;
    expect(main).toContain('Zeit am Item');
    expect(main).toContain('Festlegungsformel bei');
    for (const english of [
      'to adjudicate',
      'Gold label',
      'Confidence:',
      'Causes:',
      'Decide (Enter)',
      'time on item',
      'commit phrase',
      'Send to a huddle',
    ])
      expect(main).not.toContain(english);
    expect(await clippedButtons(page, '.adjudicate')).toEqual([]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await shootBoth(browser, page, 'i18n-adjudicate-de');

    // the shortcut help in the same language
    await page.keyboard.press('?');
    const help = page.locator('.shortcut-table');
    await expect
      .poll(() => help.textContent(), { timeout: 5_000 })
      .toContain('Gesprochenes Protokoll von Annotator n abspielen oder pausieren');
    expect(await help.textContent()).toContain('Leertaste');
    expect(await help.textContent()).not.toContain('Play or pause');
    await shootBoth(browser, page, 'i18n-adjudicate-help-de');
    await page.keyboard.press('?');

    await tab('agreement').click();
    const agreement = page.locator('section.agreement');
    await expect
      .poll(() => agreement.locator('.alpha-title').allTextContents(), { timeout: 15_000 })
      .toEqual(['Erste (blinde) Labels', 'Finale Labels']);
    for (const value of await agreement.locator('.alpha-value').allTextContents()) expect(value).toMatch(/^(−|-)?\d,\d{3}$|^—$/);
    const text = (await agreement.textContent())!;
    for (const german of ['Aktualisieren', 'Abweichungen (', 'Pro Annotator: erstes → finales Label', 'Zur Mehrheit der anderen hin'])
      expect(text).toContain(german);
    for (const english of ['First (blind) labels', 'Disagreements', 'Refresh', 'Per annotator', 'resamples', 'annotator(s)'])
      expect(text).not.toContain(english);
    await expect.poll(() => agreement.locator('.gold').count(), { timeout: 30_000 }).toBe(1);
    expect(await agreement.locator('.gold h3').textContent()).toBe('Labels mit Fehlerbalken');
    expect(await clippedButtons(page, 'section.agreement')).toEqual([]);
    await shootBoth(browser, page, 'i18n-agreement-de');
    await agreement.locator('.gold').scrollIntoViewIfNeeded();
    await shootBoth(browser, page, 'i18n-agreement-gold-de');
  });

  it('in English once the person chooses English (kept in this profile)', { timeout: 90_000 }, async () => {
    await page.evaluate((key) => localStorage.setItem(key, 'en'), LANGUAGE_KEY);
    await page.reload();
    // the reloaded page shows the start screen or the session, once it has rendered either
    await page.locator('#annotator, nav.tabs').first().waitFor({ timeout: 15_000 });
    if (await page.locator('#annotator').count()) await enterAsLead();
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await tab('adjudicate').click();
    await expect.poll(() => page.locator('.adj-main h2').textContent(), { timeout: 15_000 }).toMatch(/agreement -?\d\.\d\d/);
    const main = (await page.locator('.adjudicate').textContent())!;
    for (const english of ['to adjudicate', 'Gold label:', 'Confidence:', 'Decide (Enter)', 'time on item'])
      expect(main).toContain(english);
    expect(main).not.toContain('Übereinstimmung');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await shootBoth(browser, page, 'i18n-adjudicate-en');
    await tab('agreement').click();
    await expect
      .poll(() => page.locator('section.agreement .alpha-title').allTextContents(), { timeout: 15_000 })
      .toEqual(['First (blind) labels', 'Final labels']);
    await shootBoth(browser, page, 'i18n-agreement-en');
    expect(outside127(requests)).toEqual([]);
    // wavesurfer styles its waveform inline, which the page's CSP refuses (as on the English Adjudicate tab): not this test's subject
    expect(browser.pageErrors.filter((e) => !e.includes('Applying inline style violates'))).toEqual([]);
  });
});
