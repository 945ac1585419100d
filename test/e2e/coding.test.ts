import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { parseSessionLog } from '../../core/common/session/sessionLog';
import { AppService } from '../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { sessionPaths } from '../../core/node/session/sessionPaths';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { codingStudy } from '../core/node/coding/codingStudy';
import { outside127, screenshotsDir, shootBoth, unlabelledControls, watchRequests } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the coding E2E: ${unavailable}`);

/**
 * Coding in Review, in headless Chromium against the browser-mode host: Ana's three completed protocols (recorded
 * through the session store), a codebook with keys, blind coding on. Bob codes the three items by keyboard (with an
 * undo, an in-vivo proposal the lead then adds to the codebook); Cat codes blind — nothing of Bob's on her page until
 * she finishes an item; the Agreement tab shows α per code, the figures `agreement --codes` computes.
 */
describe.skipIf(unavailable !== undefined)('coding the protocols in Chromium', () => {
  let dir: string;
  let app: AppService;
  let host: HttpHost;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    ({ dir } = await codingStudy({ configExtra: 'coding:\n  blind: true' }));
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    host = await startHttpHost({ app, rendererDir });
    browser = await launchChromium({ screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
  }, 180_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-coding-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await app?.close();
  });

  const startAs = async (name: string) => {
    await page.goto(host.url);
    await page.getByLabel('Your annotator name').fill(name);
    await page.getByLabel('Your annotator name').press('Enter');
    await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe(name);
    await page.getByRole('tab', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Code protocols…' }).click();
    await expect.poll(() => page.locator('.coding-unit').count(), { timeout: 15_000 }).toBeGreaterThan(0);
  };
  const current = () => page.locator('.coding-unit.current');
  const protocolHead = () => page.locator('.coding-main .counter').textContent();
  const mineOn = (unit: string) => page.locator(`.coding-unit[data-unit="${unit}"] .code-chip.mine`).allTextContents();
  const press = async (key: string) => {
    await page.keyboard.press(key);
  };

  it('a coder codes three items by keyboard, with the definitions at hand, undo and an in-vivo code', { timeout: 120_000 }, async () => {
    await startAs('bob');
    expect(await protocolHead()).toContain('demo-01');
    expect(await current().getAttribute('data-unit')).toBe('u0');

    // definitions: hover shows one, ? lists them all
    await page.getByRole('button', { name: /Cites the guideline/ }).hover();
    await expect.poll(() => page.locator('.code-definition').textContent()).toContain('Names a rule of the guidelines.');
    await press('?');
    await expect
      .poll(() => page.getByRole('dialog', { name: 'Codebook and shortcuts' }).textContent())
      .toContain('The annotator says they are unsure.');
    await shootBoth(browser, page, '31-coding-definitions');
    await press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // demo-01: Doubts on u0, Cites the guideline on u1, then words of u1 proposed as a new code
    await press('d');
    await expect.poll(() => mineOn('u0')).toEqual(['Doubts×']);
    await press('ArrowDown');
    await press('g');
    await expect.poll(() => mineOn('u1')).toEqual(['Cites the guideline×']);
    await page.locator('.coding-unit[data-unit="u1"] .unit-text').evaluate((el) => {
      const text = el.firstChild!;
      const range = document.createRange();
      range.setStart(text, 3);
      range.setEnd(text, 18);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      el.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
    });
    await expect.poll(() => page.locator('button.propose').textContent()).toContain('thanks the user');
    await press('n');
    await expect.poll(() => page.locator('.proposals').textContent(), { timeout: 10_000 }).toContain('thanks the user');
    await shootBoth(browser, page, '30-coding');
    await press('Enter');
    // blind and first: nothing of others to show, so on to the next protocol
    await expect.poll(protocolHead).toContain('demo-02');

    // demo-02: Cites on u0, Doubts on u1 taken back with Ctrl+Z
    await press('g');
    await press('ArrowDown');
    await press('d');
    await expect.poll(() => mineOn('u1')).toEqual(['Doubts×']);
    await press('Control+z');
    await expect.poll(() => mineOn('u1')).toEqual([]);
    await press('Enter');
    await expect.poll(protocolHead).toContain('demo-03');

    // demo-03: Doubts on u0 and at once a memo on it (m right after d: the memo waits for the code's answer)
    await press('d');
    await press('m');
    const memo = page.getByRole('dialog', { name: 'Memo on u0' });
    await expect.poll(() => memo.count()).toBe(1);
    await memo.getByRole('textbox').fill('hedges twice');
    await memo.getByRole('button', { name: 'Save memo' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.locator('.coding-unit[data-unit="u0"] .memo-mark').getAttribute('title')).toBe('memo: hedges twice');
    expect(await mineOn('u0')).toEqual(['Doubts ✎×']);
    await press('Enter');
    await expect.poll(() => page.locator('.coding-notice').textContent()).toContain('Every protocol you can code is finished');

    // the lead adds the proposal to the codebook (a definition is required)
    await page.locator('.proposals').getByRole('button', { name: 'Add to codebook…' }).click();
    await page.getByLabel('Definition').fill('Says the reply thanks the user.');
    await page.getByRole('button', { name: 'Add to codebook', exact: true }).click();
    await expect.poll(() => page.locator('.code-list').textContent()).toContain('thanks the user');
    expect(await readFile(path.join(dir, 'codebook.yaml'), 'utf8')).toContain('definition: Says the reply thanks the user.');

    // the record: bob's own log, every act by key with the codebook version it was made under
    const file = sessionPaths(dir, 'bob').events;
    const events = parseSessionLog(await readFile(file, 'utf8'), file).events;
    const acts = events
      .filter((e) => e.type === 'code_applied' || e.type === 'code_removed')
      .map((e) => {
        const d = e.data as { item_id: string; unit: string; code: string; source: string };
        return `${e.type === 'code_applied' ? '+' : '-'}${d.item_id}/${d.unit}/${d.code}/${d.source}`;
      });
    expect(acts).toEqual([
      '+demo-01/u0/Doubts/key',
      '+demo-01/u1/Cites the guideline/key',
      '+demo-02/u0/Cites the guideline/key',
      '+demo-02/u1/Doubts/key',
      '-demo-02/u1/Doubts/undo',
      '+demo-03/u0/Doubts/key',
    ]);
    expect(events.filter((e) => e.type === 'coding_finished').map((e) => (e.data as { item_id: string }).item_id)).toEqual([
      'demo-01',
      'demo-02',
      'demo-03',
    ]);
    expect(events.filter((e) => e.type === 'coding_memo').map((e) => e.data)).toMatchObject([
      { item_id: 'demo-03', unit: 'u0', code: 'Doubts', text: 'hedges twice' },
    ]);
    expect(events.filter((e) => e.type === 'code_proposed').map((e) => (e.data as { name: string }).name)).toEqual(['thanks the user']);
    expect(await unlabelledControls(page)).toEqual([]);
  });

  it(
    "a second coder codes blind: the host sends nothing of the first coder's codes until she finished the item",
    { timeout: 120_000 },
    async () => {
      // every answer of the host's coding domain to this page, until she finished demo-01
      const answers: string[] = [];
      const listen = (response: Response) => {
        if (/\/api\/call\/(coding|code)/.test(response.url()))
          void response.text().then(
            (t) => answers.push(t),
            () => undefined,
          );
      };
      page.on('response', listen);
      await startAs('cat');
      expect(await protocolHead()).toContain('demo-01');
      await expect.poll(() => page.locator('.blind-note').textContent()).toContain('Blind coding');
      expect(await page.locator('.code-chip.other').count()).toBe(0);
      expect(await page.locator('main').textContent()).not.toContain('bob');
      await shootBoth(browser, page, '32-coding-blind');

      await press('d');
      await press('ArrowDown');
      await press('ArrowDown');
      await press('r');
      await expect.poll(() => mineOn('u2')).toEqual(['Reasons×']);
      await expect.poll(() => answers.some((a) => a.includes('"Reasons"'))).toBe(true);
      page.off('response', listen);
      expect(answers.filter((a) => a.includes('bob'))).toEqual([]);
      await press('Enter');
      // Enter finishes and goes on, as the help says; the notice says bob's codes on demo-01 are there to compare
      await expect.poll(protocolHead, { timeout: 10_000 }).toContain('demo-02');
      expect(await page.locator('.coding-notice').textContent()).toContain(
        "The other coders' codes on demo-01 are shown now: PgUp to compare",
      );
      expect(await page.locator('.code-chip.other').count()).toBe(0);
      await press('PageUp');
      await expect.poll(protocolHead).toContain('demo-01');
      // finished: now bob's codes are shown beside hers
      await expect
        .poll(() => page.locator('.code-chip.other').allTextContents(), { timeout: 10_000 })
        .toEqual(['bob: Doubts', 'bob: Cites the guideline']);
      await shootBoth(browser, page, '33-coding-revealed');
      // a code on the finished protocol is not taken without an explicit edit
      await page.locator('.coding-unit[data-unit="u1"] .unit-text').click();
      await press('g');
      await expect
        .poll(() => page.locator('.coding-notice').textContent())
        .toContain('demo-01 is finished: to change its codes, choose “Edit codes” first');
      expect(await mineOn('u1')).toEqual([]);
      // having seen bob's, she chooses to edit and clicks his code onto u1 too: the record keeps it (after finishing), α will not count it
      await page.getByRole('button', { name: 'Edit codes' }).click();
      await page
        .locator('.code-list')
        .getByRole('button', { name: /Cites the guideline/ })
        .click();
      await expect.poll(() => mineOn('u1')).toEqual(['Cites the guideline×']);
      await shootBoth(browser, page, '33b-coding-edit-after-finished');
      // the keys work after those clicks: Enter finishes the edit and goes on to the next protocol
      await press('Enter');
      await expect.poll(protocolHead).toContain('demo-02');
      expect(await page.locator('.code-chip.other').count()).toBe(0);
      // keys typed at once after Enter are for the next protocol: they never land on the one just finished
      for (const key of ['g', 'ArrowDown', 'd', 'Enter', 'd']) await page.keyboard.press(key);
      await expect.poll(protocolHead).toContain('demo-03');
      await expect.poll(() => mineOn('u0')).toEqual(['Doubts×']);
      await press('Enter');
      await expect.poll(() => page.locator('.coding-notice').textContent()).toContain('Every protocol you can code is finished');
      await expect.poll(() => page.locator('.code-chip.other').count()).toBe(1);
      const catFile = sessionPaths(dir, 'cat').events;
      const catActs = parseSessionLog(await readFile(catFile, 'utf8'), catFile)
        .events.filter((e) => e.type === 'code_applied' || e.type === 'code_removed')
        .map((e) => {
          const d = e.data as { item_id: string; unit: string; code: string; after_finished: boolean };
          return `${e.type === 'code_applied' ? '+' : '-'}${d.item_id}/${d.unit}/${d.code}${d.after_finished ? ' (after finishing)' : ''}`;
        });
      expect(catActs).toEqual([
        '+demo-01/u0/Doubts',
        '+demo-01/u2/Reasons',
        '+demo-01/u1/Cites the guideline (after finishing)',
        '+demo-02/u0/Cites the guideline',
        '+demo-02/u1/Doubts',
        '+demo-03/u0/Doubts',
      ]);
      // a protocol clicked in the list: the keys act on it
      await page
        .locator('.coding-protocols')
        .getByRole('button', { name: /demo-01/ })
        .click();
      await expect.poll(protocolHead).toContain('demo-01');
      await press('ArrowDown');
      await expect.poll(() => current().getAttribute('data-unit')).toBe('u1');
    },
  );

  it('the Agreement tab shows α per code, as agreement --codes computes it', { timeout: 60_000 }, async () => {
    await page.getByRole('tab', { name: 'Agreement' }).click();
    const table = page.locator('table.code-alphas');
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 20_000 }).toBe(4);
    const alphaOf = (code: string) => table.locator(`tr[data-code="${code}"] td.alpha`).textContent();
    // 7 units: Doubts bob (01u0, 03u0), cat (01u0, 02u1, 03u0): α = 1 − 13·2/(2·9·5) = 0.711
    expect(await alphaOf('Doubts')).toBe('0.711');
    // Cites: bob (01u1, 02u0), cat (02u0): α = 1 − 13·2/(2·3·11) = 0.606; Reasons: cat alone on 01u2: α = 0.000
    expect(await alphaOf('Cites the guideline')).toBe('0.606');
    expect(await alphaOf('Reasons')).toBe('0.000');
    expect(await alphaOf('thanks the user')).toBe('not enough data: the code never varies');
    // blind coding: cat's Cites on 01u1, clicked after she saw bob's, is not in α (above) but is said
    expect(await page.locator('.code-agreement .basis').textContent()).toContain('1 unit recoded after finishing counts as first given');
    const report = await app.codeAgreement();
    expect(report.codes.find((c) => c.code === 'Doubts')!.alpha).toBeCloseTo(0.7111, 4);
    expect(report).toMatchObject({ basis: 'blind', changed_after_finished: 1 });
    expect(await page.locator('table.code-disagreements tbody tr').count()).toBe(report.disagreements.length);
    expect(await page.locator('table.code-disagreements').textContent()).toContain('It thanks the user.');
    await page.locator('.code-agreement').scrollIntoViewIfNeeded();
    await shootBoth(browser, page, '34-agreement-codes');
    expect(outside127(requests)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it(
    'keys typed faster than the host answers do what they do slowly: a code after PgDn codes the next protocol',
    { timeout: 60_000 },
    async () => {
      await startAs('dan');
      expect(await protocolHead()).toContain('demo-01');
      // no waiting between the keys
      for (const key of ['d', 'ArrowDown', 'd', 'g', 'PageDown', 'g']) await page.keyboard.press(key);
      await expect.poll(protocolHead).toContain('demo-02');
      await expect.poll(() => mineOn('u0')).toEqual(['Cites the guideline×']);
      const file = sessionPaths(dir, 'dan').events;
      const acts = parseSessionLog(await readFile(file, 'utf8'), file)
        .events.filter((e) => e.type === 'code_applied' || e.type === 'code_removed')
        .map((e) => {
          const d = e.data as { item_id: string; unit: string; code: string };
          return `${e.type === 'code_applied' ? '+' : '-'}${d.item_id}/${d.unit}/${d.code}`;
        });
      expect(acts).toEqual([
        '+demo-01/u0/Doubts',
        '+demo-01/u1/Doubts',
        '+demo-01/u1/Cites the guideline',
        '+demo-02/u0/Cites the guideline',
      ]);
    },
  );
});
