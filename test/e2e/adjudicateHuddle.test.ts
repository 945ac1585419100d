import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { RoomClient } from '../core/node/rooms/roomClient';
import { label } from '../core/node/adjudication/adjudicationStudy';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { outside127, serveProject, shootBoth, screenshotsDir, watchRequests } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the huddle E2E: ${unavailable}`);

async function sessionBytes(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(path.join(dir, 'sessions'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(path.join(entry.parentPath, entry.name), (await readFile(path.join(entry.parentPath, entry.name))).toString('base64'));
  }
  return files;
}

/**
 * The lead sends two disagreements to a huddle from the Adjudicate tab by keyboard (Shift+M, Shift+H), members vote in
 * the room the app serves, the room is closed, and Shift+O takes its outcome as her decisions with the room named.
 */
describe.skipIf(unavailable !== undefined)('a huddle from the Adjudicate tab, in Chromium', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    served = await serveProject({ rendererDir, app: { openEngine: null } });
    // the annotators label by click here (the lead's app needs nothing of it)
    const yaml = await readFile(path.join(served.projectDir, 'aloud.yaml'), 'utf8');
    await writeFile(
      path.join(served.projectDir, 'aloud.yaml'),
      yaml.replace('thinkaloud:\n', 'thinkaloud:\n  require_spoken_label: false\n'),
    );
    browser = await launchChromium({ screenshotsDir });
    requests = watchRequests(browser);
    page = await browser.newPage();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('marks, sends, and takes the outcome by keyboard; the annotators’ logs are untouched', { timeout: 120_000 }, async () => {
    onTestFailed(async () => {
      await browser.screenshot(page, 'failed-adjudicate-huddle').catch(() => undefined);
    });
    const dir = served.projectDir;
    await label(dir, 'ana', [
      ['demo-01', 'Polite'],
      ['demo-02', 'Polite'],
      ['demo-03', 'Polite'],
    ]);
    await label(dir, 'ben', [
      ['demo-01', 'Polite'],
      ['demo-02', 'Neutral'],
      ['demo-03', 'Impolite'],
    ]);
    await label(dir, 'cai', [
      ['demo-01', 'Polite'],
      ['demo-02', 'Impolite'],
      ['demo-03', 'Neutral'],
    ]);
    const before = await sessionBytes(dir);

    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('lead');
    await page.getByLabel('Your annotator name').press('Enter');
    await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe('lead');
    await page.getByRole('tab', { name: 'Adjudicate' }).focus();
    await page.keyboard.press('Enter');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expect.poll(() => page.locator('.adj-queue li').count(), { timeout: 15_000 }).toBe(2);
    const order = await page.locator('.adj-queue li code').allTextContents();
    expect([...order].sort()).toEqual(['demo-02', 'demo-03']);
    const shown = (id: string) => expect.poll(() => page.locator('.adj-main h2').textContent(), { timeout: 15_000 }).toContain(id);
    await shown(order[0]!);

    // the shortcut list names the huddle keys
    await page.keyboard.press('?');
    await expect.poll(() => page.getByText('Send the marked items (none marked: this one) to a huddle room').count()).toBe(1);
    await page.keyboard.press('Escape');

    // mark both items (Shift+M, j, Shift+M) and send them (Shift+H)
    await page.keyboard.press('Shift+KeyM');
    await page.keyboard.press('j');
    await shown(order[1]!);
    await page.keyboard.press('Shift+KeyM');
    await expect.poll(() => page.locator('.adj-queue .adj-marked').count()).toBe(2);
    await page.keyboard.press('Shift+KeyH');
    const room = page.locator('.adj-huddle-room');
    await expect.poll(() => room.textContent(), { timeout: 15_000 }).toMatch(/members open http:\/\/127\.0\.0\.1:\d+\/ and type the code/);
    const code = (await room.locator('.room-code').textContent())!;
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec((await room.textContent())!)![0];
    expect(await page.locator('.adj-queue .adj-marked').count()).toBe(0);
    await shootBoth(browser, page, '44-adjudicate-huddle-sent');

    // the members vote in the room the app serves; the lead reveals and closes it (the room panel's calls)
    const members = [
      await RoomClient.join(url, code, 'ana'),
      await RoomClient.join(url, code, 'ben'),
      await RoomClient.join(url, code, 'cai'),
    ];
    for (const m of members) await m.vote('demo-02', 'Polite');
    await members[0]!.vote('demo-03', 'Neutral');
    await members[1]!.vote('demo-03', 'Neutral');
    await members[2]!.vote('demo-03', 'Impolite');
    await served.app.revealRoomItem('demo-02');
    await served.app.revealRoomItem('demo-03');
    // too early: the room is still open, its votes are not final
    for (const key of ['m', 'a']) await page.keyboard.press(key);
    await page.keyboard.press('Shift+KeyO');
    await expect.poll(() => page.locator('.adj-main .error').textContent(), { timeout: 15_000 }).toMatch(/is not closed yet/);
    await served.app.closeRoom();
    // the tab reads its huddles again when it is opened again
    await page.getByRole('tab', { name: 'Agreement' }).click();
    await page.getByRole('tab', { name: 'Adjudicate' }).click();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await expect.poll(() => room.textContent(), { timeout: 15_000 }).toContain('is closed');
    await shown(order[0]!);
    // without a confidence and a cause, nothing is taken
    await page.keyboard.press('Shift+KeyO');
    await expect.poll(() => page.locator('.adj-main .error').textContent(), { timeout: 15_000 }).toMatch(/needs a confidence/);
    for (const key of ['m', 'a']) await page.keyboard.press(key);
    await page.keyboard.press('Shift+KeyO');
    await expect.poll(() => page.locator('.notice').textContent(), { timeout: 15_000 }).toBe(`Room ${code}: 2 decisions logged`);
    const decided = { 'demo-02': 'Polite', 'demo-03': 'Neutral' } as Record<string, string>;
    expect(await page.locator('.adj-huddle-outcome li').allTextContents()).toEqual(order.map((id) => `${id}: decided “${decided[id]}”`));
    await expect.poll(() => page.locator('.adj-queue li.decided').count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => page.locator('.adj-main h2').textContent()).toContain(`(huddle room ${code})`);
    await shootBoth(browser, page, '45-adjudicate-huddle-outcome');

    const log = (await readFile(path.join(dir, 'adjudication', 'lead', 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
    expect(log.map((e) => e.type)).toEqual(['adjudication_started', 'items_sent_to_huddle', 'decision_recorded', 'decision_recorded']);
    expect(log[1]!.data).toEqual({ item_ids: order, room: code });
    expect(log.slice(2).map((e) => [e.data.item_id, e.data.label, e.data.room, e.data.confidence, e.data.causes])).toEqual(
      order.map((id) => [id, decided[id], code, 'medium', ['ambiguous text']]),
    );
    const after = await sessionBytes(dir);
    for (const [file, bytes] of before) expect(after.get(file), file).toBe(bytes);
    expect(outside127(requests)).toEqual([]);
  });
});
