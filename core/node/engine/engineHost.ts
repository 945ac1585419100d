import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EngineClient } from '../../common/engine/engineClient';
import { enginePortFromWorker } from './nodeEnginePort';
import type { WhisperEngineOptions } from './whisperEngine';

export interface StartEngineOptions extends WhisperEngineOptions {
  /** the worker script; default: a compiled engineWorker.js beside this file, else engineWorker.ts through tsx */
  workerEntry?: URL;
}

/** The engine worker thread itself (startEngineWorker wraps it in a client). */
export function spawnEngineWorker(options: StartEngineOptions = {}): Worker {
  const { workerEntry, ...engineOptions } = options;
  if (workerEntry) return new Worker(workerEntry, { workerData: { options: engineOptions } });
  const compiled = new URL('./engineWorker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, { workerData: { options: engineOptions } });
  const entry = new URL('./engineWorker.ts', import.meta.url).href;
  return new Worker(new URL('./engineSourceBootstrap.mjs', import.meta.url), { workerData: { entry, options: engineOptions } });
}

/**
 * Starts the whisper.cpp engine in a worker thread and returns its client; closing the client ends the worker. The
 * app and the CLI use the engine process instead (engineProcessHost.ts), where a native fault cannot take them down.
 */
export function startEngineWorker(options: StartEngineOptions = {}): EngineClient {
  return new EngineClient(enginePortFromWorker(spawnEngineWorker(options)));
}
