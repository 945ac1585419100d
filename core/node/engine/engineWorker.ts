// Entry of the engine worker thread: serves the engine protocol on the port it was given (or its parentPort).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { serveEngine } from '../../common/engine/engineService';
import { enginePortFromMessagePort } from './nodeEnginePort';
import { WhisperEngine, type WhisperEngineOptions } from './whisperEngine';

interface EngineWorkerData {
  port?: MessagePort;
  options?: WhisperEngineOptions;
}

const data = (workerData ?? {}) as EngineWorkerData;
const port = data.port ?? parentPort;
if (!port) throw new Error('engineWorker.ts runs as a worker thread (see engineHost.ts)');
serveEngine(enginePortFromMessagePort(port), new WhisperEngine(data.options));
