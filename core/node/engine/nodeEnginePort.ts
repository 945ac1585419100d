import type { MessagePort, Worker } from 'node:worker_threads';
import type { EnginePort } from '../../common/engine/engineProtocol';

/** An EnginePort over a worker_threads MessagePort (the worker's parentPort, or either end of a MessageChannel). */
export function enginePortFromMessagePort(port: MessagePort): EnginePort {
  return {
    postMessage: (message, transfer) => port.postMessage(message, transfer),
    onMessage: (handler) => port.on('message', handler),
    onClose: (handler) => port.on('close', () => handler('the message port closed')),
    close: () => port.close(),
  };
}

/** The main thread's EnginePort to an engine worker; the worker exiting or crashing closes it. */
export function enginePortFromWorker(worker: Worker): EnginePort {
  let gone = false;
  return {
    postMessage: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (handler) => worker.on('message', handler),
    onClose: (handler) => {
      worker.on('error', (e) => {
        gone = true;
        handler(`the engine worker crashed: ${e.message}`);
      });
      worker.on('exit', (code) => {
        if (!gone) handler(`the engine worker exited (code ${code})`);
        gone = true;
      });
    },
    close: () => {
      if (!gone) void worker.terminate();
    },
  };
}
