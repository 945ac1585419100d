import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { AppService } from '../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { codingStudy } from '../core/node/coding/codingStudy';
import { screenshotsDir, shootBoth, unlabelledControls } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the German coding/project E2E: ${unavailable}`);

/**
 * A browser that says German (Chromium's --lang; headless Chromium takes the languages from --accept-lang) gets the
 * Coding, Agreement-on-codes, Project and room panels in German, numbers formatted the German way; the person's choice
 * of English in this profile then overrides the system. The way through the start and Review screens (other folders'
 * words) goes by structure, not by text, so it holds whichever language those screens speak.
 */
describe.skipIf(unavailable !== undefined)('Coding and Project in German for a German browser', () => {
  let app: AppService;
  let host: HttpHost;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    const { dir } = await codingStudy();
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    host = await startHttpHost({ app, rendererDir });
    browser = await launchChromium({ screenshotsDir, extraArgs: ['--lang=de-DE', '--accept-lang=de-DE,de'] });
    page = await browser.newPage();
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-german-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await app?.close();
  });

  const TAB = { label: 0, review: 1, agreement: 2, project: 4 } as const;
  const tab = (which: keyof typeof TAB) => page.locator('nav.tabs [role="tab"]').nth(TAB[which]);
  const startAs = async (name: string) => {
    await page.goto(host.url);
    await page.locator('#annotator').fill(name);
    await page.locator('#annotator').press('Enter');
    await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe(name);
  };
  const openCoding = async () => {
    await tab('review').click();
    await page.locator('button.code-protocols').click();
    await expect.poll(() => page.locator('.coding-unit').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  };
  const mainText = async () => (await page.locator('main').textContent()) ?? '';
  const mineOn = (unit: string) => page.locator(`.coding-unit[data-unit="${unit}"] .code-chip.mine`).allTextContents();

  it('the coding screen, its shortcut help and the agreement on codes are German', { timeout: 120_000 }, async () => {
    await startAs('bob');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await openCoding();
    const coding = await mainText();
    for (const german of ['Item abschließen', 'Rückgängig', 'Definitionen', 'Codebuch', 'Protokoll von ana', 'Einheit', 'abgeschlossen'])
      expect(coding, german).toContain(german);
    for (const english of ['Finish item', 'Undo', 'Definitions', 'Codebook', 'protocol · unit', 'finished', 'Point at a code'])
      expect(coding, english).not.toContain(english);
    expect(await page.locator('.coding-main').getAttribute('aria-label')).toBe('Einheiten des Protokolls');
    await shootBoth(browser, page, 'de-30-coding');

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Codebuch und Tastenkürzel' });
    await expect.poll(() => help.count()).toBe(1);
    const helpText = (await help.textContent()) ?? '';
    for (const german of ['Strg+Z', 'Bild↓', 'Nächste / vorherige Einheit', 'Beispiel: I am not sure', '(unter Reasons)'])
      expect(helpText, german).toContain(german);
    for (const english of ['Ctrl+Z', 'PgDn', 'Next / previous unit', 'Example:', '(under Reasons)'])
      expect(helpText, english).not.toContain(english);
    await shootBoth(browser, page, 'de-31-coding-definitions');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // a memo without a code is refused in German; then Doubts on u0 and u1, and the item finished
    await page.keyboard.press('m');
    await expect.poll(() => page.locator('.coding-notice').textContent()).toContain('geben Sie der Einheit zuerst einen Code');
    await page.keyboard.press('d');
    await expect.poll(() => mineOn('u0')).toEqual(['Doubts×']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('d');
    await expect.poll(() => mineOn('u1')).toEqual(['Doubts×']);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.coding-main .counter').textContent()).toContain('demo-02');
    expect(await unlabelledControls(page)).toEqual([]);

    // a second coder on demo-01 (Doubts on u0 only), so α has something to say
    await startAs('cat');
    await openCoding();
    await page.keyboard.press('d');
    await expect.poll(() => mineOn('u0')).toEqual(['Doubts×']);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.coding-main .counter').textContent()).toContain('demo-02');

    await tab('agreement').click();
    const panel = page.locator('.code-agreement');
    await expect.poll(() => panel.locator('h3').first().textContent(), { timeout: 20_000 }).toBe('Übereinstimmung bei Codes');
    // α with a decimal comma and three digits; an interval's bounds apart by a semicolon
    await expect.poll(() => panel.locator('tr[data-code="Doubts"] td.alpha').textContent()).toMatch(/^-?\d,\d{3}$/);
    const agreement = (await panel.textContent()) ?? '';
    for (const german of ['Krippendorffs α', 'Paarbare Einheiten', 'Codes nach Zögern', 'Vor einer langen Pause', 'zu wenige Daten'])
      expect(agreement, german).toContain(german);
    for (const english of ['Pairable units', 'Codes by hesitation', 'not enough data', ' ms before'])
      expect(agreement, english).not.toContain(english);
    const intervals = await panel.locator('table.code-alphas td:nth-child(3)').allTextContents();
    for (const bounds of intervals.filter((t) => t !== '—')) expect(bounds).toMatch(/^\[-?\d,\d{3}; -?\d,\d{3}\]$/);
    await panel.scrollIntoViewIfNeeded();
    await shootBoth(browser, page, 'de-34-agreement-codes');
    const room = page.locator('.room-panel');
    expect(await room.locator('h3').textContent()).toBe('Kalibrierungsraum');
    expect(await room.textContent()).toContain('Huddle zu');
    // the lead's room, open on one item: German words around the code and address, then closed
    await room.locator('details summary').click();
    await room.locator('.room-item-choice input').first().check();
    await expect.poll(() => room.textContent()).toContain('Raum zu 1 gewählten Item öffnen');
    await room.getByRole('button', { name: 'Raum zu 1 gewählten Item öffnen' }).click();
    await expect.poll(() => room.locator('.room-code').textContent(), { timeout: 15_000 }).toMatch(/^[A-Z0-9]{6}$/);
    const open = (await room.textContent()) ?? '';
    for (const german of [
      'Mitglieder öffnen',
      'nur auf diesem Computer',
      '0 von',
      'Live-α über 0 aufgedeckte Items',
      'verborgen bis zum Aufdecken',
    ])
      expect(open, german).toContain(german);
    for (const english of ['Members open', 'hidden until revealed', 'Live α over']) expect(open, english).not.toContain(english);
    await room.scrollIntoViewIfNeeded();
    await shootBoth(browser, page, 'de-35-lead-room');
    await room.getByRole('button', { name: 'Raum schließen' }).click();
    await expect.poll(() => room.textContent(), { timeout: 15_000 }).toMatch(/Raum [A-Z0-9]{6} ist geschlossen\./);
  });

  it('the Project screen and the shadow room offer are German', { timeout: 60_000 }, async () => {
    await tab('project').click();
    await expect.poll(() => page.locator('#open-title').textContent(), { timeout: 10_000 }).toBe('Projekte');
    const project = await mainText();
    for (const german of [
      'Jetzt geöffnet',
      '20 Items',
      'Items in dieses Projekt importieren',
      'Sitzungen der Annotatoren einsammeln',
      'Projekt anlegen',
      'Anlegen und öffnen',
    ])
      expect(project, german).toContain(german);
    for (const english of ['Open now', 'Import items into this project', 'Collect annotators', 'Create a project', 'Create and open'])
      expect(project, english).not.toContain(english);
    // the example labels of a new project are German too (they become its labels unless changed)
    expect(await page.locator('#create-labels').inputValue()).toBe('Höflich 1\nUnhöflich 2\nNeutral 3');
    expect(await page.locator('#import-file').getAttribute('placeholder')).toBe('/Pfad/zu/items.jsonl');
    expect(await page.locator('#import-file ~ select option').allTextContents()).toEqual(['zu den Items hinzufügen', 'die Items ersetzen']);
    await shootBoth(browser, page, 'de-40-project');

    await tab('label').click();
    await page.locator('.shadow-room button.link').click();
    const offer = page.locator('.shadow-offer');
    await expect.poll(() => offer.getAttribute('aria-label')).toBe('Hospitationsraum');
    expect(await offer.textContent()).toContain('Lassen Sie Trainees live zusehen.');
    expect(await offer.textContent()).not.toContain('Let trainees watch you');
    await shootBoth(browser, page, 'de-41-shadow-offer');
    await offer.getByRole('button', { name: 'Hospitationsraum öffnen' }).click();
    const shadow = page.locator('.shadow-room.open');
    await expect.poll(() => shadow.textContent(), { timeout: 15_000 }).toContain('noch keine Trainees');
    expect(await shadow.textContent()).toMatch(/Hospitationsraum [A-Z0-9]{6}/);
    expect(await shadow.textContent()).toContain('(nur dieser Computer)');
    await shootBoth(browser, page, 'de-42-shadow-open');
    await shadow.getByRole('button', { name: 'Raum schließen' }).click();
    await expect.poll(() => page.locator('.shadow-room button.link').textContent(), { timeout: 15_000 }).toBe('Hospitationsraum…');
  });

  it('English chosen in this profile overrides the German system: the same screens in English', { timeout: 90_000 }, async () => {
    await page.evaluate(() => localStorage.setItem('aloud.interfaceLanguage', 'en'));
    await startAs('bob');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await openCoding();
    expect(await mainText()).toContain('Finish item');
    expect(await mainText()).not.toContain('Item abschließen');
    await shootBoth(browser, page, 'en-30-coding');
    await page.keyboard.press('?');
    await expect.poll(() => page.getByRole('dialog', { name: 'Codebook and shortcuts' }).textContent()).toContain('Ctrl+Z');
    await shootBoth(browser, page, 'en-31-coding-definitions');
    await page.keyboard.press('Escape');
    await tab('agreement').click();
    const panel = page.locator('.code-agreement');
    await expect.poll(() => panel.locator('tr[data-code="Doubts"] td.alpha').textContent(), { timeout: 20_000 }).toMatch(/^-?\d\.\d{3}$/);
    await panel.scrollIntoViewIfNeeded();
    await shootBoth(browser, page, 'en-34-agreement-codes');
    await tab('project').click();
    await expect.poll(() => page.locator('#open-title').textContent(), { timeout: 10_000 }).toBe('Projects');
    expect(await page.locator('#create-labels').inputValue()).toBe('Polite 1\nImpolite 2\nNeutral 3');
    await shootBoth(browser, page, 'en-40-project');
    await tab('label').click();
    await page.locator('.shadow-room button.link').click();
    await expect.poll(() => page.locator('.shadow-offer').getAttribute('aria-label')).toBe('shadow room');
    await shootBoth(browser, page, 'en-41-shadow-offer');
    await page.evaluate(() => localStorage.removeItem('aloud.interfaceLanguage'));
    expect(browser.pageErrors).toEqual([]);
  });
});
