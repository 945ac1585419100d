import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EngineClient } from '../../../../core/common/engine/engineClient';
import type { EngineReply } from '../../../../core/common/engine/engineProtocol';
import { serveEngine } from '../../../../core/common/engine/engineService';
import { EngineError } from '../../../../core/common/engine/engineTypes';
import { forkEngineProcess } from '../../../../core/node/engine/engineProcessHost';
import { enginePortFromMessagePort } from '../../../../core/node/engine/nodeEnginePort';
import { sha256OfPcm, WhisperEngine } from '../../../../core/node/engine/whisperEngine';
import { describeWithModels, testAssets, FOR_TESTS_MODEL, REPO, testClip } from './engineTestModels';

async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(EngineError);
    return e as EngineError;
  }
  throw new Error('expected the call to fail');
}

describeWithModels('engine protocol over a worker_threads MessageChannel (real whisper.cpp, one thread)', () => {
  const { port1, port2 } = new MessageChannel();
  const client = new EngineClient(enginePortFromMessagePort(port2));
  beforeAll(async () => {
    serveEngine(enginePortFromMessagePort(port1), new WhisperEngine({ threads: 2, warmUp: false }));
    await client.load(testAssets().benchModel);
  }, 120_000);
  afterAll(() => client.close());

  it('answers requests sent together one by one, each with its own result', async () => {
    const clips = [testClip(1.2, 1), testClip(1.4, 2), testClip(1.6, 3)];
    const results = await Promise.all(
      clips.map((pcm, i) => client.transcribe({ pcm, identity: { request_id: `r${i}`, item_id: `item${i}`, utterance: i } })),
    );
    results.forEach((result, i) => {
      expect(result.identity).toMatchObject({
        request_id: `r${i}`,
        item_id: `item${i}`,
        utterance: i,
        audio_sha256: sha256OfPcm(clips[i]!),
      });
      expect(result.audio_ms).toBeCloseTo(clips[i]!.length / 16, 6);
    });
    expect(client.pendingCount).toBe(0);
  });

  it('leaves the caller’s PCM usable (a copy is transferred)', async () => {
    const pcm = testClip(1, 4);
    await client.transcribe({ pcm });
    expect(pcm.length).toBe(16000);
    expect(pcm.buffer.byteLength).toBe(64000);
  });

  it('abort stops the running request only; the queued one still runs', async () => {
    const long = client.transcribe({ pcm: testClip(30, 5), settings: { audioCtx: 1500 } });
    const queued = client.transcribe({ pcm: testClip(1, 6) });
    await new Promise((resolve) => setTimeout(resolve, 30));
    client.abort();
    expect((await rejection(long)).code).toBe('aborted');
    expect((await queued).audio_ms).toBe(1000);
  });

  it('replies to a malformed request with a protocol error naming what is wrong', async () => {
    const { port1: a, port2: b } = new MessageChannel();
    serveEngine(enginePortFromMessagePort(a), new WhisperEngine({ warmUp: false }));
    const reply = new Promise<EngineReply>((resolve) => b.once('message', resolve));
    b.postMessage({ seq: 5, kind: 'transcribe', input: { pcm: [1, 2, 3] } });
    expect(await reply).toEqual({ seq: 5, ok: false, error: { code: 'protocol', message: 'transcribe.input.pcm must be a Float32Array' } });
    b.close();
  });
});

describeWithModels('engine process (real whisper.cpp), as the app and the CLI run it', () => {
  it('loads, transcribes away from the host, reports a bad model clearly, and closes', { timeout: 120_000 }, async () => {
    const handle = forkEngineProcess({ threads: 2, warmUp: false });
    const engine = handle.engine;
    try {
      const refused = await rejection(engine.load(path.join(REPO, 'package.json')));
      expect(refused.code).toBe('model_invalid');
      expect(refused.message).toContain('package.json');

      const info = await engine.load(FOR_TESTS_MODEL);
      expect(info.model!.type).toBe('tiny');
      expect(info.system_info).toMatch(/AVX2 = |NEON = /);
      expect(info.process).toMatchObject({ pid: handle.pid, title: 'aloud-engine' });
      expect(info.process!.pid).not.toBe(process.pid);

      // The host keeps its event loop while whisper.cpp works in the engine process: its timers run before the job
      // answers (an engine on the host's thread would answer first, its work done before any timer could fire).
      const job = engine.transcribe({ pcm: testClip(10, 7), settings: { audioCtx: 1500 } });
      const timerRan = new Promise<'timer'>((resolve) => setTimeout(() => resolve('timer'), 0));
      expect(await Promise.race([timerRan, job.then(() => 'job' as const)])).toBe('timer');
      expect((await job).audio_ms).toBe(10_000);
    } finally {
      await engine.close();
    }
    expect((await rejection(engine.info())).code).toBe('engine_closed');
    expect((await handle.exited).description).toBe('exited with code 0');
  });

  it('an engine process that dies fails its pending requests with engine_crashed naming the signal', { timeout: 120_000 }, async () => {
    const handle = forkEngineProcess({ warmUp: false });
    await handle.engine.load(FOR_TESTS_MODEL);
    const job = handle.engine.transcribe({ pcm: testClip(20, 8), settings: { audioCtx: 1500 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.kill(handle.pid!, 'SIGKILL');
    const error = await rejection(job);
    expect(error.code).toBe('engine_crashed');
    expect(error.message).toBe('the engine stopped: killed by SIGKILL');
    expect((await rejection(handle.engine.info())).code).toBe('engine_crashed');
  });
});
