// Entry of the engine as a worker thread (engineWorkerHost.ts): serves the engine protocol on its parentPort. The app
// and the CLI run the engine in a process of its own (core/node/engine/engineProcess.ts); this is for the benches only.
import { parentPort, workerData } from 'node:worker_threads';
import { serveEngine } from '../core/common/engine/engineService';
import { enginePortFromMessagePort } from '../core/node/engine/nodeEnginePort';
import { WhisperEngine, type WhisperEngineOptions } from '../core/node/engine/whisperEngine';

const options = ((workerData ?? {}) as { options?: WhisperEngineOptions }).options;
if (!parentPort) throw new Error('bench/engineWorker.ts runs as a worker thread (engineWorkerHost.ts)');
serveEngine(enginePortFromMessagePort(parentPort), new WhisperEngine(options));
