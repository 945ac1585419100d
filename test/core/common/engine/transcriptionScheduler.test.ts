// The scheduler's own rules (order, one job at a time, cancellation, identity check) against an engine double
// whose answers the test controls, including wrong ones the real engine cannot be made to give. The same
// scheduler runs against the real whisper.cpp engine in test/core/node/engine/randomNavigation.test.ts.
import { describe, expect, it } from 'vitest';
import {
  EngineError,
  type EngineTranscription,
  type RequestIdentity,
  type TranscribeInput,
} from '../../../../core/common/engine/engineTypes';
import {
  isPartialRequestId,
  type SchedulerEvent,
  TranscriptionScheduler,
  type UtteranceRequest,
  offsetSegments,
} from '../../../../core/common/engine/transcriptionScheduler';

const MODEL = { name: 'tiny.en', sha256: 'm'.repeat(64) };

/** A toy digest: distinct per PCM content, good enough to tell clips apart here. */
const hashAudio = (pcm: Float32Array): string => `pcm:${Array.from(pcm).join(',')}`;

interface Call {
  input: TranscribeInput;
  answer: (tamper?: Partial<RequestIdentity>, text?: string) => void;
  failWith: (error: Error) => void;
}

class ControlledEngine {
  readonly calls: Call[] = [];
  running = 0;
  maxRunning = 0;
  closed = false;

  transcribe(input: TranscribeInput): Promise<EngineTranscription> {
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    return new Promise((resolve, reject) => {
      const done = (): void => {
        this.running--;
      };
      this.calls.push({
        input,
        answer: (tamper = {}, text = ` clip ${input.pcm[0]}`) => {
          done();
          resolve({
            segments: [{ t0_ms: 0, t1_ms: 500, text, tokens: [{ t0_ms: 100, t1_ms: 200, text: 'clip', p: 0.5 }] }],
            identity: {
              request_id: input.identity!.request_id,
              item_id: input.identity!.item_id,
              utterance: input.identity!.utterance,
              audio_sha256: hashAudio(input.pcm),
              model_sha256: MODEL.sha256,
              ...tamper,
            },
            audio_ms: 1000,
            audio_ctx: 178,
            elapsed_ms: 1,
          });
        },
        failWith: (error) => {
          done();
          reject(error);
        },
      });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function request(item: string, utterance: number, value: number, startSample = 0): UtteranceRequest {
  return {
    item_id: item,
    utterance,
    start_sample: startSample,
    end_sample: startSample + 4,
    pcm: new Float32Array([value, value, value, value]),
  };
}

function setup(): { engine: ControlledEngine; scheduler: TranscriptionScheduler; events: SchedulerEvent[] } {
  const engine = new ControlledEngine();
  const events: SchedulerEvent[] = [];
  const scheduler = new TranscriptionScheduler({ engine, model: MODEL, hashAudio, requestIdPrefix: 'r', onEvent: (e) => events.push(e) });
  return { engine, scheduler, events };
}

describe('TranscriptionScheduler', () => {
  it('runs one job at a time, in order, and accepts results whose identity matches', async () => {
    const { engine, scheduler, events } = setup();
    const outcomes = [
      scheduler.transcribe(request('a', 0, 1, 16000)),
      scheduler.transcribe(request('a', 1, 2, 32000)),
      scheduler.transcribe(request('b', 0, 3)),
    ];
    await flush();
    expect(engine.calls).toHaveLength(1);
    expect(scheduler.queuedCount).toBe(2);
    expect(scheduler.runningRequest).toMatchObject({
      request_id: 'r1',
      item_id: 'a',
      utterance: 0,
      audio_sha256: 'pcm:1,1,1,1',
      model_sha256: MODEL.sha256,
    });
    for (let i = 0; i < 3; i++) {
      engine.calls[i]!.answer();
      await flush();
    }
    expect(engine.maxRunning).toBe(1);
    expect(engine.calls.map((c) => c.input.identity)).toEqual([
      { request_id: 'r1', item_id: 'a', utterance: 0 },
      { request_id: 'r2', item_id: 'a', utterance: 1 },
      { request_id: 'r3', item_id: 'b', utterance: 0 },
    ]);
    const [first, second, third] = await Promise.all(outcomes);
    expect(first).toEqual({
      kind: 'accepted',
      request_id: 'r1',
      segments: [{ t0_ms: 1000, t1_ms: 1500, text: ' clip 1', tokens: [{ t0_ms: 1100, t1_ms: 1200, text: 'clip', p: 0.5 }] }],
      model: MODEL,
    });
    expect(second).toMatchObject({ kind: 'accepted', segments: [{ t0_ms: 2000, t1_ms: 2500, text: ' clip 2' }] });
    expect(third).toMatchObject({ kind: 'accepted', segments: [{ t0_ms: 0, text: ' clip 3' }] });
    expect(scheduler.transcribedCount).toBe(3);
    expect(events.map((e) => (e.type === 'accepted' ? e.transcribed : -1))).toEqual([1, 2, 3]);
  });

  it('passes the decode settings and the pcm to the engine', async () => {
    const engine = new ControlledEngine();
    const scheduler = new TranscriptionScheduler({
      engine,
      model: MODEL,
      hashAudio,
      settings: { tokenTimestamps: true, initialPrompt: 'Hmm.' },
    });
    const outcome = scheduler.transcribe(request('a', 0, 7));
    await flush();
    expect(engine.calls[0]!.input.settings).toMatchObject({ tokenTimestamps: true, initialPrompt: 'Hmm.', temperature: 0 });
    expect(Array.from(engine.calls[0]!.input.pcm)).toEqual([7, 7, 7, 7]);
    expect(engine.calls[0]!.input.identity!.request_id).toMatch(/^tx-[0-9a-z]{6}-1$/);
    engine.calls[0]!.answer();
    expect((await outcome).kind).toBe('accepted');
  });

  it('cancelItem: queued requests of the item end stale at once, the running one when its late result arrives', async () => {
    const { engine, scheduler, events } = setup();
    const a0 = scheduler.transcribe(request('a', 0, 1));
    const a1 = scheduler.transcribe(request('a', 1, 2));
    const b0 = scheduler.transcribe(request('b', 0, 3));
    const a2 = scheduler.transcribe(request('a', 2, 4));
    await flush();
    expect(scheduler.cancelItem('a')).toBe(3);
    expect(await a1).toEqual({
      kind: 'stale',
      request_id: 'r2',
      reason: 'cancelled: the annotator left the item before it was transcribed',
    });
    expect((await a2).kind).toBe('stale');
    engine.calls[0]!.answer(); // the running request of 'a' finishes after the annotator left
    expect(await a0).toEqual({ kind: 'stale', request_id: 'r1', reason: 'the annotator left the item while it was transcribed' });
    await flush();
    expect(engine.calls).toHaveLength(2);
    expect(engine.calls[1]!.input.identity!.item_id).toBe('b');
    engine.calls[1]!.answer();
    expect(await b0).toMatchObject({ kind: 'accepted', request_id: 'r3' });
    expect(scheduler.transcribedCount).toBe(1);
    expect(events.filter((e) => e.type === 'stale_result').map((e) => e.identity.request_id)).toEqual(['r4', 'r2', 'r1']);
    expect(scheduler.cancelItem('a')).toBe(0);
  });

  it('returning to an item does not revive the result of a request made before leaving it', async () => {
    const { engine, scheduler } = setup();
    const before = scheduler.transcribe(request('a', 0, 1));
    await flush();
    scheduler.cancelItem('a');
    const after = scheduler.transcribe(request('a', 0, 1)); // same item, same utterance index, same audio
    engine.calls[0]!.answer();
    expect((await before).kind).toBe('stale');
    await flush();
    engine.calls[1]!.answer();
    expect(await after).toMatchObject({ kind: 'accepted', request_id: 'r2' });
    expect(scheduler.transcribedCount).toBe(1);
  });

  it.each([
    [{ audio_sha256: 'pcm:9,9,9,9' }, 'audio_sha256'],
    [{ model_sha256: 'x'.repeat(64) }, 'model_sha256'],
    [{ item_id: 'b' }, 'item_id'],
    [{ utterance: 5 }, 'utterance'],
    [{ request_id: 'r9' }, 'request_id'],
    [{ audio_sha256: 'pcm:9', model_sha256: 'x' }, 'audio_sha256, model_sha256'],
  ])('a result whose identity differs (%j) is stale, never accepted', async (tamper, fields) => {
    const { engine, scheduler } = setup();
    const outcome = scheduler.transcribe(request('a', 0, 1));
    const next = scheduler.transcribe(request('a', 1, 2));
    await flush();
    engine.calls[0]!.answer(tamper);
    expect(await outcome).toEqual({
      kind: 'stale',
      request_id: 'r1',
      reason: `the engine's result does not match the request (${fields} differ)`,
    });
    expect(scheduler.transcribedCount).toBe(0);
    await flush();
    engine.calls[1]!.answer();
    expect((await next).kind).toBe('accepted');
    expect(scheduler.transcribedCount).toBe(1);
  });

  it('an engine failure rejects that request only; the queue goes on', async () => {
    const { engine, scheduler } = setup();
    const failing = scheduler.transcribe(request('a', 0, 1));
    const next = scheduler.transcribe(request('a', 1, 2));
    await flush();
    engine.calls[0]!.failWith(new EngineError('transcribe_failed', 'whisper_full returned -6'));
    await expect(failing).rejects.toMatchObject({ code: 'transcribe_failed' });
    await flush();
    engine.calls[1]!.answer();
    expect((await next).kind).toBe('accepted');
  });

  it('a failure after the annotator left is reported stale, not thrown', async () => {
    const { engine, scheduler } = setup();
    const outcome = scheduler.transcribe(request('a', 0, 1));
    await flush();
    scheduler.cancelItem('a');
    engine.calls[0]!.failWith(new EngineError('aborted', 'transcription aborted'));
    expect(await outcome).toMatchObject({
      kind: 'stale',
      reason: 'the annotator left the item and the transcription failed: transcription aborted',
    });
  });

  it('close: queued requests end stale, the running one finishes, then the engine closes', async () => {
    const { engine, scheduler } = setup();
    const running = scheduler.transcribe(request('a', 0, 1));
    const queued = scheduler.transcribe(request('b', 0, 2));
    await flush();
    const closing = scheduler.close();
    expect(await queued).toMatchObject({ kind: 'stale', reason: 'the session closed before it was transcribed' });
    await flush();
    expect(engine.closed).toBe(false);
    engine.calls[0]!.answer();
    await closing;
    expect(engine.closed).toBe(true);
    expect((await running).kind).toBe('stale');
    expect(await scheduler.transcribe(request('c', 0, 3))).toMatchObject({ kind: 'stale', reason: 'the transcriber is closed' });
  });

  it('whenIdle resolves once nothing is queued or running', async () => {
    const { engine, scheduler } = setup();
    await scheduler.whenIdle();
    scheduler.transcribe(request('a', 0, 1));
    scheduler.transcribe(request('a', 1, 2));
    let idle = false;
    void scheduler.whenIdle().then(() => (idle = true));
    await flush();
    engine.calls[0]!.answer();
    await flush();
    expect(idle).toBe(false);
    engine.calls[1]!.answer();
    await flush();
    expect(idle).toBe(true);
  });

  it('refuses malformed requests, naming the field', async () => {
    const { scheduler } = setup();
    await expect(scheduler.transcribe({ ...request('a', 0, 1), item_id: '' })).rejects.toThrow(/item_id/);
    await expect(scheduler.transcribe({ ...request('a', 0, 1), utterance: -1 })).rejects.toThrow(/utterance/);
    await expect(scheduler.transcribe({ ...request('a', 0, 1), start_sample: 1.5 })).rejects.toThrow(/start_sample/);
    await expect(scheduler.transcribe({ ...request('a', 0, 1), pcm: new Float32Array(0) })).rejects.toThrow(/pcm/);
  });

  it('offsetSegments moves segment and token times to the item timeline', () => {
    expect(offsetSegments([{ t0_ms: 10, t1_ms: 20, text: ' x' }], 1000)).toEqual([{ t0_ms: 1010, t1_ms: 1020, text: ' x' }]);
  });

  it("tells a partial's request id from a final's (the engine's crash test hook aims at finals with it)", async () => {
    const engine = new ControlledEngine();
    const scheduler = new TranscriptionScheduler({ engine, model: MODEL, hashAudio, onEvent: () => undefined });
    expect(scheduler.partial(request('a', 0, 1))).toBe(true);
    await flush();
    const final = scheduler.transcribe(request('a', 0, 2));
    await flush();
    for (let i = 0; i < 4 && engine.calls.length < 2; i++) {
      engine.calls.at(-1)!.answer();
      await flush();
    }
    const ids = engine.calls.map((c) => c.input.identity!.request_id);
    expect(ids.map(isPartialRequestId)).toEqual([true, false]);
    engine.calls.at(-1)!.answer();
    await final;
  });
});
