import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../../helpers/chromium';
import { cli } from '../../../helpers/cli';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the HTML report test: ${unavailable}`);

/** The --html report opened from disk in Chromium: everything it shows is in the one file. */
describe.skipIf(unavailable !== undefined)('the agreement report in a browser', () => {
  let browser: ChromiumSession;
  beforeAll(async () => {
    browser = await launchChromium({ fakeMediaDevices: false, acceptMediaPrompts: false });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens offline: chart, intervals, disagreements, conformity; no request leaves the file', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-report-'));
    const csv = path.join(dir, 'm.csv');
    // a name with markup must come out as text
    await writeFile(csv, 'item,annotator,label\ni1,<b>ana</b>,1\ni1,ben,2\ni2,<b>ana</b>,2\ni2,ben,2\ni3,<b>ana</b>,3\ni3,ben,3\n');
    const html = path.join(dir, 'report.html');
    expect((await cli('agreement', '--csv', csv, '--level', 'interval', '--html', html)).code).toBe(0);
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(html).href);
    expect(await page.locator('svg rect').count()).toBe(1);
    expect(await page.locator('h2', { hasText: 'Disagreements (1)' }).count()).toBe(1);
    expect(await page.locator('table').nth(1).textContent()).toContain('i1');
    expect(await page.locator('b').count()).toBe(0);
    expect(await page.locator('body').textContent()).toContain('<b>ana</b>');
    expect(requests).toEqual([pathToFileURL(html).href]);
    expect(browser.pageErrors).toEqual([]);
  });
});
