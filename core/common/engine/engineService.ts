import { type EnginePort, type EngineReply, type EngineRequest, parseEngineRequest } from './engineProtocol';
import { EngineError, type EngineErrorCode, type TranscriptionEngine } from './engineTypes';

const FAILURE_CODE: Record<EngineRequest['kind'], EngineErrorCode> = {
  load: 'model_load_failed',
  transcribe: 'transcribe_failed',
  encode: 'transcribe_failed',
  info: 'protocol',
  close: 'protocol',
  abort: 'protocol',
};

/**
 * The engine side of the protocol, run where the engine lives (worker thread, utility process, or a test's
 * MessageChannel). Requests run one at a time in arrival order; `abort` and `info` are answered at once,
 * so a running job can be stopped. After `close` the port is closed and nothing more is served.
 */
export function serveEngine(port: EnginePort, engine: TranscriptionEngine): void {
  let chain: Promise<void> = Promise.resolve();
  let running: number | null = null;
  let closing = false;

  const reply = (message: EngineReply): void => {
    try {
      port.postMessage(message);
    } catch {
      // the client is gone; nothing to tell
    }
  };
  const replyError = (seq: number, kind: EngineRequest['kind'], e: unknown): void => {
    const error = e instanceof EngineError ? e : new EngineError(FAILURE_CODE[kind], e instanceof Error ? e.message : String(e));
    reply({ seq, ok: false, error: { code: error.code, message: error.message } });
  };

  const perform = async (request: EngineRequest): Promise<unknown> => {
    switch (request.kind) {
      case 'load':
        return engine.load(request.modelPath);
      case 'transcribe':
        return engine.transcribe(request.input);
      case 'encode':
        return engine.encode(request.pcm, request.audioCtx);
      case 'info':
        return engine.info();
      case 'close':
        return engine.close();
      case 'abort': {
        const hit = running === request.target;
        if (hit) engine.abort();
        return hit;
      }
    }
  };

  port.onMessage((message) => {
    const request = parseEngineRequest(message);
    if ('problem' in request) {
      if (request.seq !== null) reply({ seq: request.seq, ok: false, error: { code: 'protocol', message: request.problem } });
      return;
    }
    if (closing) {
      reply({ seq: request.seq, ok: false, error: { code: 'engine_closed', message: 'the engine is closing' } });
      return;
    }
    if (request.kind === 'abort' || request.kind === 'info') {
      perform(request).then(
        (value) => reply({ seq: request.seq, ok: true, value }),
        (e: unknown) => replyError(request.seq, request.kind, e),
      );
      return;
    }
    if (request.kind === 'close') closing = true;
    chain = chain.then(async () => {
      if (closing && request.kind !== 'close') {
        reply({ seq: request.seq, ok: false, error: { code: 'engine_closed', message: 'the engine was closed before this request ran' } });
        return;
      }
      running = request.seq;
      try {
        const value = await perform(request);
        reply({ seq: request.seq, ok: true, value: value ?? null });
      } catch (e) {
        replyError(request.seq, request.kind, e);
      } finally {
        running = null;
      }
      if (request.kind === 'close') port.close();
    });
  });
}
