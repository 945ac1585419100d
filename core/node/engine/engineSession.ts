import type { DecodeSettings, EngineInfo, TranscriptionEngine } from '../../common/engine/engineTypes';
import { type SchedulerEvent, TranscriptionScheduler } from '../../common/engine/transcriptionScheduler';
import { UtteranceCutter, type UtteranceCutterOptions } from '../../common/engine/utteranceCutter';
import { modelNameFromFile } from '../models/installedModels';
import { startEngineWorker } from './engineHost';
import { sha256OfPcm } from './whisperEngine';

export interface OpenEngineSessionOptions {
  modelPath: string;
  /** the model's name in the session log (default: from the file name, "ggml-tiny.en.bin" → "tiny.en") */
  modelName?: string;
  /** the project's thinkaloud.silence_threshold_dbfs: the cutter uses the hesitation signals' threshold */
  silenceThresholdDbfs: number;
  cutter?: Omit<UtteranceCutterOptions, 'silenceThresholdDbfs'>;
  settings?: Partial<DecodeSettings>;
  /** default: whisper.cpp in a worker thread (startEngineWorker) */
  engine?: TranscriptionEngine;
  onEvent?: (event: SchedulerEvent) => void;
}

/** What a session needs from the engine: the identity-checked transcriber and a live cutter per recording. */
export interface EngineSession {
  transcriber: TranscriptionScheduler;
  createCutter(): UtteranceCutter;
  info: EngineInfo;
}

/** Starts the engine, loads the model once for the session, and wires the scheduler to it. */
export async function openEngineSession(options: OpenEngineSessionOptions): Promise<EngineSession> {
  const engine = options.engine ?? startEngineWorker();
  let info: EngineInfo;
  try {
    info = await engine.load(options.modelPath);
  } catch (e) {
    await engine.close().catch(() => undefined);
    throw e;
  }
  const model = info.model!;
  const transcriber = new TranscriptionScheduler({
    engine,
    model: { name: options.modelName ?? modelNameFromFile(model.path), sha256: model.sha256 },
    hashAudio: sha256OfPcm,
    settings: options.settings,
    onEvent: options.onEvent,
  });
  const cutterOptions: UtteranceCutterOptions = { ...options.cutter, silenceThresholdDbfs: options.silenceThresholdDbfs };
  new UtteranceCutter(cutterOptions); // checks the options now, not at the first recording
  return { transcriber, createCutter: () => new UtteranceCutter(cutterOptions), info };
}
