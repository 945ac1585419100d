// Partials and speculative finals: the scheduler and LiveUtterances against an engine double the test controls
// and a speech probe that calls a window speech when its samples are loud. The clock is the audio's: each
// 200 ms chunk advances it by 200 ms, as live capture does.
import { describe, expect, it } from 'vitest';
import type { EngineTranscription, RequestIdentity, TranscribeInput } from '../../../../core/common/engine/engineTypes';
import { LiveUtterances, type LivePartial } from '../../../../core/common/engine/liveUtterances';
import type { SpeechProbe } from '../../../../core/common/signals/speechProbe';
import { type SchedulerEvent, TranscriptionScheduler, type UtteranceOutcome } from '../../../../core/common/engine/transcriptionScheduler';
import { type Utterance, UtteranceCutter } from '../../../../core/common/engine/utteranceCutter';

const MODEL = { name: 'tiny.en', sha256: 'm'.repeat(64) };
/** distinct per PCM content (sum and length), cheap */
const hashAudio = (pcm: Float32Array): string => `pcm:${pcm.length}:${pcm.reduce((a, b) => a + b, 0).toFixed(3)}`;

/** Speech = a window whose mean absolute sample is above 0.05. */
const loudProbe = (): SpeechProbe => ({
  windowSamples: 512,
  probabilities(pcm) {
    const out = new Float32Array(pcm.length / 512);
    for (let w = 0; w < out.length; w++) {
      let sum = 0;
      for (let i = w * 512; i < (w + 1) * 512; i++) sum += Math.abs(pcm[i]!);
      out[w] = sum / 512 > 0.05 ? 0.95 : 0.02;
    }
    return out;
  },
  reset() {},
});

interface Call {
  input: TranscribeInput;
  /** the test clock when the job started */
  at: number;
  answer: (text: string, tamper?: Partial<RequestIdentity>) => void;
}

class ControlledEngine {
  readonly calls: Call[] = [];
  constructor(private readonly clock: () => number = () => 0) {}
  aborts = 0;
  private running: { reject: (e: Error) => void } | null = null;

  transcribe(input: TranscribeInput): Promise<EngineTranscription> {
    return new Promise((resolve, reject) => {
      this.running = { reject };
      this.calls.push({
        input,
        at: this.clock(),
        answer: (text, tamper = {}) => {
          this.running = null;
          resolve({
            segments: [{ t0_ms: 0, t1_ms: 100, text }],
            identity: {
              request_id: input.identity!.request_id,
              item_id: input.identity!.item_id,
              utterance: input.identity!.utterance,
              audio_sha256: hashAudio(input.pcm),
              model_sha256: MODEL.sha256,
              ...tamper,
            },
            audio_ms: (input.pcm.length / 16000) * 1000,
            audio_ctx: 178,
            elapsed_ms: 1,
          });
        },
      });
    });
  }

  abort(): void {
    this.aborts++;
    const running = this.running;
    this.running = null;
    running?.reject(Object.assign(new Error('transcription aborted'), { code: 'aborted' }));
  }

  async close(): Promise<void> {}

  get last(): Call {
    return this.calls.at(-1)!;
  }
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
const speech = (ms: number): Float32Array => Float32Array.from({ length: ms * 16 }, (_, i) => 0.3 * Math.sin(i / 3));
const silence = (ms: number): Float32Array => new Float32Array(ms * 16);

/** `chunkMs`: the capture chunk (the app sends 50–250 ms; 50 by default) */
function setup(chunkMs = 200) {
  let clock = 0;
  const engine = new ControlledEngine(() => clock);
  const events: SchedulerEvent[] = [];
  const scheduler = new TranscriptionScheduler({
    engine,
    model: MODEL,
    hashAudio,
    requestIdPrefix: 'r',
    now: () => clock,
    onEvent: (e) => events.push(e),
  });
  const partials: LivePartial[] = [];
  const cutter = new UtteranceCutter({ silenceThresholdDbfs: -45, speech: loudProbe() });
  const live = new LiveUtterances({
    cutter,
    scheduler,
    context: { item_id: 'item-1', utterance_base: 0, offset_samples: 0, onPartial: (p) => partials.push(p) },
  });
  const finals: Array<Promise<UtteranceOutcome>> = [];
  const cuts: Utterance[] = [];
  /** feeds audio in chunks, the clock following it, and sends each cut as the session does */
  const feed = (pcm: Float32Array): void => {
    for (let at = 0; at < pcm.length; at += chunkMs * 16) {
      clock += chunkMs;
      for (const u of live.push(pcm.subarray(at, at + chunkMs * 16))) {
        cuts.push(u);
        finals.push(
          scheduler.transcribe({ item_id: 'item-1', utterance: u.index, start_sample: u.startSample, end_sample: u.endSample, pcm: u.pcm }),
        );
      }
    }
  };
  return { engine, scheduler, events, partials, live, feed, finals, cuts, tick: (ms: number) => (clock += ms) };
}

describe('partial transcripts while an utterance is open', () => {
  it('are shown about once a second, only when the engine is idle, and never counted or accepted as finals', async () => {
    const { engine, scheduler, events, partials, feed, finals } = setup();
    feed(speech(1000));
    expect(engine.calls).toHaveLength(1);
    expect(engine.last.input.identity!.request_id).toMatch(/^rp/);
    // the engine is busy with this partial: more speech starts no second one
    feed(speech(400));
    expect(engine.calls).toHaveLength(1);
    engine.last.answer(' I label this polite.');
    await flush();
    expect(partials).toEqual([{ item_id: 'item-1', utterance: 0, text: 'I label this polite.', speculative: false }]);
    feed(speech(1400));
    const partialCalls = engine.calls.filter((c) => c.input.identity!.request_id.startsWith('rp'));
    // 2.8 s of speech: each text ≥ 0.85 s after the last, a partial waits as long as the last one took
    expect(partialCalls.length).toBeGreaterThanOrEqual(2);
    expect(partialCalls.length).toBeLessThanOrEqual(3);
    engine.last.answer(' I label this polite, or not.');
    await flush();
    expect(scheduler.partialCount).toBe(2);
    expect(scheduler.transcribedCount).toBe(0);
    expect(events.some((e) => e.type === 'accepted')).toBe(false);
    expect(finals).toHaveLength(0);
  });

  it('come 0.9–1 s apart while the engine keeps up, though each takes longer than the last', async () => {
    const { engine, feed, tick } = setup(100);
    const shownAt: number[] = [];
    let pending: { call: (typeof engine.calls)[number]; due: number } | null = null;
    let clock = 0;
    for (let fed = 0; fed < 8000; fed += 100) {
      if (pending && pending.due <= clock + 100) {
        tick(pending.due - clock);
        pending.call.answer(' words');
        await flush();
        shownAt.push(pending.due);
        tick(clock - pending.due); // back to the chunk clock: feed() moves it on by the chunk
        pending = null;
      }
      const before = engine.calls.length;
      feed(speech(100));
      clock += 100;
      // the audio so far grows, and so does each partial: 120 ms, then 40 ms more each time
      if (engine.calls.length > before) pending = { call: engine.last, due: clock + 120 + 40 * (engine.calls.length - 1) };
    }
    const gaps = shownAt.slice(1).map((t, i) => t - shownAt[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(5);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(900);
      expect(gap).toBeLessThanOrEqual(1000);
    }
  });

  it('a partial that a speculation aborted showed no text: the next one waits only for the busy rule, not another ~0.9 s', async () => {
    const { engine, feed, tick, partials } = setup(50);
    const isPartial = (c: Call): boolean => /^rp/.test(c.input.identity!.request_id);
    feed(speech(600));
    const first = engine.calls[0]!;
    tick(100);
    first.answer(' one');
    await flush();
    expect(partials).toHaveLength(1);
    const shown = first.at + 100;
    feed(speech(800));
    const second = engine.calls.at(-1)!;
    expect(isPartial(second)).toBe(true);
    expect(second.at).toBeGreaterThanOrEqual(shown + 850 - 100);
    // a short pause: the speculative final starts and aborts the running partial; speech resumes and discards it
    feed(silence(200));
    await flush();
    expect(engine.aborts).toBe(1);
    const abortedAt = engine.calls.at(-1)!.at;
    const abortedFor = abortedAt - second.at;
    feed(speech(50));
    await flush();
    expect(engine.aborts).toBe(2);
    for (let fed = 0; fed < 1500 && !isPartial(engine.calls.at(-1)!); fed += 50) feed(speech(50));
    const third = engine.calls.at(-1)!;
    expect(isPartial(third)).toBe(true);
    // the busy rule: at least as long after the abort as the aborted partial ran, and no more than a chunk later
    expect(third.at - abortedAt).toBeGreaterThanOrEqual(abortedFor);
    expect(third.at - abortedAt).toBeLessThanOrEqual(abortedFor + 50);
  });

  it('never take more than half the engine time: after a partial of d ms the next waits at least d ms', async () => {
    const { engine, feed, tick } = setup();
    feed(speech(1000));
    const first = engine.last;
    const ended = tick(1500); // a slow partial: 1.5 s of engine time
    first.answer(' slow');
    await flush();
    const took = ended - first.at;
    feed(speech(5000));
    const second = engine.calls[1]!;
    expect(second.at - ended).toBeGreaterThanOrEqual(took);
    expect(second.at - ended).toBeLessThan(took + 200 + 1);
  });

  it('a final arriving while a partial runs aborts the partial; the partial is never shown after', async () => {
    const { engine, scheduler, partials, feed } = setup();
    feed(speech(1000));
    expect(engine.calls).toHaveLength(1);
    const final = scheduler.transcribe({ item_id: 'item-1', utterance: 0, start_sample: 0, end_sample: 16000, pcm: speech(1000) });
    expect(engine.aborts).toBe(1);
    await flush();
    expect(engine.calls).toHaveLength(2);
    engine.last.answer(' final text');
    await expect(final).resolves.toMatchObject({ kind: 'accepted' });
    expect(partials).toEqual([]);
  });
});

describe('identity check under partials', () => {
  it('a partial answer that carries another identity is dropped, and never becomes a final', async () => {
    const { engine, scheduler, partials, feed, events } = setup();
    feed(speech(1000));
    const partialId = engine.last.input.identity!.request_id;
    engine.last.answer(' hijacked', { audio_sha256: 'other' });
    await flush();
    expect(partials).toEqual([]);
    // a final whose answer claims the partial's request id is stale, not accepted
    const final = scheduler.transcribe({ item_id: 'item-1', utterance: 0, start_sample: 0, end_sample: 16000, pcm: speech(1000) });
    await flush();
    engine.last.answer(' final', { request_id: partialId });
    await expect(final).resolves.toMatchObject({ kind: 'stale', reason: expect.stringContaining('request_id') });
    expect(scheduler.transcribedCount).toBe(0);
    expect(events.filter((e) => e.type === 'accepted')).toEqual([]);
  });

  it('a partial of an item the annotator left is not shown', async () => {
    const { engine, scheduler, partials, feed } = setup();
    feed(speech(1000));
    scheduler.cancelItem('item-1');
    engine.last.answer(' late');
    await flush();
    expect(partials).toEqual([]);
  });
});

describe('speculative finals', () => {
  it('by default the final starts once 96 ms of silence complete the cut audio, and the cut comes at 300 ms', async () => {
    const { engine, feed, cuts } = setup(50);
    feed(speech(600)); // the last speech window ends at 608 ms (32 ms windows)
    for (const c of engine.calls) c.answer(' partial');
    await flush();
    const before = engine.calls.length;
    let speculatedAt: number | null = null;
    let cutAt: number | null = null;
    for (let fed = 50; fed <= 600 && cutAt === null; fed += 50) {
      feed(silence(50));
      if (speculatedAt === null && engine.calls.length > before) speculatedAt = fed;
      if (cuts.length > 0) cutAt = fed;
    }
    // silence counted from the last speech window (608 ms) in whole windows: 128 ms ≥ 96 after 150 ms fed
    // (64 ms after 100); the cut after 10 windows (320 ms) of silence, within the chunk that ends 350 ms into it
    expect(speculatedAt).toBe(150);
    expect(cutAt).toBe(350);
    expect(cuts[0]!.endSample).toBe(608 * 16 + 96 * 16);
  });

  it('are not started for a click: too little voiced audio to be sent at its cut', async () => {
    const { engine, feed, cuts } = setup(50);
    feed(new Float32Array(16 * 100));
    feed(speech(30)); // one 32 ms window heard as speech; an utterance needs 60 ms
    feed(silence(500));
    expect(cuts).toHaveLength(0);
    expect(engine.calls).toHaveLength(0);
  });

  it('start before the cut; the cut adopts the speculation, so the final is ready at the cut', async () => {
    const { engine, events, feed, finals, cuts, scheduler } = setup(100);
    feed(speech(600));
    for (const c of engine.calls) c.answer(' partial'); // settle the partial
    await flush();
    const before = engine.calls.length;
    feed(silence(100));
    expect(engine.calls).toHaveLength(before); // under 96 ms past the last speech window: not yet
    feed(silence(100)); // ≥ 96 ms: the final starts, before the cut
    expect(engine.calls).toHaveLength(before + 1);
    feed(silence(100));
    expect(cuts).toHaveLength(0);
    feed(silence(100)); // the cut (300 ms of silence)
    const speculative = engine.calls[before]!;
    expect(speculative.input.identity!.request_id).toMatch(/^r\d+$/);
    expect(cuts).toHaveLength(1);
    // the cut adopted the running speculation: no second job for it
    expect(events.find((e) => e.type === 'speculation_adopted')).toMatchObject({
      identity: { request_id: speculative.input.identity!.request_id },
    });
    expect(hashAudio(speculative.input.pcm)).toBe(hashAudio(cuts[0]!.pcm));
    speculative.answer(' Final answer: neutral.');
    await expect(finals[0]).resolves.toMatchObject({
      kind: 'accepted',
      request_id: speculative.input.identity!.request_id,
      segments: [{ text: ' Final answer: neutral.' }],
    });
    await flush();
    expect(engine.calls).toHaveLength(before + 1);
    expect(scheduler.transcribedCount).toBe(1);
  });

  it('an answer that finished before the cut is the final at once', async () => {
    const { engine, feed, finals, events } = setup(100);
    feed(speech(600));
    for (const c of engine.calls) c.answer(' partial');
    await flush();
    feed(silence(300)); // the speculative final starts
    engine.last.answer(' done early');
    await flush();
    expect(finals).toHaveLength(0);
    feed(silence(100)); // the cut
    expect(events).toContainEqual(expect.objectContaining({ type: 'speculation_adopted', finished: true }));
    await expect(finals[0]).resolves.toMatchObject({ kind: 'accepted', segments: [{ text: ' done early' }] });
  });

  it('their text is shown as soon as it is ready, marked speculative, and counts as a transcript only at the cut', async () => {
    const { engine, scheduler, feed, finals, partials, events } = setup(100);
    feed(speech(600));
    for (const c of engine.calls) c.answer(' partial');
    await flush();
    feed(silence(200)); // the speculative final starts
    engine.last.answer(' Final answer: neutral.');
    await flush();
    expect(partials.at(-1)).toEqual({ item_id: 'item-1', utterance: 0, text: 'Final answer: neutral.', speculative: true });
    expect(events).toContainEqual(expect.objectContaining({ type: 'speculation_ready', text: 'Final answer: neutral.' }));
    expect(scheduler.transcribedCount).toBe(0);
    expect(events.some((e) => e.type === 'accepted')).toBe(false);
    feed(silence(200)); // the cut
    await expect(finals[0]).resolves.toMatchObject({ kind: 'accepted', segments: [{ text: ' Final answer: neutral.' }] });
    expect(scheduler.transcribedCount).toBe(1);
  });

  it('are discarded when speech resumes before the cut; the final then runs on the whole utterance', async () => {
    let clock = 0;
    const engine = new ControlledEngine();
    const events: SchedulerEvent[] = [];
    const scheduler = new TranscriptionScheduler({
      engine,
      model: MODEL,
      hashAudio,
      requestIdPrefix: 'r',
      now: () => clock,
      onEvent: (e) => events.push(e),
    });
    // a longer silence before the cut (600 ms) so that speech can resume after the speculation started
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: -45, speech: loudProbe(), minSilenceMs: 600 });
    const live = new LiveUtterances({
      cutter,
      scheduler,
      context: { item_id: 'item-1', utterance_base: 4, offset_samples: 16000, onPartial: () => undefined },
      partials: false,
    });
    const cuts: Utterance[] = [];
    const feed = (pcm: Float32Array): void => {
      for (let at = 0; at < pcm.length; at += 3200) {
        clock += 200;
        cuts.push(...live.push(pcm.subarray(at, at + 3200)));
      }
    };
    feed(speech(1000));
    feed(silence(400));
    expect(engine.calls).toHaveLength(1);
    const speculative = engine.last;
    expect(speculative.input.identity).toMatchObject({ item_id: 'item-1', utterance: 4 });
    expect(scheduler.speculationFor('item-1', 4)).toMatchObject({ request_id: speculative.input.identity!.request_id, finished: false });
    feed(speech(600)); // speech resumes before the cut
    expect(events).toContainEqual(expect.objectContaining({ type: 'speculation_discarded', reason: 'speech resumed before the cut' }));
    expect(engine.aborts).toBe(1);
    expect(live.stats).toMatchObject({ speculations: 1, speculations_discarded: 1 });
    expect(scheduler.speculationFor('item-1', 4)).toBeNull();
    feed(silence(800));
    expect(cuts).toHaveLength(1);
    // a new speculation for the longer utterance was adopted by the cut: its audio is the whole utterance
    const final = scheduler.transcribe({
      item_id: 'item-1',
      utterance: 4,
      start_sample: 16000 + cuts[0]!.startSample,
      end_sample: 16000 + cuts[0]!.endSample,
      pcm: cuts[0]!.pcm,
    });
    await flush();
    const job = engine.last;
    expect(job).not.toBe(speculative);
    expect(hashAudio(job.input.pcm)).toBe(hashAudio(cuts[0]!.pcm));
    expect(job.input.pcm.length).toBeGreaterThan(speculative.input.pcm.length + 600 * 16);
    job.answer(' the whole utterance');
    await expect(final).resolves.toMatchObject({ kind: 'accepted', segments: [{ text: ' the whole utterance' }] });
    expect(scheduler.transcribedCount).toBe(1);
  });

  it('a speculation whose span the cut does not match is discarded, never given to the cut', async () => {
    const { engine, scheduler, events } = setup();
    scheduler.speculate({ item_id: 'item-1', utterance: 0, start_sample: 0, end_sample: 8000, pcm: speech(500) });
    const final = scheduler.transcribe({ item_id: 'item-1', utterance: 0, start_sample: 0, end_sample: 9600, pcm: speech(600) });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'speculation_discarded', reason: expect.stringContaining('not 0–8000') }),
    );
    await flush();
    engine.last.answer(' six hundred');
    await expect(final).resolves.toMatchObject({ kind: 'accepted' });
    expect(hashAudio(engine.last.input.pcm)).toBe(hashAudio(speech(600)));
  });
});
