import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../../common/engine/engineTypes';
import type { Segment } from '../../common/transcript/segment';

/** Overrides where the compiled binding is loaded from (packaged apps put it elsewhere). */
export const WHISPER_ADDON_ENV = 'ALOUD_WHISPER_ADDON';

export interface NativeTranscribeOptions {
  threads?: number;
  audioCtx?: number;
  tokenTimestamps?: boolean;
  suppressNonSpeechTokens?: boolean;
  temperature?: number;
  temperatureInc?: number;
  bestOf?: number;
  initialPrompt?: string;
  language?: string;
  /** ggml thread-pool polling, 0 (sleep between graphs: the default) to 100 (spin) */
  threadPoll?: number;
}

export interface NativeModelInfo {
  type: string;
  multilingual: boolean;
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioLayer: number;
  nTextLayer: number;
  nMels: number;
  ftype: number;
  /** flash attention on */
  flashAttn?: boolean;
}

/**
 * Silero VAD in whisper.cpp: one speech probability per `windowSamples` (512 = 32 ms at 16 kHz). detect() is
 * synchronous and continues the model's state from the previous call unless `reset`.
 */
export interface NativeVadModel {
  readonly windowSamples: number;
  detect(pcm: Float32Array, reset?: boolean): Float32Array;
  reset(): void;
  free(): void;
}

/**
 * A loaded model in core/node/engine/native/aloud_whisper.cc; one job at a time, on one reused decoding state
 * whose sampling is reseeded per job, so the same audio always gives the same text.
 */
export interface NativeWhisperModel {
  readonly loadMs: number;
  readonly busy: boolean;
  transcribe(pcm: Float32Array, options: NativeTranscribeOptions): Promise<{ segments: Segment[]; totalMs: number }>;
  encode(
    pcm: Float32Array,
    options: { threads?: number; audioCtx?: number; threadPoll?: number },
  ): Promise<{ melMs: number; encodeMs: number }>;
  /** true when a job was running and will stop */
  abort(): boolean;
  free(): void;
  info(): NativeModelInfo;
}

export interface WhisperAddon {
  loadModel(path: string, options?: { flashAttn?: boolean }): Promise<NativeWhisperModel>;
  /** whisper.cpp's whisper_print_system_info() of the compiled code */
  systemInfo(): string;
  setLogToStderr(on: boolean): void;
  bindingVersion: string;
  whisperCppVersion: string;
  /** whisper_version() of the compiled sources, e.g. "1.9.1" (absent in an addon built from older sources) */
  whisperVersion?: string;
  /** absent in an addon built from whisper.cpp before 1.7.6 */
  loadVad?(path: string, options?: { threads?: number }): NativeVadModel;
  compileFlags: string;
  /** what this machine lets the engine run of what the build holds (absent in older builds) */
  cpuGuard?(): CpuGuardReport;
  /** JSON: the instruction sets the build was compiled without, and why (scripts/engineIsa.mjs) */
  leftOut?: string;
}

export interface CpuGuardReport {
  amx: { cpu: boolean; os_enabled: boolean; permitted: boolean; runs: boolean; compiled: boolean; used: boolean; reason: string };
}

/** An instruction set the engine does without on this machine: left out of the build, or compiled in and not dispatched. */
export interface LeftOutFeature {
  feature: string;
  reason: string;
  /** 'build': compiled without it (flags); 'run time': compiled in, never dispatched here */
  where: 'build' | 'run time';
  flags?: string[];
  effect?: string;
}

/** What the addon reports it does without here, build and run time together. */
export function leftOutFeatures(addon: WhisperAddon): LeftOutFeature[] {
  let built: Array<Omit<LeftOutFeature, 'where'>> = [];
  try {
    built = JSON.parse(addon.leftOut ?? '[]') as Array<Omit<LeftOutFeature, 'where'>>;
  } catch {
    built = [];
  }
  const out: LeftOutFeature[] = built.map((l) => ({ ...l, where: 'build' }));
  const amx = addon.cpuGuard?.().amx;
  if (amx?.compiled && !amx.runs)
    out.push({
      feature: 'AMX (amx_tile, amx_int8)',
      reason: amx.reason,
      where: 'run time',
      effect: 'ggml is compiled with AMX kernels but never dispatches to them on this machine',
    });
  return out;
}

export function whisperAddonPath(env: NodeJS.ProcessEnv = process.env): string {
  return env[WHISPER_ADDON_ENV] || fileURLToPath(new URL('./native/build/Release/aloud_whisper.node', import.meta.url));
}

let cached: WhisperAddon | null = null;

/** The compiled binding, loaded once per thread; a missing or broken build says how to fix it. */
export function loadWhisperAddon(): WhisperAddon {
  if (cached) return cached;
  const file = whisperAddonPath();
  if (!existsSync(file)) {
    throw new EngineError('binding_missing', `the whisper.cpp binding is not built (${file} is missing): run \`npm run build:engine\``);
  }
  try {
    cached = createRequire(import.meta.url)(file) as WhisperAddon;
  } catch (e) {
    throw new EngineError(
      'binding_missing',
      `the whisper.cpp binding ${file} does not load (${(e as Error).message.split('\n')[0]}): run \`npm run build:engine -- --force\``,
    );
  }
  if (process.env.ALOUD_WHISPER_LOG === '1') cached.setLogToStderr(true);
  return cached;
}
