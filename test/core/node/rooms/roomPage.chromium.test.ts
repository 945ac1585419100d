import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initProject, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { RoomController } from '../../../../core/node/rooms/roomController';
import { RoomHost } from '../../../../core/node/rooms/roomHost';
import type { RoomListener } from '../../../../core/node/rooms/roomHttp';
import { startRoomListener } from '../../../../core/node/rooms/roomListener';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../../helpers/chromium';
import { RoomClient } from './roomClient';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the room page test: ${unavailable}`);

/** A member's page in headless Chromium, served by the room listener (no CDN, strict CSP), against live members. */
describe.skipIf(unavailable !== undefined)("a member's room page in Chromium", () => {
  let host: RoomHost;
  let listener: RoomListener;
  let browser: ChromiumSession;
  let page: Page;
  let ben: RoomClient;
  let lead: RoomClient;
  const requested: string[] = [];

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-room-page-'));
    host = await RoomHost.create(dir, {
      project: 'politeness-demo',
      mode: 'items',
      items: [
        { id: 'r1', text: 'Thanks a lot, that <b>helps</b>!' },
        { id: 'r2', text: 'Whatever.', context: 'Can you help me?' },
      ],
      labels: ['Polite', 'Impolite', 'Neutral'],
      level: 'nominal',
      max_members: 12,
    });
    listener = await startRoomListener(host);
    lead = new RoomClient(listener.url, 'lead', host.leadToken);
    browser = await launchChromium({ fakeMediaDevices: false, acceptMediaPrompts: false });
    page = await browser.newPage();
    page.on('request', (r) => requested.push(r.url()));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await listener?.close();
    await host?.close();
  });

  it('joins with the code and votes blind; other votes stay hidden until the reveal', { timeout: 60_000 }, async () => {
    await page.goto(listener.url);
    await page.getByLabel('Room code').fill(host.code.toLowerCase());
    await page.getByLabel('Your name').fill('ana');
    await page.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => page.locator('#who').textContent()).toBe('You are ana');
    // item text is shown as text, never as markup
    await expect.poll(() => page.locator('article[data-item="r1"] .text').textContent()).toBe('Thanks a lot, that <b>helps</b>!');
    expect(await page.locator('article[data-item="r1"] b').count()).toBe(0);

    ben = await RoomClient.join(listener.url, host.code, 'ben');
    await ben.vote('r1', 'Impolite');
    await page.locator('article[data-item="r1"] button[data-label="Polite"]').click();
    await expect.poll(() => page.locator('article[data-item="r1"] button.mine').textContent()).toBe('Polite');
    await expect.poll(() => page.locator('article[data-item="r1"] .voted').textContent()).toBe('Voted: ana, ben');
    // ben's vote is nowhere on ana's page before the reveal
    expect(await page.locator('article[data-item="r1"] .vote').count()).toBe(0);
    expect(await page.locator('#items').textContent()).not.toContain('Blind votes');
    await browser.screenshot(page, 'room-blind');
  });

  it('after the reveal shows blind and current votes, logs a change, and the live α', { timeout: 60_000 }, async () => {
    expect((await lead.call('POST', '/api/lead/reveal', { item_id: 'r1' })).status).toBe(200);
    await expect.poll(() => page.locator('article[data-item="r1"]').textContent()).toContain('Blind votes');
    expect(await page.locator('article[data-item="r1"] .vote').allTextContents()).toEqual(['Polite', 'Impolite', 'Polite', 'Impolite']);
    await page.locator('article[data-item="r1"] button[data-label="Impolite"]').click();
    await expect
      .poll(() => page.locator('article[data-item="r1"] .changes').textContent())
      .toBe('ana: Polite → Impolite (others’ majority: Impolite)');
    expect(await page.locator('#metrics').textContent()).toContain('not enough data yet');
    await page.getByPlaceholder('Say something to the room').fill('fair point, ben');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#chat-log').textContent()).toBe('ana: fair point, ben');
    // the lead's message is marked by the room, not by a name anyone could type
    expect((await lead.call('POST', '/api/chat', { text: 'thanks both' })).status).toBe(200);
    await expect.poll(() => page.locator('#chat-log li.from-lead').textContent()).toBe('Lead: thanks both');
    expect(await page.locator('#chat-log li.from-lead .lead-badge').count()).toBe(1);
    expect(await page.locator('#chat-log li.from-member .lead-badge').count()).toBe(0);
    await browser.screenshot(page, 'room-revealed');
  });

  it("the lead's panel from the room listener (the link with #lead=…) reveals an item", { timeout: 60_000 }, async () => {
    const leadPage = await browser.newPage();
    leadPage.on('dialog', (d) => void d.accept());
    await leadPage.goto(listener.leadUrl);
    await expect.poll(() => leadPage.locator('#who').textContent()).toBe('You lead this room');
    // the lead's token leaves the address bar and the history entry once read; a reload still leads (tab storage)
    expect(leadPage.url()).not.toContain('lead=');
    expect(await leadPage.evaluate(() => location.href)).toBe(listener.url);
    await leadPage.reload();
    await expect.poll(() => leadPage.locator('#who').textContent()).toBe('You lead this room');
    expect(leadPage.url()).not.toContain(host.leadToken);
    // the lead does not vote, and sees no unrevealed votes
    expect(await leadPage.locator('article[data-item="r2"] button[data-label]').count()).toBe(0);
    await ben.vote('r2', 'Neutral');
    await expect.poll(() => leadPage.locator('article[data-item="r2"] .voted').textContent()).toBe('Voted: ben');
    expect(await leadPage.locator('article[data-item="r2"]').textContent()).not.toContain('Neutral');
    await leadPage.locator('article[data-item="r2"] button.reveal').click();
    await expect.poll(() => leadPage.locator('article[data-item="r2"] .vote').allTextContents()).toEqual(['Neutral', 'Neutral']);
    await expect.poll(() => page.locator('article[data-item="r2"]').textContent()).toContain('Blind votes');
    await leadPage.close();
  });

  it('a long chat arrives page by page (100 messages an answer) until the page has all of it', { timeout: 60_000 }, async () => {
    const before = await page.locator('#chat-log li').count();
    for (let i = 0; i < 230; i++) await host.chat(null, `note ${i}`);
    await expect.poll(() => page.locator('#chat-log li').count(), { timeout: 20_000 }).toBe(before + 230);
    expect(await page.locator('#chat-log li').last().textContent()).toBe('Lead: note 229');
  });

  it(
    'a removed member is told so; the page made no request beyond the room listener and broke no CSP rule',
    { timeout: 60_000 },
    async () => {
      const view = await lead.view();
      const ana = view.members.find((m) => m.name === 'ana')!;
      expect((await lead.call('POST', '/api/lead/remove', { member_id: ana.member_id })).status).toBe(200);
      await expect.poll(() => page.locator('#status').textContent()).toMatch(/not \(or no longer\) a member/);
      const origin = new URL(listener.url).origin;
      expect(requested.filter((u) => !u.startsWith(origin))).toEqual([]);
      expect(browser.pageErrors.filter((e) => !e.includes('403'))).toEqual([]);
    },
  );
});

/** The app closes the room (the lead's panel): members' pages say so and their controls go quiet. */
describe.skipIf(unavailable !== undefined)('a room closed by the lead, on a member page in Chromium', () => {
  let controller: RoomController;
  let browser: ChromiumSession;

  beforeAll(async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-room-closed-')), 'p');
    await initProject(dir, { demo: true });
    const project = await loadProjectConfig(dir);
    controller = new RoomController(project, await loadProjectItems(project));
    browser = await launchChromium({ fakeMediaDevices: false, acceptMediaPrompts: false });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await controller?.shutdown();
  });

  it(
    'shows "The room was closed" and disables the votes and the chat, instead of retrying an unreachable host',
    { timeout: 60_000 },
    async () => {
      const status = await controller.openRoom(['demo-01', 'demo-02'], false);
      const page = await browser.newPage();
      await page.goto(status.url);
      await page.getByLabel('Room code').fill(status.code);
      await page.getByLabel('Your name').fill('ana');
      await page.getByRole('button', { name: 'Join' }).click();
      await expect.poll(() => page.locator('#who').textContent()).toBe('You are ana');
      await page.locator('article[data-item="demo-01"] button[data-label="Polite"]').click();
      await expect.poll(() => page.locator('article[data-item="demo-01"] button.mine').textContent()).toBe('Polite');

      expect(await controller.closeRoom()).toBeNull();
      await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toMatch(/^The room was closed/);
      const votes = page.locator('article button[data-label]');
      expect(await votes.count()).toBe(6);
      for (const b of await votes.all()) expect(await b.isDisabled()).toBe(true);
      expect(await page.getByPlaceholder('Say something to the room').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
      // and it stays so: the page stops asking a room that can change no more
      expect(await page.locator('#status').textContent()).not.toContain('cannot be reached');
      await browser.screenshot(page, 'room-closed-member');
      expect(browser.pageErrors).toEqual([]);
    },
  );
});

/** A member whose browser says German gets the room pages in German: the page the host serves and what its script writes. */
describe.skipIf(unavailable !== undefined)('the room pages in a German browser', () => {
  let host: RoomHost;
  let listener: RoomListener;
  let browser: ChromiumSession;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-room-de-'));
    host = await RoomHost.create(dir, {
      project: 'politeness-demo',
      mode: 'items',
      items: [{ id: 'r1', text: 'Danke, das hilft!' }],
      labels: ['Polite', 'Impolite'],
      level: 'nominal',
      max_members: 12,
    });
    listener = await startRoomListener(host);
    browser = await launchChromium({ fakeMediaDevices: false, acceptMediaPrompts: false, locale: 'de-DE' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await listener?.close();
    await host?.close();
  });

  it('joins, votes and reads the room in German, with no English left', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(listener.url);
    expect(await page.evaluate(() => [document.documentElement.lang, navigator.language])).toEqual(['de', 'de-DE']);
    expect(await page.title()).toBe('Aloud-Kalibrierungsraum');
    await page.getByLabel('Raumcode').fill(host.code);
    await page.getByLabel('Ihr Name').fill('ana');
    await page.getByRole('button', { name: 'Beitreten' }).click();
    await expect.poll(() => page.locator('#who').textContent()).toBe('Sie sind ana');
    await page.locator('article[data-item="r1"] button[data-label="Polite"]').click();
    await expect.poll(() => page.locator('article[data-item="r1"] .voted').textContent()).toBe('Abgestimmt: ana');
    expect(await page.locator('#status').textContent()).toMatch(/^Stimmen Sie zu jedem Item ab/);
    expect(await page.getByRole('button', { name: 'Senden' }).count()).toBe(1);
    const text = (await page.locator('body').innerText()).replace(/Polite|Impolite|politeness-demo/g, '');
    for (const english of ['Vote on each item', 'You are', 'Voted', 'Send', 'Room code', 'Your name', 'revealed', 'blind'])
      expect(text).not.toMatch(new RegExp(`\\b${english}\\b`));
    await browser.screenshot(page, 'room-member-de');
    expect(browser.pageErrors).toEqual([]);
  });

  it("says a refusal in the page's language: a wrong room code, a page that is not there", { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(listener.url);
    await page.getByLabel('Raumcode').fill('ZZZZZZ');
    await page.getByLabel('Ihr Name').fill('ben');
    await page.getByRole('button', { name: 'Beitreten' }).click();
    await expect.poll(() => page.locator('#join-error').textContent()).toBe('Falscher Raumcode');
    const missing = await page.goto(new URL('/nowhere', listener.url).toString());
    expect(missing?.status()).toBe(404);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.locator('main p').first().textContent()).toBe(
      'Nicht gefunden: Dieser Dienst stellt nur den Kalibrierungsraum bereit',
    );
    expect(await page.getByRole('link', { name: 'Zur Raumseite' }).count()).toBe(1);
  });

  it('serves the page in the language the browser asks for, and says so', async () => {
    const asked = async (language: string) => {
      const r = await fetch(listener.url, { headers: { 'Accept-Language': language } });
      return [r.headers.get('content-language'), r.headers.get('vary'), /<html lang="(\w+)"/.exec(await r.text())?.[1]];
    };
    expect(await asked('de-AT,de;q=0.9')).toEqual(['de', 'Accept-Language', 'de']);
    expect(await asked('fr-FR, en;q=0.5')).toEqual(['en', 'Accept-Language', 'en']);
    expect(await asked('fr-FR')).toEqual(['en', 'Accept-Language', 'en']);
  });
});
