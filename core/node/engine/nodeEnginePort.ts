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

/** Electron's utility-process `process.parentPort` (or a MessagePortMain): messages arrive as `{ data }` events. */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/**
 * An EnginePort over Electron's utility-process parentPort, so the same engine worker entry serves the app from
 * a utility process. Electron transfers only ports, so PCM arrives cloned; the process ends with its parent.
 */
export function enginePortFromParentPort(port: ParentPortLike): EnginePort {
  return {
    postMessage: (message) => port.postMessage(message),
    onMessage: (handler) => port.on('message', (event) => handler(event.data)),
    onClose: () => undefined,
    close: () => undefined,
  };
}
