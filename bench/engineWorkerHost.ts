// whisper.cpp in a worker thread of the bench's own process: what the app ran before the engine had a process of its
// own, kept only to measure that process against (engineHostCost.ts). The product never starts it.
import { Worker } from 'node:worker_threads';
import { EngineClient } from '../core/common/engine/engineClient';
import { enginePortFromWorker } from '../core/node/engine/nodeEnginePort';
import type { WhisperEngineOptions } from '../core/node/engine/whisperEngine';

/** Starts the engine in a worker thread (bench/engineWorker.ts, from source) and returns its client; closing the client ends the worker. */
export function startEngineWorker(options: WhisperEngineOptions = {}): EngineClient {
  const worker = new Worker(new URL('./engineWorkerFromSource.mjs', import.meta.url), { workerData: { options } });
  return new EngineClient(enginePortFromWorker(worker));
}
