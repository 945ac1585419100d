import { FrameLevelMeter, frameLevelsDbfs, rmsDbfs, samplesPerFrame } from './frameLevels';
import type { AudioSignalOptions, AudioSignals } from './signalTypes';

/**
 * Hesitation signals of one item's audio (mono PCM, full scale 1.0), per the issue:
 * - frames: 20 ms from t=0 (`frameLevelsDbfs`); a frame is silent when its level < silence_threshold_dbfs
 *   (a level exactly at the threshold is not silent);
 * - silent_chunks / total_chunks: chunks of chunk_seconds from t=0, silent when the RMS of all their samples is
 *   below the threshold; a trailing partial chunk counts (in both) only when it is at least half a chunk long;
 * - pauses: maximal runs of silent frames of at least min_pause_ms lying between the first and the last
 *   non-silent frame; long_count counts those of at least long_pause_ms;
 * - time_to_first_speech_ms: start of the first non-silent frame.
 * Durations are whole frames converted with the frame's exact length (20 ms at 16 kHz).
 */
export function computeAudioSignals(pcm: Float32Array, sampleRate: number, options: AudioSignalOptions): AudioSignals {
  const grid = signalGrid(sampleRate, options);
  const pauses = new PauseTracker(grid);
  const levels = frameLevelsDbfs(pcm, sampleRate);
  for (let f = 0; f < levels.length; f++) pauses.addFrame(levels[f]!);

  const fullChunks = Math.floor(pcm.length / grid.chunkSize);
  let totalChunks = 0;
  let silentChunks = 0;
  for (let c = 0; c < fullChunks; c++) {
    totalChunks++;
    if (rmsDbfs(pcm, c * grid.chunkSize, (c + 1) * grid.chunkSize) < grid.threshold) silentChunks++;
  }
  const rest = pcm.length - fullChunks * grid.chunkSize;
  if (countsAsChunk(rest, grid.chunkSize)) {
    totalChunks++;
    if (rmsDbfs(pcm, fullChunks * grid.chunkSize, pcm.length) < grid.threshold) silentChunks++;
  }
  return { silent_chunks: silentChunks, total_chunks: totalChunks, ...pauses.summary() };
}

/** The pauses `computeAudioSignals` counts, as spans on the item's audio (ms from t=0), in order. */
export function energyPauseSpans(
  pcm: Float32Array,
  sampleRate: number,
  options: AudioSignalOptions,
): Array<{ t0_ms: number; t1_ms: number }> {
  const grid = signalGrid(sampleRate, options);
  const spans: Array<{ t0_ms: number; t1_ms: number }> = [];
  const pauses = new PauseTracker(grid, (startFrame, frames) =>
    spans.push({ t0_ms: startFrame * grid.frameMs, t1_ms: (startFrame + frames) * grid.frameMs }),
  );
  const levels = frameLevelsDbfs(pcm, sampleRate);
  for (let f = 0; f < levels.length; f++) pauses.addFrame(levels[f]!);
  return spans;
}

/**
 * The same signals computed while recording: push the audio in chunks of any size, ask for `result()` at any
 * time. The result equals `computeAudioSignals` of all the audio pushed so far, exactly.
 */
export class AudioSignalMeter {
  private readonly grid: SignalGrid;
  private readonly frames: FrameLevelMeter;
  private readonly pauses: PauseTracker;
  /** the chunk grid is a level meter with chunk-long blocks */
  private readonly chunks: FrameLevelMeter;
  private fullChunks = 0;
  private silentFullChunks = 0;

  constructor(
    readonly sampleRate: number,
    options: AudioSignalOptions,
  ) {
    this.grid = signalGrid(sampleRate, options);
    this.frames = new FrameLevelMeter(sampleRate);
    this.chunks = new FrameLevelMeter(sampleRate, options.chunk_seconds * 1000, this.grid.chunkSize);
    this.pauses = new PauseTracker(this.grid);
  }

  /** Adds samples; returns the levels (dBFS) of the 20 ms frames they completed, for live meters and cutters. */
  push(chunk: Float32Array): number[] {
    const levels = this.frames.push(chunk);
    for (const level of levels) this.pauses.addFrame(level);
    for (const chunkLevel of this.chunks.push(chunk)) {
      this.fullChunks++;
      if (chunkLevel < this.grid.threshold) this.silentFullChunks++;
    }
    return levels;
  }

  /** Signals of everything pushed so far; does not change the meter, so it can be asked again later. */
  result(): AudioSignals {
    let totalChunks = this.fullChunks;
    let silentChunks = this.silentFullChunks;
    if (countsAsChunk(this.chunks.pendingSamples, this.grid.chunkSize)) {
      totalChunks++;
      if (this.chunks.pendingLevel()! < this.grid.threshold) silentChunks++;
    }
    const pauses = this.pauses.copy();
    const pending = this.frames.pendingLevel();
    if (pending !== null) pauses.addFrame(pending);
    return { silent_chunks: silentChunks, total_chunks: totalChunks, ...pauses.summary() };
  }

  /** Samples pushed so far. */
  get samplesSeen(): number {
    return this.frames.samplesSeen;
  }
}

interface SignalGrid {
  /** exact length of one frame in ms (20 at 16 kHz) */
  frameMs: number;
  chunkSize: number;
  threshold: number;
  minPauseMs: number;
  longPauseMs: number;
}

function signalGrid(sampleRate: number, options: AudioSignalOptions): SignalGrid {
  if (!Number.isFinite(sampleRate) || sampleRate <= 0) throw new RangeError(`sampleRate must be a positive number (got ${sampleRate})`);
  const { chunk_seconds, silence_threshold_dbfs, min_pause_ms, long_pause_ms } = options;
  if (!Number.isFinite(chunk_seconds) || chunk_seconds <= 0)
    throw new RangeError(`chunk_seconds must be a positive number (got ${chunk_seconds})`);
  if (!Number.isFinite(silence_threshold_dbfs))
    throw new RangeError(`silence_threshold_dbfs must be a finite number (got ${silence_threshold_dbfs})`);
  if (!Number.isFinite(min_pause_ms) || min_pause_ms < 0) throw new RangeError(`min_pause_ms must be a number >= 0 (got ${min_pause_ms})`);
  if (!Number.isFinite(long_pause_ms) || long_pause_ms < 0)
    throw new RangeError(`long_pause_ms must be a number >= 0 (got ${long_pause_ms})`);
  const chunkSize = Math.round(chunk_seconds * sampleRate);
  if (chunkSize < 1) throw new RangeError(`chunk_seconds ${chunk_seconds} holds no sample at ${sampleRate} Hz`);
  return {
    frameMs: (samplesPerFrame(sampleRate) * 1000) / sampleRate,
    chunkSize,
    threshold: silence_threshold_dbfs,
    minPauseMs: min_pause_ms,
    longPauseMs: long_pause_ms,
  };
}

function countsAsChunk(samples: number, chunkSize: number): boolean {
  // a trailing partial chunk counts only when it is at least half a chunk long
  return samples > 0 && 2 * samples >= chunkSize;
}

/** Follows frame levels in order and keeps the pause statistics; a silent run is judged once speech resumes. */
class PauseTracker {
  private frameIndex = 0;
  private firstSpeechFrame: number | null = null;
  /** silent frames since the last non-silent frame (only counted once speech has started) */
  private silentRun = 0;
  private count = 0;
  private totalFrames = 0;
  private longestFrames = 0;
  private longCount = 0;

  /** onPause: told of each pause counted (its first silent frame and length in frames) */
  constructor(
    private readonly grid: SignalGrid,
    private readonly onPause?: (startFrame: number, frames: number) => void,
  ) {}

  addFrame(level: number): void {
    const index = this.frameIndex++;
    if (level < this.grid.threshold) {
      if (this.firstSpeechFrame !== null) this.silentRun++;
      return;
    }
    if (this.firstSpeechFrame === null) this.firstSpeechFrame = index;
    // a run closed by speech lies between two non-silent frames; trailing silence never gets here
    if (this.silentRun > 0) {
      const ms = this.silentRun * this.grid.frameMs;
      if (ms >= this.grid.minPauseMs) {
        this.count++;
        this.totalFrames += this.silentRun;
        if (this.silentRun > this.longestFrames) this.longestFrames = this.silentRun;
        if (ms >= this.grid.longPauseMs) this.longCount++;
        this.onPause?.(index - this.silentRun, this.silentRun);
      }
      this.silentRun = 0;
    }
  }

  copy(): PauseTracker {
    return Object.assign(new PauseTracker(this.grid, this.onPause), this);
  }

  summary(): Pick<AudioSignals, 'pauses' | 'time_to_first_speech_ms'> {
    return {
      pauses: {
        count: this.count,
        total_ms: this.totalFrames * this.grid.frameMs,
        longest_ms: this.longestFrames * this.grid.frameMs,
        long_count: this.longCount,
      },
      // null when every frame is silent; pause figures are then all zero
      time_to_first_speech_ms: this.firstSpeechFrame === null ? null : this.firstSpeechFrame * this.grid.frameMs,
    };
  }
}
