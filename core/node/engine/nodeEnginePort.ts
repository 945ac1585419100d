import type { ChildProcess } from 'node:child_process';
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

/**
 * The host's EnginePort to an engine child process (child_process.fork with `serialization: 'advanced'`, so PCM
 * crosses as V8-serialized binary, never JSON). `exited` says how the process ended; it closes the port.
 */
export function enginePortFromChildProcess(child: ChildProcess, exited: Promise<{ description: string }>): EnginePort {
  return {
    // a pipe cannot move a buffer's ownership: the Float32Array is copied into the message as raw bytes. Once the
    // channel is closed the process is gone or going: its exit fails the request (and the supervisor sends it again).
    postMessage: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (handler) => child.on('message', handler),
    onClose: (handler) => void exited.then((exit) => handler(exit.description)),
    close: () => {
      if (child.connected) child.disconnect();
    },
  };
}

/** The engine process's side of the fork channel: process.send / process.on('message'); closing ends the channel. */
export function enginePortFromForkParent(host: NodeJS.Process = process): EnginePort {
  return {
    postMessage: (message) => {
      if (host.connected) host.send?.(message);
    },
    onMessage: (handler) => host.on('message', handler),
    onClose: (handler) => host.on('disconnect', () => handler('the host closed the channel')),
    close: () => {
      if (host.connected) host.disconnect?.();
    },
  };
}

/** Electron's utility-process `process.parentPort` (or a MessagePortMain): messages arrive as `{ data }` events. */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/**
 * An EnginePort over Electron's utility-process parentPort, so the same engine entry serves the app from a
 * utility process. Electron transfers only ports, so PCM arrives structured-cloned (binary); the process ends with its parent.
 */
export function enginePortFromParentPort(port: ParentPortLike): EnginePort {
  return {
    postMessage: (message) => port.postMessage(message),
    onMessage: (handler) => port.on('message', (event) => handler(event.data)),
    onClose: () => undefined,
    close: () => undefined,
  };
}

/** What the host side needs of Electron's UtilityProcess (utilityProcess.fork's result). */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

/** The app's EnginePort to the engine's utility process; `exited` (from 'exit' and app 'child-process-gone') closes it. */
export function enginePortFromUtilityProcess(child: UtilityProcessLike, exited: Promise<{ description: string }>): EnginePort {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  return {
    postMessage: (message) => {
      if (!gone) child.postMessage(message);
    },
    onMessage: (handler) => child.on('message', handler),
    onClose: (handler) => void exited.then((exit) => handler(exit.description)),
    // the engine process ends itself after answering 'close'; killing is the supervisor's last resort
    close: () => undefined,
  };
}
