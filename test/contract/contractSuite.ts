import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { encodeChunkFrame } from '../../core/common/audio/chunkFrame';
import type { AloudEvent } from '../../core/common/contract/aloudApi';
import type { SessionPatch } from '../../core/common/session/sessionApi';
import { Refusal as ApiError } from '../../core/common/refusal/refusal';
import { decodeWav } from '../../core/node/audio/wavFile';
import type { ApiClient } from '../../renderer/src/contract/apiClient';
import { loadProjectConfig, loadProjectItems } from '../../core/node/project/projectFolder';
import { SessionService } from '../../core/node/session/sessionService';
import { adjudicate } from '../../core/node/adjudication/projectAdjudication';

/** Three annotators' completed click labels written through the session service (clicks complete here: spoken labels not required). */
async function threeAnnotators(dir: string): Promise<void> {
  const loaded = await loadProjectConfig(dir);
  const project = { ...loaded, config: { ...loaded.config, thinkaloud: { ...loaded.config.thinkaloud, require_spoken_label: false } } };
  const items = await loadProjectItems(project);
  const plan: Record<string, Array<[string, string]>> = {
    ana: [
      ['demo-02', 'Polite'],
      ['demo-03', 'Polite'],
    ],
    ben: [
      ['demo-02', 'Polite'],
      ['demo-03', 'Impolite'],
    ],
    cai: [
      ['demo-02', 'Impolite'],
      ['demo-03', 'Neutral'],
    ],
  };
  for (const [annotator, labels] of Object.entries(plan)) {
    const session = await SessionService.open({ project, annotator, items });
    for (const [itemId, label] of labels) {
      await session.openItem(itemId);
      await session.commitLabel(label, 'click');
      await session.completeItem();
    }
    await session.close();
  }
}

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const fixturesDir = path.resolve(repoRoot, '../shared/fixtures/audio');
export const haveFixtures = existsSync(fixturesDir);

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected the call to fail');
}

/** Sends a WAV as the capture module would: 200 ms binary chunk frames on the recording's timeline. */
export async function sendWav(client: ApiClient, file: string): Promise<number> {
  const wav = decodeWav(await readFile(file), file);
  expect(wav.sampleRate).toBe(16_000);
  const step = 3200;
  for (let start = 0; start < wav.samples.length; start += step) {
    await client.appendAudio(encodeChunkFrame({ startSample: start, pcm: wav.samples.slice(start, start + step) }));
  }
  return wav.samples.length;
}

/**
 * One suite for every transport: the same calls must behave the same over Electron IPC and over HTTP.
 * `connect` gives a client over a fresh copy of the demo project (no whisper model: audio-only session).
 */
export function contractSuite(connect: () => Promise<{ client: ApiClient; mode: 'electron' | 'browser' }>): void {
  it('describes the app and the project', async () => {
    const { client, mode } = await connect();
    const info = await client.appInfo();
    expect(info.mode).toBe(mode);
    expect(info.app_version).toMatch(/^\d+\.\d+\.\d+/);
    const project = await client.project();
    expect(project.name).toBe('politeness-demo');
    expect(project.schema.labels.map((l) => l.name)).toEqual(['Polite', 'Impolite', 'Neutral']);
    expect(project.items).toHaveLength(20);
  });

  it('refuses session calls before a session is open, and bad arguments with bad_request', async () => {
    const { client } = await connect();
    expect((await rejection(client.openItem('demo-01'))).code).toBe('conflict');
    await client.openSession('ana');
    expect((await rejection(client.openItem(42 as unknown as string))).code).toBe('bad_request');
    expect((await rejection(client.commitLabel('Polite', 'voice' as 'click'))).code).toBe('bad_request');
    expect((await rejection(client.exportSession('xml' as 'csv'))).code).toBe('bad_request');
    expect((await rejection(client.openItem('no-such-item'))).message).toContain('no-such-item');
  });

  it('labels by key, keeps the first label as blind, and requires a spoken label to complete', async () => {
    const { client } = await connect();
    await client.openSession('ana');
    await client.openItem('demo-08');
    await client.commitLabel('Polite', 'click');
    const patch: SessionPatch = await client.commitLabel('Impolite', 'key');
    // an act answers with the item it changed, not the whole session
    expect(patch.changed_items.map((i) => i.item_id)).toEqual(['demo-08']);
    const item = patch.changed_items[0]!;
    expect(item).toMatchObject({ final_label: 'Impolite', label_source: 'key', blind_label: 'Polite' });
    const refused = await rejection(client.completeItem());
    expect(refused.code).toBe('spoken_label_required');
    expect(refused.message).toContain('demo-08');
  });

  it.skipIf(!haveFixtures)('records binary audio chunks into the item and pushes events', async () => {
    const { client } = await connect();
    const events: AloudEvent[] = [];
    const stop = client.onEvent((e) => events.push(e));
    try {
      await client.openSession('ana');
      await client.openItem('demo-01');
      // let the event stream connect before the recording starts
      await new Promise((r) => setTimeout(r, 200));
      await client.startRecording(null);
      const fed = await sendWav(client, path.join(fixturesDir, 'commit-polite.wav'));
      const patch = await client.stopRecording();
      const item = patch.changed_items.find((i) => i.item_id === 'demo-01')!;
      expect(Math.abs(item.audio_ms - (fed * 1000) / 16_000)).toBeLessThan(1);
      expect(item.audio_path).toMatch(/\.wav$/);
      expect(item.signals?.pauses?.long_count).toBe(1);
      await expect.poll(() => events.some((e) => e.type === 'recording' && e.item_id === null)).toBe(true);
      expect(events.some((e) => e.type === 'recording' && e.item_id === 'demo-01')).toBe(true);
      await expect.poll(() => events.some((e) => e.type === 'item' && e.item.item_id === 'demo-01')).toBe(true);
    } finally {
      stop();
    }
  });

  it('keeps notes with the item they were written on', async () => {
    const { client } = await connect();
    await client.openSession('ana');
    await client.openItem('demo-04');
    const patch = await client.addNote('sarcastic?\nhard to tell');
    expect(patch.added_notes).toEqual([{ item_id: 'demo-04', text: 'sarcastic?\nhard to tell', ts: expect.any(String) }]);
    expect((await client.session()).notes).toHaveLength(1);
  });

  it('refuses audio out of order and audio without a recording', async () => {
    const { client } = await connect();
    await client.openSession('ana');
    await client.openItem('demo-02');
    const frame = encodeChunkFrame({ startSample: 0, pcm: new Float32Array(1600) });
    expect((await rejection(client.appendAudio(frame))).code).toBe('conflict');
    await client.startRecording(null);
    await client.appendAudio(frame);
    const gap = await rejection(client.appendAudio(encodeChunkFrame({ startSample: 9999, pcm: new Float32Array(1600) })));
    expect(gap.code).toBe('bad_request');
    expect(gap.message).toContain('startSample');
    const garbage = await rejection(client.appendAudio(new Uint8Array([1, 2, 3])));
    expect(garbage.code).toBe('bad_request');
    const patch = await client.stopRecording();
    expect(patch.changed_items.find((i) => i.item_id === 'demo-02')!.audio_ms).toBe(100);
  });

  it('exports the session to a validated file with a receipt, and reports agreement', async () => {
    const { client } = await connect();
    await client.openSession('ana');
    await client.openItem('demo-03');
    await client.commitLabel('Polite', 'click');
    const summary = await client.exportSession('jsonl');
    expect(summary.records).toBe(20);
    expect(existsSync(summary.file)).toBe(true);
    expect(existsSync(summary.receipt)).toBe(true);
    const lines = (await readFile(summary.file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.find((r) => r.item_id === 'demo-03')).toMatchObject({ annotator: 'ana', final_label: 'Polite', label_source: 'click' });
    const agreement = await client.agreement();
    expect(agreement.annotators).toEqual(['ana']);
    expect(agreement.items).toBe(20);
    // no item is completed yet (gold counts completed items): an answer saying so, not a refusal
    expect(await client.goldLabels()).toEqual({ unavailable: expect.stringMatching(/no labels to model/) });
  });

  it("adjudicates: the queue lowest agreement first, one item side by side, a decision in the lead's own log, revisable", async () => {
    const { client } = await connect();
    const dir = (await client.project()).dir!;
    await threeAnnotators(dir);
    await client.openSession('lead');
    const queue = await client.adjudicationQueue();
    expect(queue.rows.map((r) => [r.item_id, r.agreement])).toEqual([
      ['demo-03', 0],
      ['demo-02', 1 / 3],
    ]);
    expect(queue.causes).toContain('guideline gap');
    const item = await client.adjudicationItem('demo-03');
    expect(item.protocols.map((p) => [p.shown, p.final_label])).toEqual([
      ['ana', 'Polite'],
      ['ben', 'Impolite'],
      ['cai', 'Neutral'],
    ]);
    expect(item.protocols[0]!.acts).toHaveLength(1);
    const decided = await client.decideGoldLabel('demo-03', 'Neutral', 'medium', ['edge case'], 'no cue', null);
    expect(decided.decision).toMatchObject({
      adjudicator: 'lead',
      label: 'Neutral',
      confidence: 'medium',
      causes: ['edge case'],
      rationale: 'no cue',
    });
    const revised = await client.decideGoldLabel('demo-03', 'Polite', 'low', ['ambiguous text'], null, 'say what counts as polite');
    expect(revised.history.map((d) => d.label)).toEqual(['Neutral']);
    expect(revised.decision?.guideline_flag).toBe('say what counts as polite');
    expect((await rejection(client.decideGoldLabel('demo-03', 'Rude', 'low', ['edge case'], null, null))).message).toBe(
      '"Rude" is not one of the labels (Polite, Impolite, Neutral)',
    );
    expect((await rejection(client.decideGoldLabel('demo-03', 'Polite', 'sure' as 'low', ['edge case'], null, null))).code).toBe(
      'bad_request',
    );
    expect((await client.adjudicationQueue()).rows.map((r) => [r.item_id, r.status])).toEqual([
      ['demo-02', 'queued'],
      ['demo-03', 'decided'],
    ]);
    // routing: demo-02 asked of dora, who has not seen it; her session finds it among her assigned items
    expect(await client.assignedItems()).toEqual([]);
    await adjudicate(await loadProjectConfig(dir), 'lead', { kind: 'assign', item_id: 'demo-02', annotator: 'dora' });
    await client.openSession('dora');
    expect(await client.assignedItems()).toEqual(['demo-02']);
  });
}
