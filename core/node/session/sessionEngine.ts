import { decodeLanguageFor } from '../../common/engine/decodeSettings';
import type { TranscriptionEngine } from '../../common/engine/engineTypes';
import { TranscriptionScheduler } from '../../common/engine/transcriptionScheduler';
import type { SpeechProbe } from '../../common/engine/speechProbe';
import { liveCutterFactory, openVoiceActivity } from '../engine/liveEngine';
import type { OpenProject } from '../project/projectFolder';
import { startEngineWorker } from '../engine/engineHost';
import { sha256OfPcm } from '../engine/whisperEngine';
import { resolveSessionModel, SessionEngineError } from './sessionModel';
import type { SessionEngine } from './sessionService';

/** The session's engine: the engine's TranscriptionScheduler (identity before success) and a live cutter per recording. */
export function sessionEngineOver(
  engine: TranscriptionEngine,
  model: { name: string; sha256: string },
  options: { language: string; silenceThresholdDbfs: number; sampleRate: number; speech?: SpeechProbe | null },
): SessionEngine {
  const transcriber = new TranscriptionScheduler({ engine, model, hashAudio: sha256OfPcm, settings: { language: options.language }, sampleRate: options.sampleRate });
  return { model, transcriber, createCutter: liveCutterFactory(transcriber, options) };
}

/** Loads the session's model in the engine worker (one load per session) and wraps it for the SessionService. */
export async function openSessionEngine(options: { project: OpenProject; modelFile: string | null; modelsDir?: string }): Promise<SessionEngine & { voiceActivity: string }> {
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
  const voice = openVoiceActivity(options.modelsDir);
  const session = sessionEngineOver(engine, { name: model.name, sha256 }, {
    language: decodeLanguageFor(thinkaloud.languages),
    silenceThresholdDbfs: thinkaloud.silence_threshold_dbfs,
    sampleRate: 16_000,
    speech: voice.probe,
  });
  return { ...session, voiceActivity: voice.note };
}
