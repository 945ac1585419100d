import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { chromiumUnavailableReason, launchChromium, type ChromiumSession } from '../../../helpers/chromium';
import { cli } from '../../../helpers/cli';

const fixtures = path.resolve(import.meta.dirname, '../../../../../shared/fixtures/audio');
const politeClip = path.join(fixtures, 'commit-polite.wav');
const neutralClip = path.join(fixtures, 'change-to-neutral.wav');
const unavailable = chromiumUnavailableReason([politeClip, neutralClip]);
if (unavailable) console.warn(`skipping the shadow room ingest test: ${unavailable}`);

const bin = path.resolve('core/node/cli/bin.ts');
const screenshots = process.env.ALOUD_SCREENSHOTS
  ? path.resolve(process.env.ALOUD_SCREENSHOTS)
  : path.join(tmpdir(), 'aloud-shadow-screenshots');

/** What a trainee page showed and when (its own clock, which is this machine's): recorded by a MutationObserver. */
interface Trace {
  t: number;
  transcript: string;
  partial: boolean;
  expert: string;
  status: string;
}

/** Starts recording every change of the page's item as {time, transcript text, partial shown, her labels' text}. */
async function traceItem(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { shadowTrace: Trace[] };
    w.shadowTrace = [];
    const snap = () => {
      const transcript = document.getElementById('transcript-text')?.textContent ?? '';
      const expert = document.getElementById('expert')?.textContent ?? '';
      const partial = document.querySelector('#transcript-text .partial') !== null;
      const status = document.getElementById('status')?.textContent ?? '';
      const last = w.shadowTrace.at(-1);
      if (!last || last.transcript !== transcript || last.expert !== expert || last.partial !== partial || last.status !== status)
        w.shadowTrace.push({ t: Date.now(), transcript, partial, expert, status });
    };
    new MutationObserver(snap).observe(document.getElementById('room')!, { subtree: true, childList: true, characterData: true });
    snap();
  });
}
const traceOf = (page: Page) => page.evaluate(() => (window as unknown as { shadowTrace: Trace[] }).shadowTrace);

function run(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return { child, done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err }))) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/**
 * The expert's session fed by `aloud session ingest --realtime --engine-script --shadow-room CODE` (its own process)
 * drives a room that `aloud room shadow` serves (another process); two trainees watch in Chromium over loopback.
 */
describe.skipIf(unavailable !== undefined)('a shadow room fed by session ingest, watched by two trainees in Chromium', () => {
  let dir: string;
  let script: string;
  let room: ReturnType<typeof run>;
  let info: { code: string; url: string; lead_url: string; log: string; feed: string };
  let browser: ChromiumSession;
  let ben: Page;
  let cy: Page;
  const latencies: { final: number[]; label: number[] } = { final: [], label: [] };

  beforeAll(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-shadow-ingest-')), 'p');
    expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
    script = path.join(dir, '..', 'engine-script.json');
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 200 },
            { text: ' I label this polite.', delay_ms: 200 },
          ],
          'demo-02': [
            { text: ' My answer is impolite.', delay_ms: 200 },
            { text: ' Uh, actually no.', delay_ms: 200 },
            { text: ' Final answer: neutral.', delay_ms: 200 },
          ],
        },
      }),
    );
    room = run(['room', 'shadow', '--project', dir, '--annotator', 'ana', '--json']);
    info = await new Promise((resolve, reject) => {
      let seen = '';
      room.child.stdout!.on('data', (d: Buffer) => {
        seen += d.toString();
        if (seen.includes('\n')) resolve(JSON.parse(seen.slice(0, seen.indexOf('\n'))));
      });
      void room.done.then((r) => reject(new Error(`room shadow exited (${r.code}): ${r.err}`)));
    });
    browser = await launchChromium({ fakeMediaDevices: false, acceptMediaPrompts: false, screenshotsDir: screenshots });
    const join = async (name: string, by: 'click' | 'Enter') => {
      const page = await browser.newPage();
      await page.goto(info.url);
      await page.getByLabel('Room code').fill(info.code);
      await page.getByLabel('Your name').fill(name);
      if (by === 'click') await page.getByRole('button', { name: 'Join' }).click();
      else await page.getByLabel('Your name').press('Enter');
      await page.locator('#who', { hasText: `You are ${name} · shadowing ana` }).waitFor();
      return page;
    };
    ben = await join('ben', 'click');
    // a name typed and Enter: joins, as any form does
    cy = await join('cy', 'Enter');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (room && room.child.exitCode === null && room.child.signalCode === null) {
      room.child.kill('SIGTERM');
      await room.done;
    }
  });

  it(
    'both trainees see her transcript grow and her label arrive as her session logs them; ben answered first and sees it, cy sees it hidden',
    { timeout: 180_000 },
    async () => {
      await expect.poll(() => ben.locator('#status').textContent()).toBe('Waiting for ana to start…');
      for (const page of [ben, cy]) await traceItem(page);
      const ingest = run([
        'session',
        'ingest',
        '--project',
        dir,
        '--annotator',
        'ana',
        '--item',
        'demo-01',
        '--wav',
        politeClip,
        '--realtime',
        '--engine-script',
        script,
        '--shadow-room',
        info.code,
      ]);
      await expect.poll(() => ben.locator('#status').textContent(), { timeout: 30_000 }).toBe('Live: ana is labelling demo-01.');
      // ben answers before she has labelled: by key 2 (the second label), after clicking the item's text
      await expect.poll(() => ben.locator('#practice button[data-label="Impolite"]').textContent()).toBe('2Impolite');
      await ben.locator('#text').click();
      await ben.keyboard.press('2');
      await expect.poll(() => ben.locator('#practice .answer').textContent()).toBe('Impolite');
      await expect.poll(() => ben.locator('#rec').isVisible()).toBe(true);
      await ben.screenshot({ path: path.join(screenshots, 'shadow-trainee-live-1280x800.png') });
      const result = await ingest.done;
      expect(result.code, result.err).toBe(0);
      expect(result.err).toContain(`shadow room ${info.code} is watching`);
      await expect.poll(() => ben.locator('#expert .final-line').textContent(), { timeout: 10_000 }).toBe('Her label: Polite');
      await expect
        .poll(() => ben.locator('#status').textContent())
        .toBe('ana has left. You can read the last item; the room waits for her to come back.');
      expect(await ben.locator('#item-state').textContent()).toBe('her session ended on this item');

      const session = (await readSessionLog(sessionPaths(dir, 'ana').events)).events;
      const finals = session
        .filter((e) => e.type === 'utterance_transcribed')
        .map((e) => ({
          ts: Date.parse(e.ts),
          text:
            e.type === 'utterance_transcribed'
              ? e.data.segments
                  .map((s) => s.text)
                  .join('')
                  .trim()
              : '',
        }));
      const label = session.find((e) => e.type === 'label_committed')!;
      expect(finals.map((f) => f.text)).toEqual(['Hmm, well. This reply is, um, kind of polite, I guess.', 'I label this polite.']);
      for (const [name, page] of [['ben', ben] as const, ['cy', cy] as const]) {
        const trace = await traceOf(page);
        // the transcript grew: greyed partial text, then the first final, then the second
        const firstPartial = trace.findIndex((s) => s.partial);
        const firstFinal = trace.findIndex((s) => !s.partial && s.transcript.includes('kind of polite, I guess.'));
        const secondFinal = trace.findIndex(
          (s) =>
            s.transcript.includes('I guess.') &&
            /I guess\. (I label this polite|her label — hidden until you answer)\./.test(s.transcript) &&
            !s.partial,
        );
        expect(firstPartial, `${name}: a partial`).toBeGreaterThanOrEqual(0);
        expect(firstFinal, `${name}: the first final after the partial`).toBeGreaterThan(firstPartial);
        expect(secondFinal, `${name}: the second final after the first`).toBeGreaterThan(firstFinal);
        // how long after her session logged each: the expert's screen hears the same event at that moment
        latencies.final.push(trace[firstFinal]!.t - finals[0]!.ts, trace[secondFinal]!.t - finals[1]!.ts);
        // cy sees that she has labelled (hidden), or, when her session ended at once, her label with the item's end
        const labelShown = trace.findIndex((s) =>
          name === 'ben' ? s.expert.includes('Her label: Polite') : /has given her label|Her label: Polite/.test(s.expert),
        );
        expect(labelShown, `${name}: her label arrived`).toBeGreaterThanOrEqual(0);
        latencies.label.push(trace[labelShown]!.t - Date.parse(label.ts));
      }
      // cy had not answered: while the item was live her label and her commit phrase were hidden from cy, never shown
      // (cy's page hears that the session ended on its own next poll: on a busy machine later than ben's)
      await expect.poll(async () => (await traceOf(cy)).some((s) => s.status.startsWith('ana has left')), { timeout: 15_000 }).toBe(true);
      const cyTrace = await traceOf(cy);
      const ended = cyTrace.findIndex((s) => s.status.startsWith('ana has left'));
      expect(ended).toBeGreaterThan(0);
      const live = cyTrace.slice(0, ended);
      expect(
        live.every((s) => !/label this polite/i.test(s.transcript) && !s.expert.includes('Polite')),
        JSON.stringify(live),
      ).toBe(true);
      for (const s of live.filter((x) => x.expert.includes('has given her label')))
        expect(s.transcript).toContain('I guess. her label — hidden until you answer.');
      expect(cyTrace[ended]!.expert).toContain('Her label: Polite');
      // her item ended with her session: cy's practice on it is over, and everything is shown
      await expect.poll(() => cy.locator('#practice').textContent()).toBe('You did not answer on this item.');
      expect(await cy.locator('#answered').textContent()).toBe('Answers: ben Impolite');
      expect(await cy.locator('#transcript-text').textContent()).toContain('I label this polite.');
      await cy.screenshot({ path: path.join(screenshots, 'shadow-trainee-ended-1280x800.png') });
    },
  );

  it(
    'the next item: cy answers blind and then sees her label; agreement with the expert over both items; the room log and export have it',
    { timeout: 180_000 },
    async () => {
      const ingest = run([
        'session',
        'ingest',
        '--project',
        dir,
        '--annotator',
        'ana',
        '--item',
        'demo-02',
        '--wav',
        neutralClip,
        '--realtime',
        '--engine-script',
        script,
        '--shadow-room',
        info.code,
      ]);
      await expect.poll(() => cy.locator('#status').textContent(), { timeout: 30_000 }).toBe('Live: ana is labelling demo-02.');
      // cy waits until she has labelled (hidden), then answers
      await expect
        .poll(() => cy.locator('#expert').textContent(), { timeout: 30_000 })
        .toBe('ana has given her label. Give yours first: hers stays hidden until you answer or skip.');
      expect(await cy.locator('#transcript-text').textContent()).not.toMatch(/impolite/i);
      await cy.screenshot({ path: path.join(screenshots, 'shadow-trainee-hidden-1280x800.png') });
      // clicked, then keys: the answer is final, nothing more is logged
      await cy.locator('#practice button[data-label="Impolite"]').click();
      await expect.poll(() => cy.locator('#expert .expert-label').first().textContent()).toBe('Impolite');
      await cy.keyboard.press('3');
      await cy.keyboard.press('s');
      await ben.locator('#practice button[data-label="Neutral"]').click();
      await expect.poll(() => ben.locator('#practice .answer').textContent()).toBe('Neutral');
      expect((await ingest.done).code).toBe(0);
      await expect
        .poll(() => cy.locator('#expert .final-line').textContent(), { timeout: 10_000 })
        .toBe('Her label: Neutral (her first was Impolite)');
      await expect.poll(() => cy.locator('#summary').textContent()).toContain('Agreement with ana (2 items done)');
      await cy.setViewportSize({ width: 1280, height: 1000 });
      await cy.screenshot({ path: path.join(screenshots, 'shadow-trainee-summary-1280x1000.png'), fullPage: true });
      const rows = await cy.locator('#summary table tr').allTextContents();
      expect(rows).toHaveLength(3);
      // ben over both items: Impolite where she said Polite, Neutral where she ended on Neutral (her first was Impolite)
      expect(await cy.locator('#summary table tr:nth-child(2) td').allTextContents()).toEqual([
        'ben',
        '2',
        '0',
        '1 of 2',
        expect.stringMatching(/^0\.40 \[/),
        expect.stringMatching(/^-/),
        expect.stringMatching(/ s$/),
      ]);
      expect(await cy.locator('#summary .diverged').textContent()).toContain('demo-01: 1 of 1 answered otherwise (she said Polite)');

      // what a trainee's page can reach: the room, nothing else
      const reach = await ben.evaluate(async () => {
        const token = sessionStorage.getItem('aloud-shadow-token')!;
        const out: Record<string, number> = {};
        for (const p of ['/api/call', '/api/commitLabel', '/api/session', '/api/project', '/api/lead/close', '/api/audio?item=demo-02']) {
          out[p] = (
            await fetch(p, {
              method: p.includes('lead') || p.includes('call') || p.includes('commit') ? 'POST' : 'GET',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: p.includes('lead') || p.includes('call') || p.includes('commit') ? '{}' : undefined,
            })
          ).status;
        }
        return out;
      });
      expect(reach).toEqual({
        '/api/call': 404,
        '/api/commitLabel': 404,
        '/api/session': 404,
        '/api/project': 404,
        '/api/lead/close': 403,
        '/api/audio?item=demo-02': 403,
      });
      const sessionLog = await readFile(sessionPaths(dir, 'ana').events, 'utf8');
      expect(sessionLog).not.toMatch(/"ben"|"cy"|practice|shadow/);

      const exported = await cli('room', 'export', info.code, '--project', dir, '--json');
      expect(exported.code, exported.err).toBe(0);
      const record = JSON.parse(exported.out) as {
        kind: string;
        log: Array<{ type: string; data: Record<string, unknown> }>;
        metrics: {
          items: number;
          trainees: Array<{
            name: string;
            answered: number;
            skipped: number;
            agree_final: number;
            alpha_final: number | null;
            ci95_final: [number, number] | null;
          }>;
        };
      };
      expect(record.kind).toBe('shadow');
      expect(record.metrics.items).toBe(2);
      expect(record.metrics.trainees.map((t) => [t.name, t.answered, t.skipped, t.agree_final])).toEqual([
        ['ben', 2, 0, 1],
        ['cy', 1, 0, 0],
      ]);
      expect(record.metrics.trainees[0]!.alpha_final).toBeCloseTo(0.4, 10);
      expect(record.metrics.trainees[0]!.ci95_final).not.toBeNull();
      expect(
        record.log.filter((e) => e.type === 'practice_vote').map((e) => [e.data.item_id, e.data.label, e.data.expert_had_labelled]),
      ).toEqual([
        ['demo-01', 'Impolite', false],
        ['demo-02', 'Impolite', true],
        ['demo-02', 'Neutral', true],
      ]);
      expect(record.log.filter((e) => e.type === 'label_act').map((e) => [e.data.item_id, e.data.label, e.data.source])).toEqual([
        ['demo-01', 'Polite', 'voice'],
        ['demo-02', 'Impolite', 'voice'],
        ['demo-02', 'Neutral', 'voice'],
      ]);
    },
  );

  it('closing the room (Ctrl-C) ends live view cleanly: both pages say so and stop asking', { timeout: 60_000 }, async () => {
    room.child.kill('SIGINT');
    expect((await room.done).code).toBe(0);
    for (const page of [ben, cy])
      await expect
        .poll(() => page.locator('#status').textContent(), { timeout: 15_000 })
        .toBe('The room was closed. Thank you for taking part.');
    await ben.screenshot({ path: path.join(screenshots, 'shadow-trainee-closed-1280x800.png') });
    const log = await readFile(info.log, 'utf8');
    expect(log.trimEnd().split('\n').at(-1)).toContain('"type":"room_closed"');
    expect(browser.pageErrors.filter((e) => !/40[34]/.test(e))).toEqual([]);
    console.log(
      `shadow room latency over loopback (trainee page shows it − her session logged it), ms: finals median ${median(latencies.final)} (n=${latencies.final.length}, max ${Math.max(...latencies.final)}); label median ${median(latencies.label)} (n=${latencies.label.length}, max ${Math.max(...latencies.label)})`,
    );
  });
});
