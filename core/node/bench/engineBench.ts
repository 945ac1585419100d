import type { TranscriptionEngine } from '../../common/engine/engineTypes';
import { audioCtxForSamples, FULL_AUDIO_CTX } from '../../common/engine/decodeSettings';
import { UtteranceCutter } from '../../common/engine/utteranceCutter';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

export interface EngineBenchOptions {
  engine: TranscriptionEngine;
  modelPath: string;
  /** 16 kHz mono audio: one utterance when ≤ 25 s, else cut into utterances as while recording */
  pcm: Float32Array;
  runs: number;
  silenceThresholdDbfs?: number;
}

export interface EngineBenchReport {
  model: { path: string; sha256: string; type: string; load_ms: number };
  threads: number;
  system_info: string;
  runs: number;
  utterances: Array<{ start_ms: number; duration_ms: number; audio_ctx: number }>;
  /** wall time from transcribe() to its result through the engine host, per utterance per run */
  latencies_ms: number[];
  median_latency_ms: number;
  /** encoder pass over a full 30 s window (audio_ctx 1500), median over the runs */
  encode_ms_30s: number;
  encode_runs_ms: number[];
  /** processing time ÷ audio duration at the median latency (0.05 = 20× faster than real time) */
  realtime_factor: number;
  /** resident memory of the engine's own process after the runs (this process's when the engine runs in it) */
  rss_mb: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

function benchUtterances(pcm: Float32Array, threshold: number): Array<{ start: number; pcm: Float32Array }> {
  if (pcm.length <= 25 * AUDIO_SAMPLE_RATE) return [{ start: 0, pcm }];
  const cutter = new UtteranceCutter({ silenceThresholdDbfs: threshold });
  const cut = [...cutter.push(pcm), ...cutter.flush()];
  return cut.length > 0
    ? cut.map((u) => ({ start: u.startSample, pcm: u.pcm }))
    : [{ start: 0, pcm: pcm.subarray(0, 25 * AUDIO_SAMPLE_RATE) }];
}

/** The engine loaded once, then every utterance transcribed `runs` times, then `runs` full-window encodes. */
export async function benchEngine(options: EngineBenchOptions): Promise<EngineBenchReport> {
  const { engine, runs } = options;
  const info = await engine.load(options.modelPath);
  const utterances = benchUtterances(options.pcm, options.silenceThresholdDbfs ?? -45);
  const latencies: number[] = [];
  const perUtterance: number[][] = utterances.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, u] of utterances.entries()) {
      const started = performance.now();
      await engine.transcribe({ pcm: u.pcm });
      const ms = performance.now() - started;
      latencies.push(ms);
      perUtterance[i]!.push(ms);
    }
  }
  const window = new Float32Array(30 * AUDIO_SAMPLE_RATE);
  for (let at = 0; at < window.length; at += options.pcm.length) window.set(options.pcm.subarray(0, window.length - at), at);
  const encodes: number[] = [];
  for (let run = 0; run < runs; run++) encodes.push((await engine.encode(window, FULL_AUDIO_CTX)).encode_ms);

  const audioMs = utterances.reduce((sum, u) => sum + (u.pcm.length / AUDIO_SAMPLE_RATE) * 1000, 0);
  const processingMs = perUtterance.reduce((sum, ms) => sum + median(ms), 0);
  const model = info.model!;
  const after = await engine.info();
  return {
    model: { path: model.path, sha256: model.sha256, type: model.type, load_ms: round1(model.load_ms) },
    threads: info.threads,
    system_info: info.system_info,
    runs,
    utterances: utterances.map((u) => ({
      start_ms: round1((u.start / AUDIO_SAMPLE_RATE) * 1000),
      duration_ms: round1((u.pcm.length / AUDIO_SAMPLE_RATE) * 1000),
      audio_ctx: audioCtxForSamples(u.pcm.length),
    })),
    latencies_ms: latencies.map(round1),
    median_latency_ms: round1(median(latencies)),
    encode_ms_30s: round1(median(encodes)),
    encode_runs_ms: encodes.map(round1),
    realtime_factor: Math.round((processingMs / audioMs) * 1000) / 1000,
    rss_mb: round1((after.process?.rss_bytes ?? process.memoryUsage().rss) / (1024 * 1024)),
  };
}
