import type { Segment } from '../transcript/segment';
import { Refusal, type RefusalOf } from '../refusal/refusal';

/** How whisper.cpp decodes. Defaults: DEFAULT_DECODE_SETTINGS (decodeSettings.ts). */
export interface DecodeSettings {
  /** language code ("en"), or "auto" to detect */
  language: string;
  /** verbatim prompt so that fillers survive; "" for none */
  initialPrompt: string;
  /** per-token times in Segment.tokens */
  tokenTimestamps: boolean;
  /** whisper.cpp's non-speech token suppression; off so that "(laughs)", "hmm" and the like are kept */
  suppressNonSpeechTokens: boolean;
  /** first decoding temperature (0 = greedy) */
  temperature: number;
  /** fallback step: temperatures temperature, +inc, … up to 1.0; 0 disables fallback */
  temperatureInc: number;
  /** candidates sampled per fallback temperature */
  bestOf: number;
  /** compute threads; 0 = the engine's default */
  threads: number;
  /** encoder window in 20 ms frames; null = sized to the clip (audioCtxForSamples) */
  audioCtx: number | null;
}

/** What ties a transcription to the utterance it was asked for. */
export interface RequestIdentity {
  request_id: string;
  item_id: string;
  utterance: number;
  /** sha256 of the Float32 PCM bytes (little-endian), hex */
  audio_sha256: string;
  /** sha256 of the model file, hex */
  model_sha256: string;
}

export interface TranscribeInput {
  /** 16 kHz mono samples; the engine never modifies or keeps the caller's array */
  pcm: Float32Array;
  settings?: Partial<DecodeSettings>;
  /** request_id, item_id and utterance are echoed; the hashes in the result are computed by the engine */
  identity?: Pick<RequestIdentity, 'request_id' | 'item_id' | 'utterance'>;
}

export interface EngineTranscription {
  /** times relative to the start of the PCM given, clamped to its duration; text exactly as whisper.cpp returned it */
  segments: Segment[];
  /** echo of the request's identity, with audio_sha256 of the PCM the engine ran and model_sha256 of the model it holds */
  identity: RequestIdentity;
  audio_ms: number;
  audio_ctx: number;
  /** wall time of the whisper.cpp call */
  elapsed_ms: number;
  /** compute threads the job ran with */
  threads?: number;
}

export interface EncodeTiming {
  mel_ms: number;
  encode_ms: number;
  audio_ctx: number;
}

export interface LoadedModelInfo {
  path: string;
  sha256: string;
  /** whisper.cpp's model type: tiny, base, small, … */
  type: string;
  multilingual: boolean;
  load_ms: number;
  /** loaded with flash attention */
  flash_attn: boolean;
}

export interface EngineInfo {
  /** our binding's name and version */
  binding: string;
  whisper_cpp: string;
  /** whisper_version() of the compiled whisper.cpp ("1.9.1"); null for the 2024 build, which has none */
  whisper_version: string | null;
  /** flash attention: the loaded model's, else what a load will ask for */
  flash_attn: boolean;
  /** ggml thread-pool polling level (0 = sleep between graphs) */
  thread_poll: number;
  /** 'free_cores': threads chosen per job from the cores other processes leave free; 'fixed': `threads` always */
  threads_mode: 'free_cores' | 'fixed';
  /** threads of the latest job */
  last_threads: number;
  /** whisper.cpp's system info line, as it prints it ("AVX = 1 | AVX2 = 1 | …") */
  system_info: string;
  /** the same features parsed: { AVX2: true, FMA: true, … } */
  simd: Record<string, boolean>;
  compile_flags: string;
  threads: number;
  model: LoadedModelInfo | null;
  /** the process the engine runs in, when it has one of its own (aloud-engine) */
  process?: EngineProcessInfo;
}

export interface EngineProcessInfo {
  pid: number;
  /** its process title: "aloud-engine" */
  title: string;
  /** resident memory */
  rss_bytes: number;
}

export type EngineErrorCode =
  | 'binding_missing'
  | 'model_invalid'
  | 'model_load_failed'
  | 'model_already_loaded'
  | 'no_model'
  | 'bad_audio'
  | 'bad_settings'
  | 'busy'
  | 'aborted'
  | 'transcribe_failed'
  | 'engine_closed'
  | 'engine_crashed'
  | 'protocol';

export class EngineError extends Error implements RefusalOf {
  override name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }

  toRefusal(): Refusal {
    return new Refusal('engine', this.message);
  }
}

/** The whisper.cpp engine: in its own process or a worker (EngineClient), or in the calling thread (WhisperEngine in core/node). */
export interface TranscriptionEngine {
  /** Loads the model once; a second load of another model is refused (one model per engine/session). */
  load(modelPath: string): Promise<EngineInfo>;
  transcribe(input: TranscribeInput): Promise<EngineTranscription>;
  /** Encoder pass only over `pcm` (benchmarks). */
  encode(pcm: Float32Array, audioCtx?: number | null): Promise<EncodeTiming>;
  /** Stops the running job: it rejects with EngineError('aborted'). No effect when idle. */
  abort(): void;
  info(): Promise<EngineInfo>;
  /** Aborts any running job, frees the model; later calls fail with 'engine_closed'. */
  close(): Promise<void>;
}

/** "AVX = 1 | AVX2 = 1 | NEON = 0 | …" → { AVX: true, AVX2: true, NEON: false, … } */
export function parseSystemInfo(systemInfo: string): Record<string, boolean> {
  const features: Record<string, boolean> = {};
  for (const part of systemInfo.split('|')) {
    const match = /^\s*([A-Za-z0-9_]+)\s*=\s*(\d+)\s*$/.exec(part);
    if (match) features[match[1]!] = match[2] !== '0';
  }
  return features;
}
