import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TranscriptionEngine } from '../../../../core/common/engine/engineTypes';
import { offsetSegments, TranscriptionScheduler, type UtteranceOutcome } from '../../../../core/common/engine/transcriptionScheduler';
import type { Segment } from '../../../../core/common/transcript/segment';
import { forkEngineLauncher, startEngineProcess } from '../../../../core/node/engine/engineProcessHost';
import { sha256OfPcm } from '../../../../core/node/engine/whisperEngine';
import { describeWithModels, testAssets, testClip } from './engineTestModels';

const STEPS = 400;
const ITEMS = ['item-a', 'item-b', 'item-c', 'item-d', 'item-e', 'item-f'];

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describeWithModels('random navigation while the real engine transcribes (worker, tiny.en-sized random weights)', () => {
  let engine: TranscriptionEngine;
  let modelSha256: string;
  // Distinct clips; the random-weight model gives each its own, reproducible, text.
  const clips = Array.from({ length: 6 }, (_, i) => testClip(1.1 + 0.3 * i, 1000 + i));
  const reference: Segment[][] = [];

  beforeAll(async () => {
    // One thread: the identity rules are under test, not speed; on a shared 2-core machine two lockstep ggml
    // threads ran these clips 6× slower than one (18 s vs 2.8 s for the six), and one thread is reproducible.
    engine = startEngineProcess({ launch: forkEngineLauncher, threads: 1, warmUp: false });
    modelSha256 = (await engine.load(testAssets().benchModel)).model!.sha256;
    for (const pcm of clips) reference.push((await engine.transcribe({ pcm })).segments);
  }, 180_000);
  afterAll(() => engine.close());

  it(`attaches no result to another item or to an earlier visit over ${STEPS} random steps`, { timeout: 240_000 }, async () => {
    expect(new Set(reference.map((segments) => segments.map((s) => s.text).join(''))).size).toBeGreaterThan(1);
    const random = seeded(20240611);
    let current = ITEMS[0]!;
    let visit = 0;
    const violations: string[] = [];
    const requests = new Map<string, { item: string; visit: number }>();
    const scheduler = new TranscriptionScheduler({
      engine,
      model: { name: 'bench-tiny.en', sha256: modelSha256 },
      hashAudio: sha256OfPcm,
      requestIdPrefix: 'nav-',
      onEvent: (event) => {
        if (event.type !== 'accepted') return;
        // Accepted means the annotator is still on that item, in the visit that asked for it.
        const asked = requests.get(event.identity.request_id)!;
        if (event.identity.item_id !== current || asked.visit !== visit) {
          violations.push(
            `${event.identity.request_id} for ${asked.item} (visit ${asked.visit}) accepted while on ${current} (visit ${visit})`,
          );
        }
      },
    });

    const nextUtterance = new Map<string, number>();
    const sent: Array<{ item: string; clip: number; startSample: number; outcome: Promise<UtteranceOutcome> }> = [];
    let navigations = 0;
    let waits = 0;
    for (let step = 0; step < STEPS; step++) {
      const action = random();
      if (action < 0.3) {
        const next = ITEMS[Math.floor(random() * ITEMS.length)]!;
        if (next !== current) {
          scheduler.cancelItem(current);
          current = next;
          visit++;
          navigations++;
        }
      } else if (action < 0.75) {
        const clip = Math.floor(random() * clips.length);
        const utterance = nextUtterance.get(current) ?? 0;
        nextUtterance.set(current, utterance + 1);
        const startSample = Math.floor(random() * 20) * 16000;
        const pcm = clips[clip]!;
        const outcome = scheduler.transcribe({
          item_id: current,
          utterance,
          start_sample: startSample,
          end_sample: startSample + pcm.length,
          pcm,
        });
        sent.push({ item: current, clip, startSample, outcome });
        requests.set(`nav-${sent.length}`, { item: current, visit });
      }
      if (random() < 0.08) {
        // The annotator stops to read the transcript: what this visit asked for arrives while they stay.
        // Without such pauses a loaded machine can answer every request after the annotator moved on.
        await scheduler.whenIdle();
        waits++;
      } else {
        await sleep(Math.floor(random() * 40));
      }
    }
    await scheduler.whenIdle();
    const outcomes = await Promise.all(sent.map((s) => s.outcome));

    const accepted = outcomes.filter((o) => o.kind === 'accepted');
    const stale = outcomes.filter((o) => o.kind === 'stale');
    expect(violations).toEqual([]);
    outcomes.forEach((outcome, i) => {
      expect(outcome.request_id).toBe(`nav-${i + 1}`);
      if (outcome.kind !== 'accepted') return;
      // the text and times are those of this request's own clip, moved to its place on its item's timeline
      expect(outcome.segments).toEqual(offsetSegments(reference[sent[i]!.clip]!, (sent[i]!.startSample * 1000) / 16000));
      expect(outcome.model).toEqual({ name: 'bench-tiny.en', sha256: modelSha256 });
    });
    expect(scheduler.transcribedCount).toBe(accepted.length);
    expect(navigations).toBeGreaterThan(50);
    expect(waits).toBeGreaterThan(10);
    expect(sent.length).toBeGreaterThan(100);
    expect(accepted.length).toBeGreaterThan(0);
    expect(stale.length).toBeGreaterThan(0);
    expect(accepted.length + stale.length).toBe(sent.length);
  });
});
