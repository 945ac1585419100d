// Entry of the engine as a worker thread (engineHost.ts): serves the engine protocol on the port it was given, or its
// parentPort. The app and the CLI run the engine in a process of its own (engineProcess.ts); the worker remains for
// tests and for measuring what the process costs against it (bench/engineHostCost.ts).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { serveEngine } from '../../common/engine/engineService';
import { enginePortFromMessagePort } from './nodeEnginePort';
import { WhisperEngine, type WhisperEngineOptions } from './whisperEngine';

interface EngineWorkerData {
  port?: MessagePort;
  options?: WhisperEngineOptions;
}

const data = (workerData ?? {}) as EngineWorkerData;
const threadPort = data.port ?? parentPort;
if (!threadPort) throw new Error('engineWorker.ts runs as a worker thread (engineHost.ts)');
serveEngine(enginePortFromMessagePort(threadPort), new WhisperEngine(data.options));
