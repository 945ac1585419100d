import { decodeLanguageFor } from '../../common/engine/decodeSettings';
import { EngineError, type TranscriptionEngine } from '../../common/engine/engineTypes';
import { UtteranceCutter } from '../../common/engine/utteranceCutter';
import type { Segment } from '../../common/transcript/segment';
import type { OpenProject } from '../project/projectFolder';
import { startEngineWorker } from '../engine/engineHost';
import { resolveSessionModel, SessionEngineError } from './sessionModel';
import type { SessionEngine, UtteranceOutcome, UtteranceRequest } from './sessionService';

function shiftSegment(segment: Segment, offsetMs: number): Segment {
  return {
    ...segment,
    t0_ms: segment.t0_ms + offsetMs,
    t1_ms: segment.t1_ms + offsetMs,
    ...(segment.tokens ? { tokens: segment.tokens.map((t) => ({ ...t, t0_ms: t.t0_ms + offsetMs, t1_ms: t.t1_ms + offsetMs })) } : {}),
  };
}

/**
 * The session's engine over a loaded whisper.cpp engine: one utterance at a time in the order they were cut;
 * queued utterances of an item the annotator left end as stale; a result is accepted only when the identity the
 * engine echoes (request, item, utterance) is the one asked for. Segment times are moved onto the item timeline.
 */
export function sessionEngineOver(
  engine: TranscriptionEngine,
  model: { name: string; sha256: string },
  options: { language: string; silenceThresholdDbfs: number; sampleRate: number },
): SessionEngine {
  let queue: Promise<unknown> = Promise.resolve();
  /** bumped when the annotator leaves an item; a request queued under an older epoch is stale */
  const leftEpoch = new Map<string, number>();
  let nextRequest = 1;

  async function run(request: UtteranceRequest, requestId: string, epoch: number): Promise<UtteranceOutcome> {
    if ((leftEpoch.get(request.item_id) ?? 0) !== epoch) {
      return { kind: 'stale', request_id: requestId, reason: 'the annotator left the item before this utterance was transcribed' };
    }
    try {
      const result = await engine.transcribe({
        pcm: request.pcm,
        settings: { language: options.language },
        identity: { request_id: requestId, item_id: request.item_id, utterance: request.utterance },
      });
      const echoed = result.identity;
      if (echoed.request_id !== requestId || echoed.item_id !== request.item_id || echoed.utterance !== request.utterance || echoed.model_sha256 !== model.sha256) {
        return { kind: 'stale', request_id: requestId, reason: `identity mismatch: the engine answered ${echoed.request_id} (${echoed.item_id} #${echoed.utterance})` };
      }
      const offsetMs = (request.start_sample * 1000) / options.sampleRate;
      return { kind: 'accepted', request_id: requestId, segments: result.segments.map((s) => shiftSegment(s, offsetMs)), model };
    } catch (e) {
      if (e instanceof EngineError && e.code === 'aborted') return { kind: 'stale', request_id: requestId, reason: 'aborted' };
      throw e;
    }
  }

  return {
    createCutter: () => new UtteranceCutter({ silenceThresholdDbfs: options.silenceThresholdDbfs, sampleRate: options.sampleRate }),
    transcriber: {
      transcribe(request) {
        const requestId = `req-${nextRequest++}`;
        const epoch = leftEpoch.get(request.item_id) ?? 0;
        const job = queue.then(() => run(request, requestId, epoch));
        queue = job.catch(() => undefined);
        return job;
      },
      cancelItem(itemId) {
        leftEpoch.set(itemId, (leftEpoch.get(itemId) ?? 0) + 1);
      },
      async close() {
        await queue;
        await engine.close();
      },
    },
  };
}

/** Loads the session's model in the engine worker (one load per session) and wraps it for the SessionService. */
export async function openSessionEngine(options: { project: OpenProject; modelFile: string | null; modelsDir?: string }): Promise<SessionEngine> {
  const model = await resolveSessionModel(options.project, options.modelFile, options.modelsDir);
  const engine = startEngineWorker();
  let sha256: string;
  try {
    const info = await engine.load(model.path);
    sha256 = info.model?.sha256 ?? '';
  } catch (e) {
    await engine.close().catch(() => undefined);
    throw new SessionEngineError(`cannot load the whisper model ${model.path}: ${(e as Error).message}`);
  }
  const { thinkaloud } = options.project.config;
  return sessionEngineOver(engine, { name: model.name, sha256 }, {
    language: decodeLanguageFor(thinkaloud.languages),
    silenceThresholdDbfs: thinkaloud.silence_threshold_dbfs,
    sampleRate: 16_000,
  });
}
