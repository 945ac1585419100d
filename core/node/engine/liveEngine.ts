import path from 'node:path';
import { type LiveRecordingContext, LiveUtterances } from '../../common/engine/liveUtterances';
import type { SpeechProbe } from '../../common/engine/speechProbe';
import type { TranscriptionScheduler } from '../../common/engine/transcriptionScheduler';
import { UtteranceCutter } from '../../common/engine/utteranceCutter';
import { resolveModelsDir } from '../models/modelsDir';
import { SileroVad, VAD_MODEL_FILE } from './sileroVad';
import { existsSync } from 'node:fs';

/** Overrides where the Silero VAD model is looked for (default: the models folder). */
export const VAD_MODEL_ENV = 'ALOUD_VAD_MODEL';

export interface VoiceActivity {
  /** the VAD, or null: the cutter then uses the energy rule */
  probe: SileroVad | null;
  /** one line saying which cutter runs and why, for doctor, bench and the session's UI */
  note: string;
}

/** The Silero VAD model of the models folder (or $ALOUD_VAD_MODEL), or the reason the energy cutter is used instead. */
export function openVoiceActivity(modelsDir?: string, env: NodeJS.ProcessEnv = process.env): VoiceActivity {
  const file = env[VAD_MODEL_ENV] || path.join(resolveModelsDir(modelsDir, env), VAD_MODEL_FILE);
  if (!existsSync(file)) {
    return { probe: null, note: `energy cutter (frame level against the project's silence threshold): no voice-activity model at ${file}; \`aloud models download tiny.en\` fetches it` };
  }
  try {
    return { probe: SileroVad.load(file), note: `Silero VAD cutter (${file})` };
  } catch (e) {
    return { probe: null, note: `energy cutter: the voice-activity model ${file} does not load (${(e as Error).message})` };
  }
}

/**
 * The session's cutter per recording: Silero VAD when there is a probe (its stream reset for each recording),
 * else the energy rule; with a recording context, wrapped in LiveUtterances for partials and speculation.
 */
export function liveCutterFactory(
  scheduler: TranscriptionScheduler,
  options: { silenceThresholdDbfs: number; sampleRate: number; speech?: SpeechProbe | null },
): (context?: LiveRecordingContext) => UtteranceCutter | LiveUtterances {
  return (context) => {
    options.speech?.reset();
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: options.silenceThresholdDbfs, sampleRate: options.sampleRate, speech: options.speech ?? null });
    return context ? new LiveUtterances({ cutter, scheduler, context }) : cutter;
  };
}
