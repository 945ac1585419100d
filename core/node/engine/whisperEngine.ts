import { availableParallelism } from 'node:os';
import path from 'node:path';
import { audioCtxForSamples, FULL_AUDIO_CTX, resolveDecodeSettings } from '../../common/engine/decodeSettings';
import {
  type EncodeTiming,
  type EngineInfo,
  type EngineTranscription,
  EngineError,
  type LoadedModelInfo,
  parseSystemInfo,
  type TranscribeInput,
  type TranscriptionEngine,
} from '../../common/engine/engineTypes';
import { ModelFileError } from '../../common/models/modelFileError';
import type { Segment } from '../../common/transcript/segment';
import { checkGgmlModelFile } from '../models/ggmlHeader';
import { sha256Hex } from '../fs/sha256';
import { digestFile } from '../models/modelFiles';
import { FreeCoreWatch, processCpuMs } from './freeCores';
import { type NativeWhisperModel, loadWhisperAddon } from './whisperAddon';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

/** whisper.cpp stops when less than 1 s of audio is left, so shorter clips are padded with silence to this. */
export const MIN_ENGINE_SAMPLES = Math.round(1.1 * AUDIO_SAMPLE_RATE);

/** whisper.cpp 1.9 runs attention as one fused flash-attention kernel; the engine always asks for it. */
export const ENGINE_FLASH_ATTN = true;

export interface WhisperEngineOptions {
  /**
   * compute threads. Default: chosen per job from the cores other processes leave free (FreeCoreWatch), at
   * most min(4, available cores); a number fixes it.
   */
  threads?: number;
  /** ggml thread-pool polling, 0 (sleep between graphs, never spin against other processes: default) to 100 */
  threadPoll?: number;
  /** flash attention (default ENGINE_FLASH_ATTN) */
  flashAttn?: boolean;
  /** run one short silent clip after loading so that the first real utterance is not slowed (default true) */
  warmUp?: boolean;
  /** the engine runs in a process of its own: its host's CPU time counts as the engine's own when choosing threads */
  hostIsOwn?: boolean;
}

/** sha256 (hex) of the PCM's Float32 bytes as they lie in memory (little-endian on every supported platform). */
export function sha256OfPcm(pcm: Float32Array): string {
  return sha256Hex(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
}

export function defaultEngineThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

function checkPcm(pcm: unknown): Float32Array {
  if (!(pcm instanceof Float32Array)) throw new EngineError('bad_audio', 'audio must be a Float32Array of 16 kHz mono samples');
  if (pcm.length === 0) throw new EngineError('bad_audio', 'audio is empty (0 samples)');
  for (let i = 0; i < pcm.length; i++) {
    if (!Number.isFinite(pcm[i])) throw new EngineError('bad_audio', `audio sample ${i} is ${pcm[i]} (not a finite number)`);
  }
  return pcm;
}

function clampSegment(segment: Segment, durationMs: number): Segment {
  const clamp = (ms: number): number => Math.min(durationMs, Math.max(0, ms));
  const out: Segment = { t0_ms: clamp(segment.t0_ms), t1_ms: Math.max(clamp(segment.t0_ms), clamp(segment.t1_ms)), text: segment.text };
  if (segment.tokens) {
    out.tokens = segment.tokens.map((t) => ({
      t0_ms: clamp(t.t0_ms),
      t1_ms: Math.max(clamp(t.t0_ms), clamp(t.t1_ms)),
      text: t.text,
      ...(t.p === undefined ? {} : { p: t.p }),
    }));
  }
  return out;
}

function nativeFailure(e: unknown, fallback: 'transcribe_failed' | 'model_load_failed'): EngineError {
  if (e instanceof EngineError) return e;
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'aborted') return new EngineError('aborted', message);
  if (code === 'busy') return new EngineError('busy', message);
  return new EngineError(fallback, message);
}

/**
 * whisper.cpp in the calling thread, through Aloud's N-API binding. The engine worker runs one of these;
 * benchmarks and the CLI may use it directly. One model per engine, one job at a time.
 */
export class WhisperEngine implements TranscriptionEngine {
  private model: NativeWhisperModel | null = null;
  private loaded: LoadedModelInfo | null = null;
  private loading: { path: string; done: Promise<EngineInfo> } | null = null;
  private running: Promise<unknown> | null = null;
  private closed = false;
  private readonly threads: number;
  private readonly freeCores: FreeCoreWatch | null;
  private readonly threadPoll: number;
  private readonly warmUp: boolean;
  private readonly flashAttn: boolean;
  private lastThreads: number;

  constructor(options: WhisperEngineOptions = {}) {
    this.threads = options.threads ?? defaultEngineThreads();
    const host = process.ppid;
    this.freeCores =
      options.threads === undefined ? new FreeCoreWatch(this.threads, 500, options.hostIsOwn ? () => processCpuMs(host) : undefined) : null;
    this.threadPoll = options.threadPoll ?? 0;
    this.warmUp = options.warmUp ?? true;
    this.flashAttn = options.flashAttn ?? ENGINE_FLASH_ATTN;
    this.lastThreads = this.threads;
  }

  /** Threads for the next job: fixed, or the cores other processes leave free right now. */
  private jobThreads(requested: number): number {
    this.lastThreads = requested || (this.freeCores ? this.freeCores.threads() : this.threads);
    return this.lastThreads;
  }

  load(modelPath: string): Promise<EngineInfo> {
    if (this.closed) return Promise.reject(new EngineError('engine_closed', 'the engine was closed'));
    const absolute = path.resolve(modelPath);
    if (this.loading) {
      if (this.loading.path === absolute) return this.loading.done;
      return Promise.reject(
        new EngineError(
          'model_already_loaded',
          `this engine already holds ${this.loading.path}; one model per session (close the engine to change it)`,
        ),
      );
    }
    const done = this.loadModel(absolute);
    this.loading = { path: absolute, done };
    done.catch(() => {
      if (this.loading?.done === done) this.loading = null;
    });
    return done;
  }

  private async loadModel(file: string): Promise<EngineInfo> {
    const addon = loadWhisperAddon();
    try {
      await checkGgmlModelFile(file);
    } catch (e) {
      if (e instanceof ModelFileError) throw new EngineError('model_invalid', e.message);
      throw e;
    }
    const digest = digestFile(file);
    let model: NativeWhisperModel;
    try {
      model = await addon.loadModel(file, { flashAttn: this.flashAttn });
    } catch (e) {
      digest.catch(() => undefined);
      throw nativeFailure(e, 'model_load_failed');
    }
    try {
      const { sha256 } = await digest;
      if (this.warmUp)
        await model.transcribe(new Float32Array(MIN_ENGINE_SAMPLES), {
          threads: this.jobThreads(0),
          threadPoll: this.threadPoll,
          audioCtx: audioCtxForSamples(MIN_ENGINE_SAMPLES),
          temperatureInc: 0,
        });
      if (this.closed) throw new EngineError('engine_closed', 'the engine was closed while the model loaded');
      const native = model.info();
      this.model = model;
      this.loaded = {
        path: file,
        sha256,
        type: native.type,
        multilingual: native.multilingual,
        load_ms: model.loadMs,
        flash_attn: native.flashAttn ?? false,
      };
      return this.describe();
    } catch (e) {
      model.free();
      throw e instanceof EngineError ? e : new EngineError('model_load_failed', `${file}: ${(e as Error).message}`);
    }
  }

  async transcribe(input: TranscribeInput): Promise<EngineTranscription> {
    const { model, loaded } = this.requireModel();
    const pcm = checkPcm(input?.pcm);
    const settings = resolveDecodeSettings(input.settings);
    const audioSha256 = sha256OfPcm(pcm);
    let clip = pcm;
    if (pcm.length < MIN_ENGINE_SAMPLES) {
      clip = new Float32Array(MIN_ENGINE_SAMPLES);
      clip.set(pcm);
    }
    const audioCtx = settings.audioCtx ?? audioCtxForSamples(clip.length);
    const threads = this.jobThreads(settings.threads);
    const job = model.transcribe(clip, {
      threads,
      threadPoll: this.threadPoll,
      audioCtx,
      tokenTimestamps: settings.tokenTimestamps,
      suppressNonSpeechTokens: settings.suppressNonSpeechTokens,
      temperature: settings.temperature,
      temperatureInc: settings.temperatureInc,
      bestOf: settings.bestOf,
      initialPrompt: settings.initialPrompt,
      language: settings.language,
    });
    this.running = job.catch(() => undefined);
    let result;
    try {
      result = await job;
    } catch (e) {
      throw nativeFailure(e, 'transcribe_failed');
    } finally {
      this.running = null;
    }
    const audioMs = (pcm.length / AUDIO_SAMPLE_RATE) * 1000;
    return {
      segments: result.segments.map((s) => clampSegment(s, audioMs)),
      identity: {
        request_id: input.identity?.request_id ?? '',
        item_id: input.identity?.item_id ?? '',
        utterance: input.identity?.utterance ?? -1,
        audio_sha256: audioSha256,
        model_sha256: loaded.sha256,
      },
      audio_ms: audioMs,
      audio_ctx: audioCtx,
      elapsed_ms: result.totalMs,
      threads,
    };
  }

  async encode(pcm: Float32Array, audioCtx: number | null = null): Promise<EncodeTiming> {
    const { model } = this.requireModel();
    checkPcm(pcm);
    const ctx = audioCtx ?? FULL_AUDIO_CTX;
    const job = model.encode(pcm, { threads: this.jobThreads(0), threadPoll: this.threadPoll, audioCtx: ctx });
    this.running = job.catch(() => undefined);
    try {
      const timing = await job;
      return { mel_ms: timing.melMs, encode_ms: timing.encodeMs, audio_ctx: ctx };
    } catch (e) {
      throw nativeFailure(e, 'transcribe_failed');
    } finally {
      this.running = null;
    }
  }

  abort(): void {
    this.model?.abort();
  }

  async info(): Promise<EngineInfo> {
    return this.describe();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.freeCores?.stop();
    this.abort();
    await this.running;
    await this.loading?.done.catch(() => undefined);
    this.model?.free();
    this.model = null;
  }

  private describe(): EngineInfo {
    const addon = loadWhisperAddon();
    const systemInfo = addon.systemInfo();
    return {
      binding: addon.bindingVersion,
      whisper_cpp: addon.whisperCppVersion,
      whisper_version: addon.whisperVersion ?? null,
      flash_attn: this.loaded ? this.loaded.flash_attn : this.flashAttn,
      thread_poll: this.threadPoll,
      threads_mode: this.freeCores ? 'free_cores' : 'fixed',
      last_threads: this.lastThreads,
      system_info: systemInfo,
      simd: parseSystemInfo(systemInfo),
      compile_flags: addon.compileFlags,
      threads: this.threads,
      model: this.loaded,
    };
  }

  private requireModel(): { model: NativeWhisperModel; loaded: LoadedModelInfo } {
    if (this.closed) throw new EngineError('engine_closed', 'the engine was closed');
    if (!this.model || !this.loaded) throw new EngineError('no_model', 'no model is loaded: call load(modelPath) first');
    return { model: this.model, loaded: this.loaded };
  }
}
