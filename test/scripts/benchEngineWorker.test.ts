import { expect, it } from 'vitest';
import { EngineError } from '../../core/common/engine/engineTypes';
import { startEngineWorker } from '../../bench/engineWorkerHost';
import { describeWithModels, FOR_TESTS_MODEL, testClip } from '../core/node/engine/engineTestModels';

// bench/engineHostCost.ts measures the engine process against whisper.cpp in a worker thread; the product never starts it
describeWithModels('the benches’ engine worker thread (real whisper.cpp)', () => {
  it('loads, transcribes and closes', { timeout: 120_000 }, async () => {
    const engine = startEngineWorker({ threads: 2, warmUp: false });
    try {
      expect((await engine.load(FOR_TESTS_MODEL)).model!.type).toBe('tiny');
      expect((await engine.transcribe({ pcm: testClip(2, 9) })).audio_ms).toBe(2000);
    } finally {
      await engine.close();
    }
    await expect(engine.info()).rejects.toBeInstanceOf(EngineError);
    await expect(engine.info()).rejects.toMatchObject({ code: 'engine_closed' });
  });
});
