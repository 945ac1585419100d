import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { AppService } from '../../core/node/app/appService';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import type { ExportRecordV2 } from '../../core/common/export/exportRecord';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { cli } from '../helpers/cli';
import { canSpeak, spokenNameProject } from '../core/node/deidentify/deidentifySpoken';
import { outside127, screenshotsDir, watchRequests } from './appHarness';

const unavailable = chromiumUnavailableReason([]) ?? (canSpeak ? undefined : 'espeak-ng and sox are needed to speak the name');
if (unavailable) console.warn(`skipping de-identification review E2E: ${unavailable}`);

/**
 * Review before sharing, in Chromium: bob's recording of demo-01 names Sarah (twice), Leipzig and a phone number; the
 * reviewer accepts the first Sarah, rejects Leipzig (kept in the export), and adds the missed word "manager" as ORG.
 * The decisions are events in bob's review log (who, when, span, class; no text), and the export follows them.
 */
describe.skipIf(unavailable !== undefined)('de-identification review in Chromium: accept, reject, add', () => {
  let projectDir: string;
  let app: AppService;
  let host: HttpHost;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    ({ dir: projectDir } = await spokenNameProject());
    app = await AppService.open({ projectDir, mode: 'browser', openEngine: null });
    host = await startHttpHost({ app, rendererDir });
    browser = await launchChromium({ screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
  }, 240_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-deidentify-${context.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
  });

  it('lists the matches with their audio, and logs accept, reject and add as decisions', { timeout: 120_000 }, async () => {
    await page.goto(host.url);
    await page.getByLabel('Your annotator name').fill('bob');
    await page.getByRole('button', { name: /^(Start labelling|Continue as bob)$/ }).click();
    await expect.poll(() => page.locator('.annotator').textContent()).toBe('bob');
    await page.getByRole('tab', { name: 'Review' }).click();
    const panel = page.getByRole('region', { name: 'de-identification review' });
    const rows = panel.getByRole('list', { name: 'spans to hide' }).locator('li');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(4);
    expect(await rows.locator('.span-text').allTextContents()).toEqual(['Sarah', 'Leipzig', 'Sarah', '555 1234']);
    expect(await rows.locator('.class-badge').allTextContents()).toEqual(['PERSON', 'PLACE', 'PERSON', 'PHONE']);
    expect(await panel.getByRole('button', { name: /^play PERSON "Sarah" at / }).count()).toBe(2);

    await panel
      .getByRole('button', { name: /^accept PERSON "Sarah" at / })
      .first()
      .click();
    await expect.poll(() => rows.nth(0).getAttribute('data-decision')).toBe('accept');
    await panel.getByRole('button', { name: /^reject PLACE "Leipzig" at / }).click();
    await expect.poll(() => rows.nth(1).getAttribute('data-decision')).toBe('reject');

    const words = panel.getByRole('group', { name: 'add a missed span' });
    await words.getByRole('button', { name: 'manager', exact: true }).click();
    // the classes deidentify.yaml uses (its terms', its patterns') are offered, not only the three built in
    expect(await words.getByLabel('class of the added span').locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['PERSON', 'PLACE', 'PHONE', 'EMAIL', 'DATE', 'ORG']),
    );
    await words.getByLabel('class of the added span').selectOption('ORG');
    await words.getByRole('button', { name: 'Hide selected words' }).click();
    await expect.poll(() => rows.count()).toBe(5);
    await expect.poll(() => rows.locator('.span-text').allTextContents()).toEqual(['manager', 'Sarah', 'Leipzig', 'Sarah', '555 1234']);
    expect(await rows.nth(0).getAttribute('data-decision')).toBe('add');
    await browser.screenshot(page, 'deidentify-review').catch(() => undefined);

    // the log: who, when, which span, which class; never the words
    const log = (await readFile(path.join(projectDir, 'sessions', 'bob', 'deidentify.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.map((e) => [e.type, e.data.decision, e.data.class, e.data.reviewer])).toEqual([
      ['deidentify_decided', 'accept', 'PERSON', 'bob'],
      ['deidentify_decided', 'reject', 'PLACE', 'bob'],
      ['deidentify_decided', 'add', 'ORG', 'bob'],
    ]);
    expect(log.every((e) => typeof e.ts === 'string' && e.data.span.layer === 'verbatim')).toBe(true);
    expect(JSON.stringify(log)).not.toMatch(/sarah|leipzig|manager/iu);
    expect(outside127(requests)).toEqual([]);
  });

  it(
    'the Export menu says when an export is not de-identified, and makes a de-identified one when asked',
    { timeout: 120_000 },
    async () => {
      const summary = page.locator('.export-summary');
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toMatch(/NOT de-identified/u);
      await page.getByRole('button', { name: 'dismiss' }).click();
      await page.getByLabel('de-identified').check();
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      await expect
        .poll(() => summary.textContent(), { timeout: 30_000 })
        .toMatch(/de-identified \(list version 7: 1 ORG, 3 PERSON, 2 PHONE; audio: silence/u);
      expect(await summary.textContent()).not.toMatch(/NOT de-identified/u);
    },
  );

  it(
    'the de-identified export follows the review: Leipzig kept, "manager" hidden, the counts in the receipt',
    { timeout: 120_000 },
    async () => {
      await app.close();
      const out = path.join(path.dirname(projectDir), 'reviewed.jsonl');
      const run = await cli('export', '--project', projectDir, '--format', 'jsonl', '--out', out, '--deidentify');
      expect(run.code).toBe(0);
      const record = (await readFile(out, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ExportRecordV2)
        .find((r) => r.annotator === 'bob' && r.item_id === 'demo-01')!;
      expect(record.transcript).toBe(
        ' This sounds like my [ORG-1] [PERSON-1] from Leipzig. I would call [PERSON-1] at [PHONE-1], I label this polite.',
      );
      const receipt = JSON.parse(await readFile(`${out}.receipt.json`, 'utf8'));
      expect(receipt.deidentification.review).toEqual({ accepted: 1, rejected: 1, added: 1 });
    },
  );
});
