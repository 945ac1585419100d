// Entry of the engine: serves the engine protocol from a worker thread (the port it was given, or its
// parentPort) or, started as an Electron utility process, on process.parentPort.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { serveEngine } from '../../common/engine/engineService';
import { enginePortFromMessagePort, enginePortFromParentPort, type ParentPortLike } from './nodeEnginePort';
import { WhisperEngine, type WhisperEngineOptions } from './whisperEngine';

interface EngineWorkerData {
  port?: MessagePort;
  options?: WhisperEngineOptions;
}

const data = (workerData ?? {}) as EngineWorkerData;
const threadPort = data.port ?? parentPort;
const utilityPort = (process as { parentPort?: ParentPortLike }).parentPort;
const engine = new WhisperEngine(data.options);
if (threadPort) serveEngine(enginePortFromMessagePort(threadPort), engine);
else if (utilityPort) serveEngine(enginePortFromParentPort(utilityPort), engine);
else throw new Error('engineWorker.ts runs as a worker thread (engineHost.ts) or an Electron utility process');
