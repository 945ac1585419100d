import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { EngineClient } from '../../../../core/common/engine/engineClient';
import type { EnginePort } from '../../../../core/common/engine/engineProtocol';
import { serveEngine } from '../../../../core/common/engine/engineService';
import { enginePortFromParentPort } from '../../../../core/node/engine/nodeEnginePort';
import { sha256OfPcm, WhisperEngine } from '../../../../core/node/engine/whisperEngine';
import { describeWithModels, FOR_TESTS_MODEL, testClip } from './engineTestModels';

/** Electron's utility-process parentPort as the engine sees it: `{ data }` message events, postMessage back. */
class UtilityParentPort extends EventEmitter {
  postMessage(message: unknown): void {
    this.emit('to-main', structuredClone(message));
  }
}

describeWithModels('the engine served on an Electron-style utility-process parentPort (real whisper.cpp)', () => {
  it('answers the same protocol: load, transcribe (PCM cloned, not transferred), info', async () => {
    const parentPort = new UtilityParentPort();
    serveEngine(enginePortFromParentPort(parentPort), new WhisperEngine({ warmUp: false }));
    // The main-process side, as utilityProcess.postMessage / child.on('message') would carry it.
    const mainSide: EnginePort = {
      postMessage: (message) => setImmediate(() => parentPort.emit('message', { data: structuredClone(message) })),
      onMessage: (handler) => parentPort.on('to-main', handler),
      onClose: () => undefined,
      close: () => undefined,
    };
    const engine = new EngineClient(mainSide);
    expect((await engine.load(FOR_TESTS_MODEL)).model!.type).toBe('tiny');
    const pcm = testClip(1.5, 77);
    const result = await engine.transcribe({ pcm, identity: { request_id: 'u1', item_id: 'i', utterance: 0 } });
    expect(result.identity).toMatchObject({ request_id: 'u1', audio_sha256: sha256OfPcm(pcm) });
    expect((await engine.info()).model!.path).toBe(FOR_TESTS_MODEL);
    await engine.close();
  });
});
