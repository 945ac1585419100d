import { SESSION_SAMPLE_RATE } from '../../common/session/sessionEvents';
import { decodeLanguageFor } from '../../common/engine/decodeSettings';
import type { TranscriptionEngine } from '../../common/engine/engineTypes';
import { TranscriptionScheduler } from '../../common/engine/transcriptionScheduler';
import type { SpeechProbe } from '../../common/engine/speechProbe';
import { liveCutterFactory, openVoiceActivity } from '../engine/liveEngine';
import type { OpenProject } from '../project/projectFolder';
import type { EngineSupervisorEvent } from '../engine/engineSupervisor';
import { startEngineProcess } from '../engine/engineProcessHost';
import { loadEngineScript, ScriptedEngine } from '../engine/scriptedEngine';
import { sha256OfPcm } from '../engine/whisperEngine';
import { resolveSessionModel, SessionEngineError } from './sessionModel';
import type { SessionEngine } from './sessionService';
import type { WholeRecordingVad } from './itemAudioSignals';

/** The session's engine: the engine's TranscriptionScheduler (identity before success; token times, so a commit phrase is timed to its word) and a live cutter per recording. */
export function sessionEngineOver(
  engine: TranscriptionEngine,
  model: { name: string; sha256: string },
  options: { language: string; silenceThresholdDbfs: number; sampleRate: number; speech?: SpeechProbe | null },
): SessionEngine {
  const transcriber = new TranscriptionScheduler({ engine, model, hashAudio: sha256OfPcm, settings: { language: options.language, tokenTimestamps: true }, sampleRate: options.sampleRate });
  const vad = options.speech && 'probabilitiesOf' in options.speech ? (options.speech as SpeechProbe & WholeRecordingVad) : null;
  return { model, transcriber, createCutter: liveCutterFactory(transcriber, options), vad };
}

/** The engine script to use instead of whisper.cpp: the command's flag, else ALOUD_ENGINE_SCRIPT (test suites), else none. */
export function engineScriptFile(flag: string | null | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  if (flag) return flag;
  const fromEnv = env.ALOUD_ENGINE_SCRIPT;
  return fromEnv ? fromEnv : null;
}

/**
 * Loads the session's model in the engine process (one load per session; restarted with it after a crash, said
 * through `onEngineEvent`) and wraps it for the SessionService.
 * With `engineScript`, scripted results replace whisper.cpp (model identity `scripted:<sha256 of the script>`);
 * the cutter is the same (Silero VAD when its model is installed).
 */
export async function openSessionEngine(options: {
  project: OpenProject;
  modelFile: string | null;
  modelsDir?: string;
  engineScript?: string | null;
  onEngineEvent?: (event: EngineSupervisorEvent) => void;
}): Promise<SessionEngine & { voiceActivity: string }> {
  const { thinkaloud } = options.project.config;
  const voice = openVoiceActivity(options.modelsDir);
  const decode = { language: decodeLanguageFor(thinkaloud.languages), silenceThresholdDbfs: thinkaloud.silence_threshold_dbfs, sampleRate: SESSION_SAMPLE_RATE, speech: voice.probe };
  if (options.engineScript) {
    const scripted = new ScriptedEngine(await loadEngineScript(options.engineScript));
    const info = await scripted.load(options.engineScript);
    return { ...sessionEngineOver(scripted, scripted.modelIdentity, decode), whisperCpp: info.whisper_cpp, voiceActivity: voice.note };
  }
  const model = await resolveSessionModel(options.project, options.modelFile, options.modelsDir);
  const engine = startEngineProcess({ modelName: model.name, ...(options.onEngineEvent ? { onEvent: options.onEngineEvent } : {}) });
  let sha256: string;
  let whisperCpp: string;
  try {
    const info = await engine.load(model.path);
    sha256 = info.model?.sha256 ?? '';
    whisperCpp = info.whisper_cpp;
  } catch (e) {
    await engine.close().catch(() => undefined);
    throw new SessionEngineError(`cannot load the whisper model ${model.path}: ${(e as Error).message}`);
  }
  return { ...sessionEngineOver(engine, { name: model.name, sha256 }, decode), whisperCpp, voiceActivity: voice.note };
}
