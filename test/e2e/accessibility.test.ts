import { mkdtemp, writeFile } from 'node:fs/promises';
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
import { binaryRoute } from '../../core/common/contract/transportNames';
import { screenshotsDir, serveProject, shootBoth, toneAndSilenceWav } from './appHarness';

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
        expect(await page.locator('.transcript [role="log"]').getAttribute('aria-live')).toBe('polite');
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

        // a code by key is said politely in the interface's language (the other language's run took it back first)
        const unit = (await page.locator('.coding-unit.current').getAttribute('data-unit'))!;
        const chips = () => page.locator('.coding-unit.current .code-chip.mine').count();
        const codeSaid = () => page.locator('[data-code-change]').textContent();
        const said = {
          en: { added: `Doubts set on ${unit}`, removed: `Doubts removed from ${unit}` },
          de: { added: `Doubts auf ${unit} gesetzt`, removed: `Doubts von ${unit} entfernt` },
        }[language];
        expect(await page.locator('[data-code-change]').getAttribute('role')).toBe('status');
        if ((await chips()) > 0) {
          await page.keyboard.press('d');
          await expect.poll(codeSaid, { timeout: 10_000 }).toBe(said.removed);
        }
        await page.keyboard.press('d');
        await expect.poll(codeSaid, { timeout: 10_000 }).toBe(said.added);
        // the memo dialog by keyboard alone: m opens it from the focused control, focus goes in and stays in, Esc gives it back
        await page.locator('.protocol-link.current').focus();
        await page.locator('.protocol-link.current').evaluate((el) => el.setAttribute('data-opener', ''));
        await page.keyboard.press('m');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
        const focusInDialog = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
        await check('coding-memo', true);
        for (const key of [...Array<string>(6).fill('Tab'), ...Array<string>(6).fill('Shift+Tab')]) {
          await page.keyboard.press(key);
          if (!(await focusInDialog())) findings.push(`${language}/coding-memo: ${key} left the dialog`);
        }
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-opener'))).toBe(true);

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

        // by keyboard: correct her last segment, then set the label from the corrected text; what was set is said politely
        const corrected = { en: 'impolite', de: 'neutral' }[language];
        const setWords = {
          en: /^The label (Impolite|Neutral) was set from the corrected text/,
          de: /^Das Label (Impolite|Neutral) wurde aus dem korrigierten Text gesetzt/,
        };
        await page.locator('ol.segments > li').last().locator('button.edit').focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.correct-form') !== null)).toBe(true);
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(`I label this ${corrected}.`);
        await page.keyboard.press('Enter');
        // the correction is named in words a screen reader says (a name on a plain span is not read)
        const lastSegment = page.locator('ol.segments > li').last();
        await expect.poll(() => lastSegment.locator('.corrected').textContent(), { timeout: 15_000 }).toBe(`I label this ${corrected}.`);
        expect(await lastSegment.locator('.visually-hidden').textContent()).toMatch(
          { en: /^corrected text of segment \d+$/, de: /^korrigierter Text von Segment \d+$/ }[language],
        );
        expect(await lastSegment.locator('span[aria-label]').count()).toBe(0);
        const fromCorrections = page.locator('p.row[aria-live="polite"]');
        await expect.poll(() => fromCorrections.locator('button').count(), { timeout: 15_000 }).toBe(1);
        await check('review-corrected');
        await fromCorrections.locator('button').focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => fromCorrections.textContent(), { timeout: 15_000 }).toMatch(setWords[language]);
        // the button is gone: the keyboard goes on from the segments, not from the top of the page
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.matches('ol.segments') ?? false), { timeout: 5_000 })
          .toBe(true);

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

/** What a screen reader is told while the annotator speaks, in each language. */
const SPOKEN = {
  en: { partial: 'still being transcribed', speculative: 'final text, still listening', verdict: /^Label: Polite by voice/ },
  de: { partial: 'wird noch transkribiert', speculative: 'endgültiger Text, hört noch zu', verdict: /^Label: Polite per Sprache/ },
} as const;

/**
 * The screens while something is live, in English and German, by axe-core and by keyboard alone: the Label screen while
 * the microphone records (the fake microphone plays two stretches of "speech", a scripted engine answers) with a
 * partial on screen and after each final, and a shadow room's trainee page, joined and answered by keyboard, as her
 * transcript arrives. The partial is hidden from the transcript log and its state is said by a status; each final is
 * added to the log once, the text already there stays the same nodes.
 */
describe.skipIf(unavailable !== undefined)('recording and the shadow room page pass axe-core, by keyboard, in English and German', () => {
  let rendererDir: string;
  let clip: string;
  let script: string;

  beforeAll(async () => {
    rendererDir = await ensureRendererBuilt(() => undefined);
    const work = await mkdtemp(path.join(tmpdir(), 'aloud-a11y-live-'));
    clip = path.join(work, 'two-utterances.wav');
    // two long stretches of "speech" (a tone): a partial stays on screen long enough to be checked
    await writeFile(
      clip,
      toneAndSilenceWav([
        [0.5, 'silence'],
        [4, 'tone'],
        [1.5, 'silence'],
        [3, 'tone'],
        [6, 'silence'],
      ]),
    );
    script = path.join(work, 'engine-script.json');
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 150 },
            { text: ' I label this polite.', delay_ms: 150 },
          ],
        },
      }),
    );
  }, 180_000);

  for (const language of ['en', 'de'] as const) {
    it(
      `${language}: recording with partials, and the trainee's page, 0 serious or critical; keyboard alone`,
      { timeout: 300_000 },
      async () => {
        const served = await serveProject({ rendererDir, app: { engineScript: script } });
        const browser = await launchChromium({
          screenshotsDir,
          fakeAudioFile: clip,
          ...(language === 'de' ? { locale: 'de-DE', extraArgs: ['--lang=de-DE', '--accept-lang=de-DE,de'] } : { locale: 'en-US' }),
        });
        const findings: string[] = [];
        try {
          const page = await browser.newPage();
          const check = async (on: Page, screen: string, shoot = false) => {
            await on.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            findings.push(...(await axeFindings(on, `${language}/${screen}`)));
            if (shoot) await shootBoth(browser, on, `a11y-${language}-${screen}`);
          };
          await page.goto(served.host.url);
          await expect.poll(() => page.locator('#annotator').count(), { timeout: 15_000 }).toBe(1);
          await page.locator('#annotator').fill('ana');
          await page.locator('#annotator').press('Enter');
          await expect.poll(() => page.locator('.annotator').textContent(), { timeout: 15_000 }).toBe('ana');

          // she opens a shadow room; a trainee joins it by keyboard alone
          await page.locator('.shadow-room > button.link').click();
          await page.locator('.shadow-offer button.primary').click();
          await expect.poll(() => page.locator('.shadow-room .room-code').count(), { timeout: 15_000 }).toBe(1);
          const code = (await page.locator('.shadow-room .room-code').textContent())!;
          const url = (await page.locator('.shadow-room code').textContent())!;
          const trainee = await browser.newPage();
          await trainee.goto(url);
          expect(await trainee.evaluate(() => document.documentElement.lang)).toBe(language);
          await check(trainee, 'shadow-join');
          const focusedId = () => trainee.evaluate(() => document.activeElement?.id ?? '');
          for (let i = 0; i < 10 && (await focusedId()) !== 'join-code'; i++) await trainee.keyboard.press('Tab');
          expect(await focusedId()).toBe('join-code');
          await trainee.keyboard.type(code);
          await trainee.keyboard.press('Tab');
          expect(await focusedId()).toBe('join-name');
          await trainee.keyboard.type(`ben-${language}`);
          await trainee.keyboard.press('Enter');
          await expect.poll(() => trainee.locator('#practice button[data-label]').count(), { timeout: 15_000 }).toBe(3);
          await check(trainee, 'shadow-trainee', true);
          // she answers by Tab and Enter on the second label, the focus ring visible on it
          let ring = true;
          for (let i = 0; i < 30; i++) {
            const on = await trainee.evaluate(() => {
              const el = document.activeElement as HTMLElement | null;
              const style = el ? getComputedStyle(el) : null;
              return {
                label: el?.closest('#practice') ? (el.dataset.label ?? null) : null,
                ring:
                  style !== null && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'),
              };
            });
            if (on.label === 'Impolite') {
              ring = on.ring;
              break;
            }
            await trainee.keyboard.press('Tab');
          }
          expect(await trainee.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.label)).toBe('Impolite');
          if (!ring) findings.push(`${language}/shadow-trainee: no visible focus on the label button`);
          await trainee.keyboard.press('Enter');
          await expect.poll(() => trainee.locator('#practice .answer').textContent(), { timeout: 10_000 }).toBe('Impolite');
          await check(trainee, 'shadow-trainee-answered');

          // she records: her uploads are held while a partial is on screen, so the recording state can be checked
          await page.evaluate((audioRoute) => {
            const w = window as unknown as { __holding: boolean; __release: () => void };
            w.__holding = false;
            let letGo: () => void = () => undefined;
            const held = new Promise<void>((resolve) => (letGo = resolve));
            w.__release = () => {
              w.__holding = false;
              letGo();
            };
            const fetchOf = window.fetch.bind(window);
            window.fetch = async (input, init) => {
              if (w.__holding && String(input instanceof Request ? input.url : input).includes(audioRoute)) await held;
              return fetchOf(input, init);
            };
          }, binaryRoute('appendAudio'));
          await page.bringToFront();
          await page.locator('body').click({ position: { x: 5, y: 400 } });
          await page.keyboard.press('Space');
          await expect.poll(() => page.locator('button.record.on').count(), { timeout: 30_000 }).toBe(1);
          await expect.poll(() => page.locator('.transcript-text .partial').count(), { timeout: 30_000, interval: 50 }).toBe(1);
          await page.evaluate(() => ((window as unknown as { __holding: boolean }).__holding = true));
          const log = page.locator('.transcript [role="log"]');
          expect(await log.getAttribute('aria-live')).toBe('polite');
          expect(await log.getAttribute('aria-relevant')).toBe('additions');
          expect(await page.locator('.transcript-text .partial').getAttribute('aria-hidden')).toBe('true');
          expect(await page.locator('.transcript + [role="status"]').textContent()).toMatch(
            new RegExp(`^(${SPOKEN[language].partial}|${SPOKEN[language].speculative})$`),
          );
          await check(page, 'label-recording-partial', true);
          // the trainee's page shows her partial too: seen, not read; its state in the page's status
          await expect.poll(() => trainee.locator('#transcript-text .partial').count(), { timeout: 15_000 }).toBe(1);
          expect(await trainee.locator('#transcript-text .partial').getAttribute('aria-hidden')).toBe('true');
          expect(await trainee.locator('#transcript-text').getAttribute('role')).toBe('log');
          expect(await trainee.locator('#transcript-state').textContent()).toBe(SPOKEN[language].partial);
          await check(trainee, 'shadow-trainee-live', true);
          await page.evaluate(() => (window as unknown as { __release: () => void }).__release());

          // the first final: in the log; marked, so the second final can be shown to leave it where it is
          const finals = log.locator('.transcript-text > :not(.partial):not(.speculative-final)');
          await expect.poll(async () => (await finals.allTextContents()).join(''), { timeout: 30_000 }).toContain('kind of polite');
          await log
            .locator('.transcript-text > span')
            .first()
            .evaluate((el) => el.setAttribute('data-first-final', ''));
          await expect
            .poll(() => trainee.locator('#transcript-text .finals').textContent(), { timeout: 15_000 })
            .toContain('kind of polite');
          await trainee.evaluate(() => {
            (window as unknown as { __firstFinal: Node | null }).__firstFinal =
              document.querySelector('#transcript-text .finals')?.firstChild ?? null;
          });
          await expect
            .poll(() => page.locator('.transcript-text mark.commit.final').textContent(), { timeout: 45_000 })
            .toBe('I label this polite');
          expect(await log.locator('[data-first-final]').count()).toBe(1);
          expect(await page.locator('.transcript + [role="status"]').textContent()).toBe('');
          await expect.poll(() => page.locator('.verdict').textContent(), { timeout: 15_000 }).toMatch(SPOKEN[language].verdict);
          expect(await page.locator('.verdict').getAttribute('aria-live')).toBe('polite');
          await check(page, 'label-recording-final', true);
          await page.keyboard.press('Space');
          await expect.poll(() => page.locator('button.record.on').count(), { timeout: 45_000 }).toBe(0);
          await check(page, 'label-recorded');

          await expect.poll(() => trainee.locator('#transcript-text .finals').textContent(), { timeout: 20_000 }).toContain('I label');
          expect(
            await trainee.evaluate(() => {
              const first = (window as unknown as { __firstFinal: Node | null }).__firstFinal;
              return first !== null && first.isConnected;
            }),
          ).toBe(true);
          expect(await trainee.locator('#transcript-state').textContent()).toBe('');
          await check(trainee, 'shadow-trainee-after', true);
        } finally {
          await browser.close();
          await served.close();
        }
        if (findings.length > 0) console.log(`axe-core findings, live (${language}):\n${findings.join('\n')}`);
        expect(findings).toEqual([]);
      },
    );
  }
});
