import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { ItemSessionState } from '../../core/common/session/itemState';
import { ensureRendererBuilt } from '../../core/node/app/rendererBuild';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../helpers/chromium';
import { screenshotsDir, serveProject, shootBoth } from './appHarness';
import { seededRandom } from '../../core/common/agreement/krippendorff';

const unavailable = chromiumUnavailableReason();
if (unavailable) console.warn(`skipping the keyboard-model E2E: ${unavailable}`);

/**
 * The one keyboard model in headless Chromium (browser mode): whatever the mouse clicked last, Space records, Enter
 * completes, the digits label, the arrows move, ? and Ctrl+G open their dialogs and Esc gives the keys back; a
 * dialog's typing lands in its field; no key press logs an act twice. The demo project with spoken labels not
 * required, so Enter completes any labelled item, and a scripted engine that answers nothing (Chromium's fake
 * microphone plays a beep).
 */
describe.skipIf(unavailable !== undefined)('one keyboard model, whatever was clicked', () => {
  let served: Awaited<ReturnType<typeof serveProject>>;
  let browser: ChromiumSession;
  let page: Page;

  beforeAll(async () => {
    const rendererDir = await ensureRendererBuilt(() => undefined, { force: true });
    const script = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-e2e-keys-')), 'engine-script.json');
    await writeFile(script, JSON.stringify({ items: {} }));
    served = await serveProject({ rendererDir, configExtra: '  require_spoken_label: false', app: { engineScript: script } });
    browser = await launchChromium({ screenshotsDir });
    page = await browser.newPage();
  }, 120_000);

  beforeEach((context) => {
    onTestFailed(async () => {
      await browser.screenshot(page, `failed-keys-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const host = () => served.app.session();
  const itemOf = async (id: string): Promise<ItemSessionState | undefined> => (await served.app.sessionItem(id)) ?? undefined;
  /** every item the session holds, in full (read-only: asking changes nothing the page is sent) */
  const heldItems = async (): Promise<ItemSessionState[]> =>
    (await Promise.all((await served.app.project()).items.map((item) => served.app.sessionItem(item.id)))).filter(
      (state): state is ItemSessionState => state !== null,
    );
  const goTo = async (id: string) => {
    await page.keyboard.press('Control+g');
    await page.keyboard.type(id);
    await page.keyboard.press('Enter');
    await poll(() => shownItem(page)).toBe(id);
    await poll(async () => (await host()).current_item).toBe(id);
  };
  const recordingItem = async () => (await host()).recording_item;
  /** the page shows the recording (its recorder is open, so the next Space stops it) on the host's item */
  const recordingShown = async () => ((await page.getByRole('button', { name: 'Stop' }).count()) > 0 ? await recordingItem() : null);
  /** no navigation or completion is under way (the item pane is not busy) and the page and the host agree on the item */
  const settled = async () => {
    await poll(
      async () =>
        (await page.locator('.item-pane[aria-busy="true"]').count()) === 0 && (await host()).current_item === (await shownItem(page)),
    ).toBe(true);
    return shownItem(page);
  };

  it('a clicked item in the sidebar: Space records (and stops), no focus ring takes it', async () => {
    await page.goto(served.host.url);
    await page.getByLabel('Your annotator name').fill('kim');
    await page.getByRole('button', { name: 'Start labelling' }).click();
    await poll(() => shownItem(page)).toBe('demo-01');
    await page.locator('.item-link', { hasText: 'demo-05' }).click();
    await poll(() => shownItem(page)).toBe('demo-05');
    await page.keyboard.press('Space');
    await poll(recordingShown).toBe('demo-05');
    await page.keyboard.press('Space');
    await poll(recordingItem, { timeout: 15_000 }).toBeNull();
    expect((await itemOf('demo-05'))?.audio_ms).toBeGreaterThan(0);
  });

  it('after "Next →" is clicked, Space records on the item it opened and does not skip another item', async () => {
    await page.getByRole('button', { name: 'Next →' }).click();
    await poll(() => shownItem(page)).toBe('demo-06');
    await page.keyboard.press('Space');
    await poll(recordingShown).toBe('demo-06');
    await page.keyboard.press('Space');
    await poll(recordingItem, { timeout: 15_000 }).toBeNull();
    expect(await shownItem(page)).toBe('demo-06');
  });

  it('after a label button is clicked, Enter completes the item: one click act, never a second one', async () => {
    await page.getByRole('button', { name: /Impolite/ }).click();
    await poll(async () => (await itemOf('demo-06'))?.final_label).toBe('Impolite');
    await page.keyboard.press('Enter');
    await poll(() => shownItem(page)).toBe('demo-07');
    const item = (await itemOf('demo-06'))!;
    expect(item.completed_at).not.toBeNull();
    expect(item.label_history.map((a) => [a.source, a.label])).toEqual([['click', 'Impolite']]);
  });

  it('Esc gives the keys back from a control reached with Tab', async () => {
    await page.getByRole('button', { name: 'Next →' }).focus();
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('Space');
    await poll(recordingShown).toBe('demo-07');
    await page.keyboard.press('r');
    await poll(recordingItem, { timeout: 15_000 }).toBeNull();
    expect(await shownItem(page)).toBe('demo-07');
  });

  it('Ctrl+G puts the focus in its field: what is typed lands there and Enter goes to the item', async () => {
    await page.keyboard.press('Control+g');
    const dialog = page.getByRole('dialog', { name: 'Go to item' });
    await poll(() => dialog.count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('jump-query');
    await page.keyboard.type('demo-12');
    expect(await page.getByLabel('Item id or words from its text').inputValue()).toBe('demo-12');
    await page.keyboard.press('Enter');
    await poll(() => shownItem(page)).toBe('demo-12');
    expect(await dialog.count()).toBe(0);
  });

  it(
    'clicking every control of the Label screen, then pressing every shortcut: each key does what it says',
    { timeout: 300_000 },
    async () => {
      // every control a person can click on the Label screen, with what undoes its effect (a dialog closes, a tab comes back)
      const controls: Array<{ name: string; click: () => Promise<void> }> = [
        { name: 'a sidebar item', click: () => page.locator('.item-link', { hasText: 'demo-09' }).click() },
        { name: '← Prev', click: () => page.getByRole('button', { name: '← Prev' }).click() },
        { name: 'Next →', click: () => page.getByRole('button', { name: 'Next →' }).click() },
        { name: 'label 1', click: () => page.getByRole('button', { name: /^1 Polite/ }).click() },
        { name: 'label 2', click: () => page.getByRole('button', { name: /^2 Impolite/ }).click() },
        { name: 'label 3', click: () => page.getByRole('button', { name: /^3 Neutral/ }).click() },
        {
          name: 'Record, then Stop',
          click: async () => {
            await page.locator('button.record').click();
            await poll(recordingShown).not.toBeNull();
            await page.getByRole('button', { name: 'Stop' }).click();
            await poll(recordingItem, { timeout: 15_000 }).toBeNull();
          },
        },
        {
          name: 'Complete',
          click: async () => {
            await page.getByRole('button', { name: /^3 Neutral/ }).click();
            const before = await shownItem(page);
            await page.getByRole('button', { name: /Complete/ }).click();
            await poll(() => shownItem(page)).not.toBe(before);
          },
        },
        {
          name: 'Go to… and its ✕',
          click: async () => {
            await page.getByRole('button', { name: 'Go to…' }).click();
            await page.getByRole('button', { name: 'close Go to item' }).click();
          },
        },
        {
          name: '? and its ✕',
          click: async () => {
            await page.getByRole('button', { name: 'keyboard shortcuts' }).click();
            await page.getByRole('button', { name: 'close Keyboard shortcuts' }).click();
          },
        },
        {
          name: 'the note field and Add note',
          click: async () => {
            const note = page.getByRole('textbox', { name: 'note' });
            await note.click();
            await page.keyboard.type('seen');
            await page.getByRole('button', { name: 'Add note' }).click();
            await poll(() => note.inputValue()).toBe('');
          },
        },
        {
          name: 'the Review tab, then the Label tab',
          click: async () => {
            await page.getByRole('tab', { name: 'Review' }).click();
            await page.getByRole('tab', { name: 'Label' }).click();
          },
        },
        {
          name: 'the export choices',
          click: async () => {
            await page.getByLabel('export whose sessions').click();
            await page.getByLabel('export whose sessions').selectOption('all');
            await page.getByLabel('export format').click();
            await page.getByLabel('export format').selectOption('csv');
          },
        },
        { name: 'the page itself', click: () => page.locator('.item-text').click() },
      ];
      for (const control of controls) {
        await goTo('demo-15');
        await control.click();
        await poll(() => page.getByRole('dialog').count()).toBe(0);
        await pressEveryShortcut(control.name);
      }
    },
  );

  /** Every shortcut of the Label screen, each checked against the host (or the page for the dialogs). */
  async function pressEveryShortcut(after: string): Promise<void> {
    const at = await settled();
    const index = Number(at.slice(-2));
    const acts = async () => (await itemOf(at))?.label_history.length ?? 0;
    const before = await acts();
    await page.keyboard.press('3');
    // on a completed item a change asks first, and Enter says yes: still one act for one press
    if ((await itemOf(at))?.completed_at && (await itemOf(at))?.final_label !== 'Neutral') {
      await poll(() => page.locator('.confirm-change').count(), { message: `3 on a completed item after ${after}` }).toBe(1);
      expect(await acts()).toBe(before);
      await page.keyboard.press('Enter');
    }
    await poll(acts, { message: `3 after ${after}` }).toBe(before + 1);
    expect((await itemOf(at))!.label_history.at(-1)).toMatchObject({ source: 'key', label: 'Neutral' });
    const target = index < 20 ? `demo-${String(index + 1).padStart(2, '0')}` : `demo-${String(index - 1).padStart(2, '0')}`;
    await page.keyboard.press(index < 20 ? 'ArrowRight' : 'ArrowLeft');
    await poll(() => shownItem(page), { message: `arrow after ${after}` }).toBe(target);
    await page.keyboard.press(index < 20 ? 'ArrowLeft' : 'ArrowRight');
    await poll(() => shownItem(page), { message: `arrow back after ${after}` }).toBe(at);
    await page.keyboard.press('Space');
    await poll(recordingShown, { message: `Space after ${after}` }).toBe(at);
    await page.keyboard.press('Space');
    await poll(recordingItem, { timeout: 15_000, message: `Space (stop) after ${after}` }).toBeNull();
    await page.keyboard.press('?');
    await poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count(), { message: `? after ${after}` }).toBe(1);
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Control+g');
    await poll(() => page.evaluate(() => document.activeElement?.id), { message: `Ctrl+G after ${after}` }).toBe('jump-query');
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Enter');
    await poll(async () => (await itemOf(at))?.completed_at ?? null, { message: `Enter after ${after}` }).not.toBeNull();
    await poll(() => shownItem(page), { message: `Enter moves on after ${after}` }).not.toBe(at);
    // the key's act and nothing else: Enter pressed no label button
    expect((await itemOf(at))!.label_history.length).toBe(before + 1);
  }

  it(
    '20 items by keyboard only after random clicks: every key press is one act in the record, none twice',
    { timeout: 300_000 },
    async () => {
      // seeded (mulberry32), so the random clicks are the same on every run
      const random = seededRandom(18);
      let labelClicks = 0;
      const clickable = [
        () =>
          page
            .locator('.item-link')
            .nth(Math.floor(random() * 20))
            .click(),
        async () => {
          const next = page.getByRole('button', { name: 'Next →' });
          if (await next.isEnabled()) await next.click();
        },
        async () => {
          const prev = page.getByRole('button', { name: '← Prev' });
          if (await prev.isEnabled()) await prev.click();
        },
        async () => {
          const n = 1 + Math.floor(random() * 3);
          const id = await settled();
          const acts = async () => (await itemOf(id))?.label_history.length ?? 0;
          const before = await acts();
          await page
            .locator('.label-btn')
            .nth(n - 1)
            .click();
          labelClicks++;
          // a changed label of a completed item asks first: the click is then confirmed with the mouse too
          const confirm = page.locator('.confirm-change button.primary');
          await poll(async () => (await confirm.count()) > 0 || (await acts()) > before).toBe(true);
          if ((await confirm.count()) > 0) {
            await confirm.click();
            await poll(acts).toBe(before + 1);
          }
        },
        () => page.getByRole('button', { name: /Complete/ }).click(),
        async () => {
          await page.getByRole('tab', { name: 'Review' }).click();
          await page.getByRole('tab', { name: 'Label' }).click();
        },
        () => page.locator('.item-text').click(),
      ];
      const logFile = path.join(served.projectDir, 'sessions', 'kim', 'events.jsonl');
      const clickActsInLog = async () =>
        (await readFile(logFile, 'utf8')).split('\n').filter((l) => l.includes('"label_committed"') && l.includes('"source":"click"'))
          .length;
      const clicksBefore = await clickActsInLog();
      for (let n = 0; n < 40; n++) {
        await clickable[Math.floor(random() * clickable.length)]!();
        await settled();
      }
      const actsBefore = new Map((await heldItems()).map((i) => [i.item_id, i.label_history.length]));
      const pressed = new Map<string, string>();
      for (let n = 1; n <= 20; n++) {
        const id = `demo-${String(n).padStart(2, '0')}`;
        await goTo(id);
        const key = String(1 + Math.floor(random() * 3));
        const state = await itemOf(id);
        const label = ['Polite', 'Impolite', 'Neutral'][Number(key) - 1]!;
        await page.keyboard.press(key);
        if (state?.completed_at && state.final_label !== null && state.final_label !== label) {
          await poll(() => page.locator('.confirm-change').count()).toBe(1);
          await page.keyboard.press('Enter');
        }
        await poll(async () => (await itemOf(id))?.final_label).toBe(label);
        pressed.set(id, label);
        await page.keyboard.press('Enter');
        await poll(async () => (await itemOf(id))?.completed_at ?? null).not.toBeNull();
      }
      const items = await heldItems();
      let keyActs = 0;
      for (const item of items) {
        const added = item.label_history.slice(actsBefore.get(item.item_id) ?? 0);
        if (pressed.has(item.item_id)) {
          // the one key press of this phase, and nothing else after it
          expect(
            added.map((a) => [a.source, a.label]),
            item.item_id,
          ).toEqual([['key', pressed.get(item.item_id)]]);
        }
        keyActs += item.label_history.filter((a) => a.source === 'key').length;
        const seen = new Set(item.label_history.map((a) => `${a.source} ${a.label} ${a.at}`));
        expect(seen.size, `${item.item_id}: two identical acts at one moment`).toBe(item.label_history.length);
      }
      // every act in the log came from one click or one key press: as many click acts as label clicks of this phase
      const log = (await readFile(logFile, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; data: { source?: string } });
      expect(keyActs).toBe(log.filter((e) => e.type === 'label_committed' && e.data.source === 'key').length);
      expect((await clickActsInLog()) - clicksBefore).toBe(labelClicks);
      await shootBoth(browser, page, '22-keyboard-session');
    },
  );
});

/** expect.poll with room for a busy machine (every key press is a round trip to the host). */
function poll<T>(read: () => T | Promise<T>, options: { timeout?: number; message?: string } = {}) {
  return expect.poll(read, { timeout: 15_000, interval: 50, ...options });
}

/** The item the Label screen shows (its id in the counter). */
async function shownItem(page: Page): Promise<string> {
  return (await page.locator('.item-head .counter code').textContent()) ?? '';
}
