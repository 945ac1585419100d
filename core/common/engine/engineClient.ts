import { type EnginePort, type EngineRequest, parseEngineReply } from './engineProtocol';
import {
  type EncodeTiming,
  type EngineInfo,
  type EngineTranscription,
  EngineError,
  type TranscribeInput,
  type TranscriptionEngine,
} from './engineTypes';

interface PendingCall {
  kind: EngineRequest['kind'];
  resolve: (value: unknown) => void;
  reject: (error: EngineError) => void;
}

type RequestBody = EngineRequest extends infer R ? (R extends { seq: number } ? Omit<R, 'seq'> : never) : never;

/**
 * The engine as the main thread sees it: each call is a sequence-numbered request over an EnginePort to the
 * engine service (a worker thread, or an Electron utility process later). PCM is copied once and the copy's
 * buffer transferred, so the caller's array stays usable and nothing large is cloned twice.
 */
export class EngineClient implements TranscriptionEngine {
  private nextSeq = 1;
  private readonly pending = new Map<number, PendingCall>();
  private closed: { code: 'engine_crashed' | 'engine_closed'; reason: string } | null = null;

  constructor(private readonly port: EnginePort) {
    port.onMessage((message) => this.receive(message));
    port.onClose((reason) => this.fail(`the engine stopped: ${reason}`));
  }

  load(modelPath: string): Promise<EngineInfo> {
    return this.call({ kind: 'load', modelPath }) as Promise<EngineInfo>;
  }

  transcribe(input: TranscribeInput): Promise<EngineTranscription> {
    const pcm = input.pcm.slice();
    return this.call({ kind: 'transcribe', input: { ...input, pcm } }, pcm) as Promise<EngineTranscription>;
  }

  encode(pcm: Float32Array, audioCtx: number | null = null): Promise<EncodeTiming> {
    const copy = pcm.slice();
    return this.call({ kind: 'encode', pcm: copy, audioCtx }, copy) as Promise<EncodeTiming>;
  }

  /** Aborts the running job: the service runs requests in order, so that is the oldest pending one. */
  abort(): void {
    if (this.closed) return;
    for (const [seq, call] of this.pending) {
      if (call.kind === 'transcribe' || call.kind === 'encode') {
        this.call({ kind: 'abort', target: seq }).catch(() => undefined);
        return;
      }
    }
  }

  info(): Promise<EngineInfo> {
    return this.call({ kind: 'info' }) as Promise<EngineInfo>;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.abort();
    try {
      await this.call({ kind: 'close' });
    } finally {
      this.fail('the engine was closed', 'engine_closed');
      this.port.close();
    }
  }

  /** Requests sent and not answered yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** `moved`: a PCM copy made for this request, whose buffer is transferred rather than cloned. */
  private call(body: RequestBody, moved?: Float32Array): Promise<unknown> {
    if (this.closed) return Promise.reject(new EngineError(this.closed.code, this.closed.reason));
    const seq = this.nextSeq++;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { kind: body.kind, resolve, reject });
      try {
        this.port.postMessage({ ...body, seq } as EngineRequest, moved ? [moved.buffer as ArrayBuffer] : undefined);
      } catch (e) {
        this.pending.delete(seq);
        reject(new EngineError('protocol', `could not send ${body.kind} to the engine: ${(e as Error).message}`));
      }
    });
  }

  private receive(message: unknown): void {
    const reply = parseEngineReply(message);
    if (!reply) return;
    const call = this.pending.get(reply.seq);
    if (!call) return;
    this.pending.delete(reply.seq);
    if (reply.ok) call.resolve(reply.value);
    else call.reject(new EngineError(reply.error.code, reply.error.message));
  }

  private fail(reason: string, code: 'engine_crashed' | 'engine_closed' = 'engine_crashed'): void {
    this.closed ??= { code, reason };
    for (const call of this.pending.values()) call.reject(new EngineError(code, reason));
    this.pending.clear();
  }
}
