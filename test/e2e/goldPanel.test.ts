/**
 * The Agreement tab shows labels with error bars (`aloud gold --project`): five annotators' sessions, one who always
 * says Polite and one who reads Impolite and Neutral as each other; the tab ranks them last, names the confused pair,
 * and opens a huddle on its items.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { loadProjectConfig, loadProjectItems } from '../../core/node/project/projectFolder';
import { SessionService } from '../../core/node/session/sessionService';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { outside127, screenshotsDir, serveProject, shootBoth, watchRequests } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the gold panel E2E: ${unavailable}`);

const ids = Array.from({ length: 20 }, (_, k) => `demo-${String(k + 1).padStart(2, '0')}`);
const truth = ids.map((_, k) => ['Polite', 'Impolite', 'Neutral'][k % 3]!);
const swap = (l: string): string => (l === 'Impolite' ? 'Neutral' : l === 'Neutral' ? 'Impolite' : l);

async function label(dir: string, annotator: string, labelOf: (k: number) => string): Promise<void> {
  const project = await loadProjectConfig(dir);
  const session = await SessionService.open({ project, annotator, items: await loadProjectItems(project) });
  try {
    for (const [k, id] of ids.entries()) {
      await session.openItem(id);
      await session.commitLabel(labelOf(k), 'click');
      await session.completeItem();
    }
  } finally {
    await session.close();
  }
}

describe.skipIf(unavailable !== undefined)('labels with error bars on the Agreement tab', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    served = await serveProject({ rendererDir, app: { openEngine: null } });
    // click labels complete an item here (the demo asks for a spoken label by default)
    const yaml = path.join(served.projectDir, 'aloud.yaml');
    await writeFile(yaml, (await readFile(yaml, 'utf8')).replace('thinkaloud:\n', 'thinkaloud:\n  require_spoken_label: false\n'));
    await label(served.projectDir, 'ana', (k) => truth[k]!);
    await label(served.projectDir, 'ben', (k) => (k === 4 ? 'Polite' : truth[k]!));
    await label(served.projectDir, 'cai', (k) => (k === 9 ? 'Neutral' : truth[k]!));
    await label(served.projectDir, 'dan', () => 'Polite');
    await label(served.projectDir, 'eve', (k) => swap(truth[k]!));
    browser = await launchChromium({ screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it(
    'ranks annotators by competence with intervals, lists the least certain items, names the confused pair and opens a huddle on it',
    { timeout: 90_000 },
    async () => {
      await page.goto(served.host.url);
      await page.getByLabel('Your annotator name').fill('lead');
      await page.getByLabel('Your annotator name').press('Enter');
      await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe('lead');
      await page.getByRole('tab', { name: 'Agreement' }).click();
      const rows = page.locator('table.gold-annotators tbody tr');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(5);
      const order = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-annotator')));
      expect(new Set(order.slice(-2))).toEqual(new Set(['dan', 'eve']));
      // the figures are the host's: the same report the API gives
      const view = await served.app.goldLabels();
      if ('unavailable' in view) throw new Error(view.unavailable);
      const ana = view.annotators.find((a) => a.annotator === 'ana')!;
      expect(await page.locator('tr[data-annotator="ana"] td.competence').textContent()).toBe(ana.competence.toFixed(3));
      expect(await page.locator('.gold .model-fit').textContent()).toBe(`${view.model_fit.said}.`);
      expect(await page.locator('table.gold-items tbody tr').count()).toBe(15);
      const pairs = page.locator('ul.confused-pairs li');
      await expect.poll(() => pairs.first().textContent()).toMatch(/^Impolite and Neutral are confused by 1 of 5 annotators \(eve\)/);
      await page.locator('.gold').scrollIntoViewIfNeeded();
      await shootBoth(browser, page, '35-agreement-gold');
      await pairs
        .first()
        .getByRole('button', { name: /Open a huddle/ })
        .click();
      await expect.poll(() => page.locator('.room-code').textContent(), { timeout: 15_000 }).toMatch(/^[A-Z0-9]{4,}$/);
      const room = await served.app.room();
      expect(room?.view.items.map((i) => i.item_id).sort()).toEqual([...view.confused_pairs[0]!.items].sort());
      expect(outside127(requests)).toEqual([]);
      expect(browser.pageErrors).toEqual([]);
    },
  );
});
