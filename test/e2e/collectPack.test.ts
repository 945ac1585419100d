import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { packSession } from '../../core/node/packs/sessionPack';
import { loadProjectConfig } from '../../core/node/project/projectFolder';
import { recordSession } from '../core/node/export/recordSession';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { serveProject } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping collect E2E: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('Project → Collect… in Chromium', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;
  let work: string;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    served = await serveProject({ rendererDir, app: { openEngine: null } });
    work = await mkdtemp(path.join(tmpdir(), 'aloud-e2e-collect-'));
    browser = await launchChromium();
    page = await browser.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close().catch(() => undefined);
  });

  it("collects an annotator's pack, shows what it added, and refuses a damaged one saying why", { timeout: 60_000 }, async () => {
    const laptopDir = path.join(work, 'laptop');
    await cp(served.projectDir, laptopDir, { recursive: true });
    const laptop = await loadProjectConfig(laptopDir);
    await recordSession(laptop, 'ana', [
      { id: 'demo-01', click: 'Polite', complete: true },
      { id: 'demo-02', click: 'Neutral' },
    ]);
    const pack = path.join(work, 'ana.aloudpack');
    await packSession({ project: laptop, annotator: 'ana', out: pack });
    const damaged = path.join(work, 'damaged.aloudpack');
    await writeFile(damaged, (await readFile(pack)).subarray(0, 1500));

    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('lead');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await page.getByRole('tab', { name: 'Project' }).click();
    await page.getByLabel('Session pack').fill(damaged);
    await page.getByRole('button', { name: 'Collect', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'nothing was unpacked' }).textContent()).toMatch(/cut short/);
    expect(await served.app.annotators()).toEqual(['lead']);
    await page.getByLabel('Session pack').fill(pack);
    await page.getByRole('button', { name: 'Collect', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Added the session of ana' }).textContent())
      .toMatch(/Added the session of ana: \d+ events, 0 audio files\./);
    expect(await served.app.annotators()).toEqual(['ana', 'lead']);
  });
});
