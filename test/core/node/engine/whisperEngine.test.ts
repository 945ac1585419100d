import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, open, readFile } from 'node:fs/promises';
import { arch, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EngineError } from '../../../../core/common/engine/engineTypes';
import { MIN_ENGINE_SAMPLES, sha256OfPcm, WhisperEngine } from '../../../../core/node/engine/whisperEngine';
import { describeWithModels, testAssets, FOR_TESTS_MODEL, REPO, testClip } from './engineTestModels';

async function engineError(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(EngineError);
    return e as EngineError;
  }
  throw new Error('expected an EngineError, got success');
}

const sha256File = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

describeWithModels('WhisperEngine on the for-tests tiny.en model (real whisper.cpp)', () => {
  const engine = new WhisperEngine({ threads: 2 });
  beforeAll(() => engine.load(FOR_TESTS_MODEL));
  afterAll(() => engine.close());

  it('reports the binding, whisper.cpp system info with the SIMD it was built for, and the model', async () => {
    const info = await engine.info();
    expect(info.binding).toMatch(/^aloud-whisper /);
    expect(info.whisper_cpp).toContain('nodejs-whisper 0.3.1');
    expect(info.whisper_version).toBe('1.9.1');
    expect(info.flash_attn).toBe(true);
    if (arch() === 'x64') {
      expect(info.system_info).toContain('AVX2 = 1');
      expect(info.system_info).toContain('FMA = 1');
      expect(info.simd).toMatchObject({ AVX2: true, FMA: true, F16C: true });
    }
    if (arch() === 'arm64') expect(info.simd.NEON).toBe(true);
    expect(info.threads).toBe(2);
    expect(info.model).toMatchObject({ path: FOR_TESTS_MODEL, type: 'tiny', multilingual: false, flash_attn: true });
    expect(info.model!.sha256).toBe(await sha256File(FOR_TESTS_MODEL));
  });

  it('transcribes PCM and returns the identity it ran: echoed ids, its own audio and model hashes', async () => {
    const pcm = testClip(5, 1);
    const result = await engine.transcribe({ pcm, identity: { request_id: 'r1', item_id: 'item-7', utterance: 3 } });
    expect(Array.isArray(result.segments)).toBe(true);
    expect(result.identity).toEqual({
      request_id: 'r1',
      item_id: 'item-7',
      utterance: 3,
      audio_sha256: createHash('sha256').update(Buffer.from(pcm.buffer)).digest('hex'),
      model_sha256: (await engine.info()).model!.sha256,
    });
    expect(result.audio_ms).toBe(5000);
    expect(result.audio_ctx).toBe(378);
    expect(result.elapsed_ms).toBeGreaterThan(0);
  });

  it('takes clips shorter than the 1 s whisper.cpp needs (padded), hashing the audio as given', async () => {
    const pcm = testClip(0.3, 2);
    const result = await engine.transcribe({ pcm });
    expect(result.identity.audio_sha256).toBe(sha256OfPcm(pcm));
    expect(result.audio_ms).toBe(300);
    expect(result.audio_ctx).toBe(Math.ceil((MIN_ENGINE_SAMPLES / 16000) * 50) + 128);
  });

  it('does not touch the caller’s PCM', async () => {
    const pcm = testClip(1.5, 3);
    const copy = pcm.slice();
    await engine.transcribe({ pcm: pcm.subarray(100) });
    expect(pcm).toEqual(copy);
  });

  it('refuses bad audio and settings with a clear error', async () => {
    expect((await engineError(engine.transcribe({ pcm: new Float32Array(0) }))).message).toBe('audio is empty (0 samples)');
    const nan = testClip(1, 4);
    nan[123] = Number.NaN;
    expect(await engineError(engine.transcribe({ pcm: nan }))).toMatchObject({
      code: 'bad_audio',
      message: 'audio sample 123 is NaN (not a finite number)',
    });
    expect((await engineError(engine.transcribe({ pcm: [0.1] as unknown as Float32Array }))).code).toBe('bad_audio');
    expect(await engineError(engine.transcribe({ pcm: testClip(1, 5), settings: { bestOf: 99 } }))).toMatchObject({ code: 'bad_settings' });
  });

  it('holds one model: loading the same file again is a no-op, another file is refused', async () => {
    expect((await engine.load(FOR_TESTS_MODEL)).model!.path).toBe(FOR_TESTS_MODEL);
    const refused = await engineError(engine.load(path.join(REPO, 'package.json')));
    expect(refused.code).toBe('model_already_loaded');
    expect(refused.message).toContain(FOR_TESTS_MODEL);
  });
});

describeWithModels('WhisperEngine model checks (real whisper.cpp)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'aloud-engine-'));
  });

  it('a missing, foreign or truncated file is a clear error naming the file, never a crash', async () => {
    const missing = path.join(dir, 'nope.bin');
    const foreign = path.join(REPO, 'package.json');
    const truncated = path.join(dir, 'truncated.bin');
    await copyFile(testAssets().benchModel, truncated);
    const handle = await open(truncated, 'r+');
    await handle.truncate(20_000_000);
    await handle.close();
    for (const file of [missing, foreign, truncated]) {
      const engine = new WhisperEngine();
      const error = await engineError(engine.load(file));
      expect(error.code).toBe('model_invalid');
      expect(error.message).toContain(file);
      // the engine stays usable: a good model loads after the failure
      expect((await engine.load(FOR_TESTS_MODEL)).model!.type).toBe('tiny');
      await engine.close();
    }
  });

  it('refuses work before a model is loaded and after close', async () => {
    const engine = new WhisperEngine();
    expect((await engineError(engine.transcribe({ pcm: testClip(1, 1) }))).code).toBe('no_model');
    await engine.close();
    expect((await engineError(engine.transcribe({ pcm: testClip(1, 1) }))).code).toBe('engine_closed');
    expect((await engineError(engine.load(FOR_TESTS_MODEL))).code).toBe('engine_closed');
  });
});

describeWithModels('WhisperEngine on a tiny.en-sized random-weight model (real whisper.cpp)', () => {
  const engine = new WhisperEngine({ threads: 2 });
  beforeAll(async () => {
    await engine.load(testAssets().benchModel);
  }, 120_000);
  afterAll(() => engine.close());

  it('gives the same text for the same audio, whatever ran before', async () => {
    const a = testClip(2, 11);
    const b = testClip(2, 12);
    const first = await engine.transcribe({ pcm: a });
    await engine.transcribe({ pcm: b });
    const again = await engine.transcribe({ pcm: a });
    expect(first.segments.map((s) => s.text).join('')).not.toBe('');
    expect(again.segments).toEqual(first.segments);
  });

  it('returns token timestamps only when asked, all within the clip', async () => {
    const pcm = testClip(3, 21);
    const plain = await engine.transcribe({ pcm });
    expect(plain.segments.every((s) => s.tokens === undefined)).toBe(true);
    const timed = await engine.transcribe({ pcm, settings: { tokenTimestamps: true } });
    const tokens = timed.segments.flatMap((s) => s.tokens ?? []);
    expect(tokens.length).toBeGreaterThan(0);
    for (const s of timed.segments) {
      expect(0 <= s.t0_ms && s.t0_ms <= s.t1_ms && s.t1_ms <= 3000).toBe(true);
      for (const t of s.tokens!) {
        expect(0 <= t.t0_ms && t.t0_ms <= t.t1_ms && t.t1_ms <= 3000).toBe(true);
        expect(typeof t.text).toBe('string');
        expect(t.p).toBeGreaterThanOrEqual(0);
      }
    }
    expect(timed.segments.map((s) => s.text)).toEqual(plain.segments.map((s) => s.text));
  });

  it('abort stops the running job, which rejects with "aborted"; the engine goes on', async () => {
    const job = engine.transcribe({ pcm: testClip(30, 31), settings: { audioCtx: 1500 } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    engine.abort();
    expect((await engineError(job)).code).toBe('aborted');
    const next = await engine.transcribe({ pcm: testClip(1, 32) });
    expect(next.audio_ms).toBe(1000);
  });

  it('measures an encoder pass over a full 30 s window', async () => {
    const timing = await engine.encode(testClip(30, 41), null);
    expect(timing.audio_ctx).toBe(1500);
    expect(timing.encode_ms).toBeGreaterThan(0);
    expect(timing.mel_ms).toBeGreaterThan(0);
  });
});
