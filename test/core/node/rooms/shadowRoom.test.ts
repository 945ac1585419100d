import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';
import type { ShadowRoomStatus, ShadowView } from '../../../../core/common/rooms/shadowViews';
import { textWords } from '../../../../core/common/session/textSelection';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { readWav, resampleTo16k } from '../../../../core/node/audio/wavFile';
import { initProject } from '../../../../core/node/project/projectFolder';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';
import { ShadowClient } from './shadowClient';

const clip = path.resolve(import.meta.dirname, '../../../../../shared/fixtures/audio/commit-polite.wav');
const skip = existsSync(clip) ? undefined : `fixture ${clip} is absent`;
if (skip) console.warn(`skipping the shadow room test: ${skip}`);

const hiddenText = (v: ShadowView) => JSON.stringify({ ...v.current, text: '' });

/**
 * The app's shadow room, in process: the annotator's session (browser-mode app, scripted engine) is watched by two
 * trainees over the room's own listener on 127.0.0.1. Everything the trainees see comes from polling with a cursor.
 */
describe.skipIf(skip !== undefined)('a shadow room opened from the app', () => {
  let app: AppService;
  let projectDir: string;
  let status: ShadowRoomStatus;
  let ben: ShadowClient;
  let cy: ShadowClient;
  const call = async <T = unknown>(method: string, ...args: unknown[]): Promise<T> => {
    const outcome = await dispatchApiCall(app, method, args);
    if (!outcome.ok) throw new Error(`${method}: ${JSON.stringify(outcome)}`);
    return outcome.result as T;
  };
  /** the clip through the app's appendAudio, in 50 ms frames (as fast as the host takes them) */
  async function speak(): Promise<void> {
    const wav = await readWav(clip);
    const pcm = resampleTo16k(wav.samples, wav.sampleRate);
    await call('startRecording', null);
    for (let at = 0; at < pcm.length; at += 800)
      await call('appendAudio', encodeChunkFrame({ startSample: at, pcm: pcm.subarray(at, at + 800) }));
    await call('stopRecording');
  }

  beforeAll(async () => {
    projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-shadow-app-')), 'p');
    await initProject(projectDir, { demo: true });
    const script = path.join(projectDir, '..', 'script.json');
    await writeFile(
      script,
      JSON.stringify({
        items: {
          'demo-01': [
            { text: ' Hmm, well. This reply is, um, kind of polite, I guess.', delay_ms: 50 },
            { text: ' I label this polite.', delay_ms: 50 },
          ],
        },
      }),
    );
    app = await AppService.open({ projectDir, mode: 'browser', engineScript: script });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it(
    'opens only for an open session, on 127.0.0.1, and shows her item to trainees who join with the code',
    { timeout: 60_000 },
    async () => {
      expect(await dispatchApiCall(app, 'openShadowRoom', [false])).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/no session is open|open your session first/) },
      });
      await call('openSession', 'ana');
      await call('openItem', 'demo-01');
      status = await call<ShadowRoomStatus>('openShadowRoom', false);
      expect(status).toMatchObject({ lan: false, address: '127.0.0.1' });
      expect(status.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(status.view).toMatchObject({
        expert: { name: 'ana', present: true },
        audio_shared: false,
        current: { item_id: 'demo-01', live: true },
      });
      expect(await dispatchApiCall(app, 'openShadowRoom', [false])).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/is open; close it first/) },
      });
      ben = await ShadowClient.join(status.url, status.code.toLowerCase(), 'ben');
      cy = await ShadowClient.join(status.url, status.code, 'cy');
      expect((await ShadowClient.join(status.url, status.code, 'cy').catch((e: Error) => e)) instanceof Error).toBe(true);
      const seen = await ben.until((v) => v.current?.item_id === 'demo-01', 'demo-01');
      expect(seen.current!.text).toContain('Thank you so much for your patience');
    },
  );

  it('the words she selects show as she selects them; the selection is logged in her session', { timeout: 60_000 }, async () => {
    const text = (await call<{ items: Array<{ id: string; text: string }> }>('project')).items.find((i) => i.id === 'demo-01')!.text;
    const words = textWords(text);
    const patience = words.find((w) => w.word === 'patience')!;
    const your = words.find((w) => w.word === 'your')!;
    await call('selectText', your.start, patience.end);
    const v = await ben.until((view) => view.current?.selection !== null, 'her selection');
    expect(v.current!.selection).toEqual({ start: your.start, end: patience.end, quote: 'your patience' });
    const log = await readFile(sessionPaths(projectDir, 'ana').events, 'utf8');
    expect(log).toContain('"type":"text_selected","data":{"item_id":"demo-01","span":{"start"');
    // half a word is refused, and shows nothing
    expect(await dispatchApiCall(app, 'selectText', [your.start + 1, patience.end])).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/whole words/) },
    });
  });

  it(
    "practice: ben answers before she labels; her spoken label is hidden from cy until cy answers; nobody sees another's answer",
    { timeout: 90_000 },
    async () => {
      expect((await ben.practise('demo-01', 'Impolite')).status).toBe(200);
      await speak();
      // her transcript grew and her label arrived; cy has not answered: the commit phrase and the label are hidden
      const cyView = await cy.until(
        (v) => v.current!.expert.shown === false && (v.current!.expert as { has_labelled: boolean }).has_labelled,
        'her label (hidden)',
      );
      expect(cyView.current!.transcript.map((p) => (p.kind === 'hidden' ? '▮' : p.text)).join('')).toContain('kind of polite, I guess. ▮.');
      expect(hiddenText(cyView)).not.toMatch(/label this polite|"Polite"|Impolite/);
      expect(cyView.current!.practice).toEqual({ mine: null, answered: ['ben'] });
      // ben answered before: he sees her label and its source
      const benView = await ben.until((v) => v.current!.expert.shown && v.current!.expert.final_label === 'Polite', 'her label');
      expect(benView.current!.expert).toMatchObject({
        shown: true,
        acts: [{ label: 'Polite', source: 'voice', quote: 'I label this polite' }],
      });
      expect(benView.current!.practice.mine).toMatchObject({ label: 'Impolite' });
      expect(hiddenText(benView)).not.toContain('"answers"');
      // cy answers: now cy sees it
      expect((await cy.practise('demo-01', 'Polite')).status).toBe(200);
      expect((await cy.practise('demo-01', 'Neutral')).status).toBe(409);
      const after = await cy.until((v) => v.current!.expert.shown, 'her label after answering');
      expect(after.current!.transcript.some((p) => p.kind === 'commit')).toBe(true);
    },
  );

  it(
    'she moves on: the item ends for everyone with all answers shown, and the next item comes live; agreement is computed',
    { timeout: 60_000 },
    async () => {
      await call('openItem', 'demo-02');
      const v = await ben.until((view) => view.current?.item_id === 'demo-02', 'demo-02');
      expect(v.current!.live).toBe(true);
      expect((await ben.practise('demo-01', 'Polite')).body.error).toMatch(/has left "demo-01"/);
      await cy.practise('demo-02', 'Neutral');
      await call('commitLabel', 'Neutral', 'key');
      await ben.practise('demo-02', null);
      await call('openItem', 'demo-03');
      await call('commitLabel', 'Impolite', 'click');
      await ben.practise('demo-03', 'Impolite');
      await cy.practise('demo-03', 'Polite');
      await call('openItem', 'demo-04');
      const done = await cy.until((view) => view.metrics.items === 3, 'three items done');
      const rows = Object.fromEntries(done.metrics.trainees.map((t) => [t.name, t]));
      expect(rows.ben).toMatchObject({ answered: 2, skipped: 1, agree_final: 1 });
      expect(rows.cy).toMatchObject({ answered: 3, skipped: 0, agree_final: 2 });
      expect(done.metrics.per_item.find((p) => p.item_id === 'demo-01')).toMatchObject({
        expert_final: 'Polite',
        answers: { ben: 'Impolite', cy: 'Polite' },
      });
      expect(done.metrics.diverged_most.map((d) => d.item_id)).toEqual(['demo-01', 'demo-03']);
      // trainees never get each other's ids
      expect(JSON.stringify(done)).not.toMatch(/member_id":"t[0-9a-f]+".*member_id":"t/);
    },
  );

  it(
    "a trainee cannot reach the annotation API, her session, her audio (until she shares it) or the expert's controls; nothing they do reaches her log",
    { timeout: 90_000 },
    async () => {
      const log = sessionPaths(projectDir, 'ana').events;
      const before = await readFile(log);
      for (const [method, p, body] of [
        ['POST', '/api/call', { method: 'commitLabel', args: ['Neutral', 'key'] }],
        ['POST', '/api/commitLabel', { label: 'Neutral' }],
        ['POST', '/api/vote', { item_id: 'demo-04', label: 'Neutral' }],
        ['GET', '/api/session', undefined],
        ['GET', '/api/project', undefined],
        ['GET', '/sessions/ana/events.jsonl', undefined],
        ['GET', '/api/events', undefined],
      ] as const) {
        expect((await ben.call(method, p, body)).status, p).toBe(404);
      }
      for (const p of ['/api/lead/audio', '/api/lead/close', '/api/lead/remove'])
        expect((await ben.call('POST', p, { on: true, member_id: 'x' })).status, p).toBe(403);
      expect((await ben.call('GET', '/api/audio?item=demo-04')).status).toBe(403);
      expect(await readFile(log)).toEqual(before);

      // she shares her audio: trainees fetch what she records from then on; never before
      await call('shareShadowAudio', true);
      await ben.until((v) => v.audio_shared, 'audio shared');
      await call('startRecording', null);
      const tone = new Float32Array(800).map((_, i) => 0.2 * Math.sin(i / 5));
      for (let k = 0; k < 30; k++) await call('appendAudio', encodeChunkFrame({ startSample: k * 800, pcm: tone }));
      const audio = await fetch(new URL('/api/audio?item=demo-04&from=0', status.url), {
        headers: { Authorization: `Bearer ${ben.token}` },
      });
      expect(audio.status).toBe(200);
      expect(audio.headers.get('x-audio-start')).toBe('0');
      const samples = new Int16Array(await audio.arrayBuffer());
      expect(samples.length).toBeGreaterThan(0);
      expect(samples[5]).toBe(Math.round(0.2 * Math.sin(1) * 32767));
      await call('stopRecording');
      await call('shareShadowAudio', false);
      await ben.until((v) => !v.audio_shared, 'audio no longer shared');
      expect((await ben.call('GET', '/api/audio?item=demo-04')).status).toBe(403);
      // what the trainees did is in the room's log only
      const after = await readFile(log, 'utf8');
      expect(after).not.toMatch(/"ben"|"cy"|practice/);
    },
  );

  it(
    'a trainee reconnecting resumes at the cursor; closing the room ends live view cleanly; room export has the record',
    { timeout: 60_000 },
    async () => {
      // the last transcriptions of her recording have landed: the room is quiet
      await expect
        .poll(async () => (await call<{ pending_transcriptions: number }>('session')).pending_transcriptions, { timeout: 20_000 })
        .toBe(0);
      await ben.until((v) => v.current!.recording === false, 'the recording stopped');
      // a page that lost its connection asks again with the cursor it had: nothing changed, nothing resent
      const again = new ShadowClient(status.url, 'ben', ben.token);
      // (a late event of her session may land between the two requests: then ask again, at the new head)
      let unchanged: Awaited<ReturnType<ShadowClient['call']>> | undefined;
      for (let tries = 0; tries < 5 && unchanged?.body.unchanged !== true; tries++) {
        again.seq = (await ben.view()).seq;
        unchanged = await again.call('GET', `/api/state?after=${again.seq}`);
      }
      expect(unchanged!.body).toEqual({ seq: again.seq, unchanged: true });
      // a poll waiting when the room closes hears it at once
      const waiting = again.poll();
      await call('closeShadowRoom');
      const closed = await waiting;
      expect(closed).toMatchObject({ closed: true, current: { item_id: 'demo-04', live: false, ended: 'room_closed' } });
      expect((await cy.practise('demo-04', 'Polite')).status).toBe(409);
      expect(await call('shadowRoom')).toBeNull();
      // her session goes on
      await call('commitLabel', 'Polite', 'key');
      const exported = await cli('room', 'export', status.code, '--project', projectDir, '--json');
      expect(exported.code, exported.err).toBe(0);
      const record = JSON.parse(exported.out) as {
        kind: string;
        expert: string;
        log: Array<{ type: string; data: Record<string, unknown> }>;
        metrics: { items: number };
      };
      expect(record).toMatchObject({ kind: 'shadow', expert: 'ana', metrics: { items: 3 } });
      const types = record.log.map((e) => e.type);
      for (const t of [
        'shadow_opened',
        'expert_joined',
        'trainee_joined',
        'item_shown',
        'text_selected',
        'recording',
        'utterances',
        'label_act',
        'practice_vote',
        'item_left',
        'audio_shared',
        'room_closed',
      ])
        expect(types, t).toContain(t);
      expect(
        record.log.filter((e) => e.type === 'practice_vote').map((e) => [e.data.item_id, e.data.label, e.data.expert_had_labelled]),
      ).toEqual([
        ['demo-01', 'Impolite', false],
        ['demo-01', 'Polite', true],
        ['demo-02', 'Neutral', false],
        ['demo-02', null, true],
        ['demo-03', 'Impolite', true],
        ['demo-03', 'Polite', true],
      ]);
    },
  );
});
