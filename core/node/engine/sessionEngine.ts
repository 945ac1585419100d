import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeLanguageFor } from '../../common/engine/decodeSettings';
import { createEndsWithCommitment } from '../../common/engine/endsWithCommitment';
import { parseOptionsOf } from '../../common/analysis/transcriptAnalysis';
import { projectInitialPrompt } from '../../common/engine/initialPrompt';
import type { TranscriptionEngine } from '../../common/engine/engineTypes';
import { type LiveRecordingContext, LiveUtterances } from '../../common/engine/liveUtterances';
import type { SpeechProbe, WholeRecordingVad } from '../../common/signals/speechProbe';
import type { ModelIdentity } from '../../common/session/sessionEvents';
import { TranscriptionScheduler, type UtteranceOutcome, type UtteranceRequest } from '../../common/engine/transcriptionScheduler';
import { UtteranceCutter } from '../../common/engine/utteranceCutter';
import { resolveModelsDir } from '../models/modelsDir';
import type { OpenProject } from '../project/projectFolder';
import type { EngineSupervisorEvent } from './engineSupervisor';
import { type EngineLauncher, startEngineProcess } from './engineProcessHost';
import { loadEngineScript, ScriptedEngine } from './scriptedEngine';
import { resolveSessionModel, SessionEngineError } from './sessionModel';
import { SileroVad, VAD_MODEL_FILE } from './sileroVad';
import { sha256OfPcm } from './whisperEngine';
import { asRefusal } from '../../common/refusal/refusal';
import { say } from '../../common/refusal/refusalMessage';

/** The live utterance cutter of one recording (the engine's utteranceCutter). */
export type LiveCutter = Pick<UtteranceCutter, 'push' | 'flush'>;

/**
 * What the session needs of the engine: transcribe utterances off the main thread, in order, with identity
 * checks: the engine's TranscriptionScheduler provides it. Segment times come back on the item timeline.
 */
export interface SessionTranscriber {
  transcribe(request: UtteranceRequest): Promise<UtteranceOutcome>;
  /** the annotator left the item: its queued requests end as stale */
  cancelItem(itemId: string): void;
  close(): Promise<void>;
}

/** The engine as a session uses it: the transcriber, a cutter per recording, the model's identity and the VAD. */
export interface SessionEngine {
  transcriber: SessionTranscriber;
  /** with a context, the cutter may also show partial text and start finals early (engine's LiveUtterances) */
  createCutter(context?: LiveRecordingContext): LiveCutter;
  /** the loaded model, for the UI and provenance */
  model?: { name: string; sha256: string };
  /** the engine's whisper.cpp version, recorded with every transcription */
  whisperCpp?: string | null;
  /** the Silero VAD, for the vad_* signals over each item's whole WAV when a recording stops (none: null) */
  vad?: WholeRecordingVad | null;
  /** which VAD model that is (name and file sha256), recorded beside the whisper model */
  vadModel?: ModelIdentity | null;
}

/** Overrides where the Silero VAD model is looked for (default: the models folder). */
export const VAD_MODEL_ENV = 'ALOUD_VAD_MODEL';

export interface VoiceActivity {
  /** the VAD, or null: the cutter then uses the energy rule */
  probe: SileroVad | null;
  /** its model's name and sha256, as records name it */
  identity: ModelIdentity | null;
  /** one line saying which cutter runs and why, for doctor, bench and the session's UI */
  note: string;
}

/** The Silero VAD model of the models folder (or $ALOUD_VAD_MODEL), or the reason the energy cutter is used instead. */
export function openVoiceActivity(modelsDir?: string, env: NodeJS.ProcessEnv = process.env): VoiceActivity {
  const file = env[VAD_MODEL_ENV] || path.join(resolveModelsDir(modelsDir, env), VAD_MODEL_FILE);
  if (!existsSync(file)) {
    return {
      probe: null,
      identity: null,
      note: `energy cutter (frame level against the project's silence threshold): no voice-activity model at ${file}; \`aloud models download tiny.en\` fetches it`,
    };
  }
  try {
    const probe = SileroVad.load(file);
    return { probe, identity: vadModelIdentity(file), note: `Silero VAD cutter (${file})` };
  } catch (e) {
    return { probe: null, identity: null, note: `energy cutter: the voice-activity model ${file} does not load (${(e as Error).message})` };
  }
}

/** A VAD model file as the record names it: `silero-v6.2.0` (the file name without ggml- and .bin) and its sha256. */
export function vadModelIdentity(file: string): ModelIdentity {
  return {
    name: path
      .basename(file)
      .replace(/^ggml-/, '')
      .replace(/\.bin$/, ''),
    sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
  };
}

/** How a session's cutter decides: the project's silence threshold, and the VAD when there is one. */
export interface CutterSettings {
  silenceThresholdDbfs: number;
  speech?: SpeechProbe | null;
  /** the least silence that may cut after a sentence (thinkaloud.cut_floor_ms; null or absent: always the full 300 ms) */
  adaptiveFloorMs?: number | null;
  /** whether a speculative final ends with a commit phrase and a full stop (the project's phrases; cut timing only) */
  endsWithCommitment?: (text: string) => boolean;
}

/**
 * The session's cutter per recording: Silero VAD when there is a probe (its stream reset for each recording),
 * else the energy rule; with a recording context, wrapped in LiveUtterances for partials and speculation.
 */
export function liveCutterFactory(
  scheduler: TranscriptionScheduler,
  options: CutterSettings,
): {
  (context: LiveRecordingContext): LiveUtterances;
  (context?: LiveRecordingContext): UtteranceCutter | LiveUtterances;
} {
  const create = (context?: LiveRecordingContext): UtteranceCutter | LiveUtterances => {
    options.speech?.reset();
    const cutter = new UtteranceCutter({
      silenceThresholdDbfs: options.silenceThresholdDbfs,
      speech: options.speech ?? null,
      adaptiveFloorMs: options.speech ? (options.adaptiveFloorMs ?? null) : null,
    });
    return context
      ? new LiveUtterances({
          cutter,
          scheduler,
          context,
          ...(options.endsWithCommitment ? { endsWithCommitment: options.endsWithCommitment } : {}),
        })
      : cutter;
  };
  return create as ReturnType<typeof liveCutterFactory>;
}

/** The session's engine: the engine's TranscriptionScheduler (identity before success; token times, so a commit phrase is timed to its word) and a live cutter per recording. */
export function sessionEngineOver(
  engine: TranscriptionEngine,
  model: { name: string; sha256: string },
  options: CutterSettings & { language: string; initialPrompt?: string; vadModel?: ModelIdentity | null },
): SessionEngine {
  const settings = {
    language: options.language,
    tokenTimestamps: true,
    ...(options.initialPrompt === undefined ? {} : { initialPrompt: options.initialPrompt }),
  };
  const transcriber = new TranscriptionScheduler({ engine, model, hashAudio: sha256OfPcm, settings });
  const vad = options.speech && 'probabilitiesOf' in options.speech ? (options.speech as SpeechProbe & WholeRecordingVad) : null;
  return {
    model,
    transcriber,
    createCutter: liveCutterFactory(transcriber, options),
    vad,
    vadModel: options.speech ? (options.vadModel ?? null) : null,
  };
}

/** The engine script to use instead of whisper.cpp: the command's flag, else ALOUD_ENGINE_SCRIPT (test suites), else none. */
export function engineScriptFile(flag: string | null | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  if (flag) return flag;
  const fromEnv = env.ALOUD_ENGINE_SCRIPT;
  return fromEnv ? fromEnv : null;
}

/**
 * What transcribes: an engine script (no process is started), or whisper.cpp in the engine process `launchEngine`
 * starts (the composer's: forkEngineLauncher, or the desktop app's utility process).
 */
export type SessionEngineSource =
  { engineScript: string; launchEngine?: EngineLauncher } | { engineScript?: string | null; launchEngine: EngineLauncher };

/**
 * Loads the session's model in the engine process `launchEngine` starts (one load per session; restarted with it after
 * a crash, said through `onEngineEvent`) and wraps it for the SessionService.
 * With `engineScript`, scripted results replace whisper.cpp (model identity `scripted:<sha256 of the script>`);
 * the cutter is the same (Silero VAD when its model is installed).
 */
export async function openSessionEngine(
  options: {
    project: OpenProject;
    modelFile: string | null;
    modelsDir?: string;
    onEngineEvent?: (event: EngineSupervisorEvent) => void;
  } & SessionEngineSource,
): Promise<SessionEngine & { voiceActivity: string }> {
  const { thinkaloud, schema } = options.project.config;
  const voice = openVoiceActivity(options.modelsDir);
  // whisper hears the project's words: label names, synonyms and commit phrases, then the filler prompt
  const initialPrompt = projectInitialPrompt({ labels: schema.labels, languages: thinkaloud.languages, stems: thinkaloud.stems });
  const decode = {
    language: decodeLanguageFor(thinkaloud.languages),
    silenceThresholdDbfs: thinkaloud.silence_threshold_dbfs,
    adaptiveFloorMs: thinkaloud.cut_floor_ms,
    endsWithCommitment: createEndsWithCommitment(parseOptionsOf(options.project.config)),
    speech: voice.probe,
    initialPrompt,
    vadModel: voice.identity,
  };
  if (options.engineScript) {
    const scripted = new ScriptedEngine(await loadEngineScript(options.engineScript));
    const info = await scripted.load(options.engineScript);
    return { ...sessionEngineOver(scripted, scripted.modelIdentity, decode), whisperCpp: info.whisper_cpp, voiceActivity: voice.note };
  }
  const model = await resolveSessionModel(options.project, options.modelFile, options.modelsDir);
  // a source without a script has a launcher (SessionEngineSource)
  const engine = startEngineProcess({
    launch: options.launchEngine!,
    modelName: model.name,
    ...(options.onEngineEvent ? { onEvent: options.onEngineEvent } : {}),
  });
  let sha256: string;
  let whisperCpp: string;
  try {
    const info = await engine.load(model.path);
    sha256 = info.model?.sha256 ?? '';
    whisperCpp = info.whisper_cpp;
  } catch (e) {
    await engine.close().catch(() => undefined);
    const refusal = asRefusal(e);
    throw new SessionEngineError(say('refusal.engine.cannotLoad', { path: model.path, message: refusal.say ?? refusal.message }));
  }
  return { ...sessionEngineOver(engine, { name: model.name, sha256 }, decode), whisperCpp, voiceActivity: voice.note };
}
