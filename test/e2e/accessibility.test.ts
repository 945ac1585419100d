import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppService } from '../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { loadProjectConfig } from '../../core/node/project/projectFolder';
import { RoomHost } from '../../core/node/rooms/roomHost';
import type { RoomListener } from '../../core/node/rooms/roomHttp';
import { startRoomListener } from '../../core/node/rooms/roomListener';
import { codingStudy } from '../core/node/coding/codingStudy';
import { recordSession } from '../core/node/export/recordSession';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { screenshotsDir, shootBoth } from './appHarness';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the accessibility E2E: ${unavailable}`);

/** The WCAG 2.0/2.1 A and AA rules; serious and critical findings fail the screen. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING = new Set(['serious', 'critical']);

/** One line per failing node: screen, rule, impact, target and what axe says to fix, so a person can find and fix it. */
async function axeFindings(page: Page, screen: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const lesser = results.violations.filter((v) => !FAILING.has(v.impact ?? '')).map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
  // moderate and minor findings do not fail the screen, but a person should see them
  if (lesser.length > 0) console.log(`${screen}: also ${lesser.join(', ')}`);
  return results.violations
    .filter((v) => FAILING.has(v.impact ?? ''))
    .flatMap((v) =>
      v.nodes.map(
        (n) => `${screen}: ${v.id} (${v.impact}) at ${n.target.join(' ')} — ${v.help}; ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`,
      ),
    );
}

/**
 * Every screen of the app (Start, Label with an item open and its shortcut help, Review, Coding, Agreement, Adjudicate,
 * Project, Settings) and a norming room member's page, in English and in German, checked by axe-core against WCAG 2.1
 * A/AA: no serious or critical violation. The way through goes by ids, roles and tab positions, not by words.
 */
describe.skipIf(unavailable !== undefined)('every screen passes axe-core in English and German', () => {
  let app: AppService;
  let host: HttpHost;
  let room: RoomHost;
  let listener: RoomListener;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined);
    const { dir } = await codingStudy();
    // a second annotator who disagrees, so Adjudicate has a queue to show
    await recordSession(await loadProjectConfig(dir), 'ben', [
      { id: 'demo-01', said: [' I label this impolite.'], complete: true },
      { id: 'demo-02', said: [' I label this polite.'], complete: true },
      { id: 'demo-03', said: [' I label this polite.'], complete: true },
    ]);
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    host = await startHttpHost({ app, rendererDir });
    room = await RoomHost.create(await mkdtemp(path.join(tmpdir(), 'aloud-a11y-room-')), {
      project: 'politeness-demo',
      mode: 'items',
      items: [
        { id: 'r1', text: 'Thanks a lot, that helps!' },
        { id: 'r2', text: 'Whatever.', context: 'Can you help me?' },
      ],
      labels: ['Polite', 'Impolite', 'Neutral'],
      level: 'nominal',
      max_members: 12,
    });
    listener = await startRoomListener(room);
  }, 180_000);

  afterAll(async () => {
    await listener?.close();
    await room?.close();
    await host?.close();
    await app?.close();
  });

  const TAB = { label: 0, review: 1, agreement: 2, adjudicate: 3, project: 4, settings: 5 } as const;

  for (const language of ['en', 'de'] as const) {
    it(`${language}: 0 serious or critical violations on every screen`, { timeout: 300_000 }, async () => {
      const browser: ChromiumSession = await launchChromium({
        screenshotsDir,
        ...(language === 'de' ? { locale: 'de-DE', extraArgs: ['--lang=de-DE', '--accept-lang=de-DE,de'] } : { locale: 'en-US' }),
      });
      const findings: string[] = [];
      try {
        const page = await browser.newPage();
        const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const check = async (screen: string, shoot = false) => {
          await settle();
          findings.push(...(await axeFindings(page, `${language}/${screen}`)));
          if (shoot) await shootBoth(browser, page, `a11y-${language}-${screen}`);
        };
        // Tab through the first `presses` stops: each focused element must show a ring (an outline or a box shadow)
        const focusRings = async (screen: string, presses: number) => {
          for (let i = 0; i < presses; i++) {
            await page.keyboard.press('Tab');
            const unseen = await page.evaluate(() => {
              const el = document.activeElement as HTMLElement | null;
              if (!el || el === document.body) return null;
              const style = getComputedStyle(el);
              const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
              return ring ? null : `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className}`;
            });
            if (unseen) findings.push(`${language}/${screen}: no visible focus on ${unseen}`);
          }
        };
        const tab = async (which: keyof typeof TAB) => {
          await page.locator('nav.tabs [role="tab"]').nth(TAB[which]).click();
          await expect.poll(() => page.locator('nav.tabs [role="tab"]').nth(TAB[which]).getAttribute('aria-selected')).toBe('true');
        };

        await page.goto(host.url);
        await expect.poll(() => page.locator('#annotator').count(), { timeout: 15_000 }).toBe(1);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
        await check('start', true);

        await page.locator('#annotator').fill('lead');
        await page.locator('#annotator').press('Enter');
        await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe('lead');
        await check('label', true);

        await page.locator('body').click({ position: { x: 5, y: 400 } });
        await page.keyboard.press('?');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
        await check('label-shortcuts');
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

        // a label given by key: the verdict, a polite live region, says it; the transcript is a log (final and partial text)
        await page.keyboard.press('1');
        await expect.poll(() => page.locator('.verdict .final-label').count(), { timeout: 10_000 }).toBe(1);
        expect(await page.locator('.verdict').getAttribute('aria-live')).toBe('polite');
        expect(await page.locator('.transcript').getAttribute('role')).toBe('log');
        await check('label-given');
        await focusRings('label', 30);

        await tab('review');
        await check('review');
        await page.locator('button.code-protocols').click();
        await expect.poll(() => page.locator('.coding-unit').count(), { timeout: 15_000 }).toBeGreaterThan(0);
        await check('coding', true);
        await page.keyboard.press('?');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
        await check('coding-shortcuts');
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

        await tab('agreement');
        await expect.poll(() => page.locator('main table').count(), { timeout: 20_000 }).toBeGreaterThan(0);
        await check('agreement', true);

        await tab('adjudicate');
        await expect.poll(() => page.locator('.adj-queue li').count(), { timeout: 15_000 }).toBeGreaterThan(0);
        await check('adjudicate', true);

        await tab('project');
        await check('project');

        await tab('settings');
        await check('settings', true);
        await focusRings('settings', 30);

        // Review of another annotator's session (her recordings, transcripts and commit phrases on screen)
        await page.goto(host.url);
        await page.locator('#annotator').fill('rey');
        await page.locator('.review-as').getByRole('button', { name: 'ana', exact: true }).click();
        await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toContain('ana');
        await tab('review');
        await page.locator('button.item-link', { has: page.locator('.item-id', { hasText: /^demo-01$/ }) }).click();
        await expect.poll(() => page.locator('.transcript mark').count(), { timeout: 15_000 }).toBeGreaterThan(0);
        await check('review-of-another', true);

        // a norming room member's page, served by the room listener in the browser's language, joined
        await page.goto(listener.url);
        await check('room-join');
        await page.locator('#join-code').fill(room.code.toLowerCase());
        await page.locator('#join-name').fill(`ana-${language}`);
        await page.locator('#join-button').click();
        await expect.poll(() => page.locator('article[data-item="r1"]').count(), { timeout: 15_000 }).toBe(1);
        await check('room-member', true);
      } finally {
        await browser.close();
      }
      if (findings.length > 0) console.log(`axe-core findings (${language}):\n${findings.join('\n')}`);
      expect(findings).toEqual([]);
    });
  }
});
