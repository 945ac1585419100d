import type { EngineErrorCode, TranscribeInput } from './engineTypes';

/**
 * Messages between the engine client (main thread / session) and the engine service (worker thread or
 * Electron utility process). Every request carries a sequence number; its one reply carries the same number.
 * Plain structured-clone data only, so any MessagePort-like transport carries it.
 */
export type EngineRequest =
  | { seq: number; kind: 'load'; modelPath: string }
  | { seq: number; kind: 'transcribe'; input: TranscribeInput }
  | { seq: number; kind: 'encode'; pcm: Float32Array; audioCtx: number | null }
  | { seq: number; kind: 'info' }
  | { seq: number; kind: 'close' }
  /** stops request `target` if it is the one running; replies true when it was */
  | { seq: number; kind: 'abort'; target: number };

export type EngineRequestKind = EngineRequest['kind'];

export type EngineReply =
  { seq: number; ok: true; value: unknown } | { seq: number; ok: false; error: { code: EngineErrorCode; message: string } };

/** The transport: a worker_threads MessagePort, an Electron MessagePortMain or utility-process parentPort, adapted. */
export interface EnginePort {
  /** `transfer` lists buffers whose ownership moves to the other side (zero copy) */
  postMessage(message: EngineRequest | EngineReply, transfer?: ArrayBuffer[]): void;
  onMessage(handler: (message: unknown) => void): void;
  /** the other side is gone (worker exited or crashed); `reason` says how */
  onClose(handler: (reason: string) => void): void;
  close(): void;
}

const REQUEST_KINDS: ReadonlySet<string> = new Set<EngineRequestKind>(['load', 'transcribe', 'encode', 'info', 'close', 'abort']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The request, or a description of what is wrong with it. */
export function parseEngineRequest(message: unknown): EngineRequest | { problem: string; seq: number | null } {
  if (!isRecord(message)) return { problem: 'a request must be an object', seq: null };
  const seq = Number.isSafeInteger(message.seq) ? (message.seq as number) : null;
  if (seq === null) return { problem: 'request.seq must be an integer', seq: null };
  if (typeof message.kind !== 'string' || !REQUEST_KINDS.has(message.kind)) {
    return { problem: `request.kind must be one of ${[...REQUEST_KINDS].join(', ')}`, seq };
  }
  switch (message.kind) {
    case 'load':
      if (typeof message.modelPath !== 'string' || message.modelPath === '') return { problem: 'load.modelPath must be a file path', seq };
      break;
    case 'transcribe':
      if (!isRecord(message.input) || !(message.input.pcm instanceof Float32Array))
        return { problem: 'transcribe.input.pcm must be a Float32Array', seq };
      break;
    case 'encode':
      if (!(message.pcm instanceof Float32Array)) return { problem: 'encode.pcm must be a Float32Array', seq };
      break;
    case 'abort':
      if (!Number.isSafeInteger(message.target)) return { problem: 'abort.target must be a request seq', seq };
      break;
  }
  return message as unknown as EngineRequest;
}

/** The reply, or null when the message is not one. */
export function parseEngineReply(message: unknown): EngineReply | null {
  if (!isRecord(message) || !Number.isSafeInteger(message.seq) || typeof message.ok !== 'boolean') return null;
  if (message.ok) return message as unknown as EngineReply;
  const error = message.error;
  if (!isRecord(error) || typeof error.code !== 'string' || typeof error.message !== 'string') return null;
  return message as unknown as EngineReply;
}
