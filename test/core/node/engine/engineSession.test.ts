import path from 'node:path';
import { expect, it } from 'vitest';
import { EngineError } from '../../../../core/common/engine/engineTypes';
import { openEngineSession } from '../../../../core/node/engine/engineSession';
import { describeWithModels, FOR_TESTS_MODEL, REPO, testClip } from './engineTestModels';

describeWithModels('openEngineSession (real whisper.cpp in a worker)', () => {
  it('loads the model once and wires a cutter per recording to the identity-checked transcriber', async () => {
    const session = await openEngineSession({ modelPath: FOR_TESTS_MODEL, silenceThresholdDbfs: -45 });
    try {
      expect(session.info.model!.path).toBe(FOR_TESTS_MODEL);
      const cutter = session.createCutter();
      const recording = new Float32Array(16000 * 4);
      recording.set(testClip(1.5, 3), 16000);
      const utterances = [...cutter.push(recording), ...cutter.flush()];
      expect(utterances.map((u) => [u.startSample, u.endSample])).toEqual([[16000 - 3200, 16000 * 2.5 + 4800]]);
      const outcome = await session.transcriber.transcribe({ item_id: 'item-1', utterance: 0, start_sample: utterances[0]!.startSample, end_sample: utterances[0]!.endSample, pcm: utterances[0]!.pcm });
      expect(outcome).toMatchObject({ kind: 'accepted', model: { name: 'for-tests-ggml-tiny.en', sha256: session.info.model!.sha256 } });
      expect(session.transcriber.transcribedCount).toBe(1);
      expect(session.createCutter()).not.toBe(cutter);
    } finally {
      await session.transcriber.close();
    }
  });

  it('a model that cannot load fails the opening with the reason, and stops its worker', async () => {
    const error = await openEngineSession({ modelPath: path.join(REPO, 'package.json'), silenceThresholdDbfs: -45 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'model_invalid' });
  });

  it('checks the cutter options at opening, naming the bad one', async () => {
    await expect(openEngineSession({ modelPath: FOR_TESTS_MODEL, silenceThresholdDbfs: -45, cutter: { minSilenceMs: 1 } })).rejects.toThrow(/minSilenceMs/);
  });
});
