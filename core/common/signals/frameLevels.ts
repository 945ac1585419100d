/** Frame grid shared by the hesitation signals and the live utterance cutter: 20 ms from t=0. */
export const FRAME_MS = 20;

/** Level in dBFS of a block of samples (full scale = 1.0); digital silence is -Infinity. */
export function rmsDbfs(samples: Float32Array, start = 0, end = samples.length): number {
  const n = end - start;
  if (n <= 0) return -Infinity;
  let sum = 0;
  for (let i = start; i < end; i++) {
    const s = samples[i]!;
    sum += s * s;
  }
  return levelOfSumDbfs(sum, n);
}

export function samplesPerFrame(sampleRate: number, frameMs = FRAME_MS): number {
  return Math.round((sampleRate * frameMs) / 1000);
}

/**
 * Level of each 20 ms frame from t=0. A trailing partial frame is measured over the samples it
 * has, so that a recording's last words are not lost to the grid.
 */
export function frameLevelsDbfs(pcm: Float32Array, sampleRate: number, frameMs = FRAME_MS): Float64Array {
  const size = samplesPerFrame(sampleRate, frameMs);
  const count = Math.ceil(pcm.length / size);
  const levels = new Float64Array(count);
  for (let f = 0; f < count; f++) {
    levels[f] = rmsDbfs(pcm, f * size, Math.min(pcm.length, (f + 1) * size));
  }
  return levels;
}

/**
 * Incremental form of `frameLevelsDbfs` for audio that arrives in chunks while recording (the live
 * utterance cutter and the session store feed capture chunks, 50 ms in the app). Whatever the chunk sizes, the levels
 * `push` yields, followed by `pendingLevel()` at the end, are exactly (bit for bit) `frameLevelsDbfs`
 * of the concatenated audio, because squares are summed in the same order, one frame at a time.
 */
export class FrameLevelMeter {
  /** samples per frame */
  readonly frameSize: number;
  private frameSum = 0;
  private frameFill = 0;
  private completed = 0;

  /** `frameSamples` sets the block length in samples directly (e.g. the signals' chunk grid) instead of from frameMs. */
  constructor(
    readonly sampleRate: number,
    readonly frameMs = FRAME_MS,
    frameSamples?: number,
  ) {
    if (!Number.isFinite(sampleRate) || sampleRate <= 0) {
      throw new RangeError(`sampleRate must be a positive number (got ${sampleRate})`);
    }
    this.frameSize = frameSamples ?? samplesPerFrame(sampleRate, frameMs);
    if (!(this.frameSize >= 1)) throw new RangeError(`a ${frameMs} ms frame at ${sampleRate} Hz holds no sample`);
  }

  /** Adds samples; returns the levels (dBFS) of the frames this chunk completed, in order. */
  push(chunk: Float32Array): number[] {
    const levels: number[] = [];
    const size = this.frameSize;
    let sum = this.frameSum;
    let fill = this.frameFill;
    let i = 0;
    while (i < chunk.length) {
      const stop = Math.min(chunk.length, i + size - fill);
      fill += stop - i;
      for (; i < stop; i++) {
        const s = chunk[i]!;
        sum += s * s;
      }
      if (fill === size) {
        levels.push(levelOfSumDbfs(sum, size));
        sum = 0;
        fill = 0;
      }
    }
    this.frameSum = sum;
    this.frameFill = fill;
    this.completed += levels.length;
    return levels;
  }

  /** Level of the frame still being filled, measured over the samples it has; null when it has none. */
  pendingLevel(): number | null {
    return this.frameFill > 0 ? levelOfSumDbfs(this.frameSum, this.frameFill) : null;
  }

  /** Samples in the frame still being filled. */
  get pendingSamples(): number {
    return this.frameFill;
  }

  /** Frames completed so far; the next completed frame starts at `framesCompleted * frameSize`. */
  get framesCompleted(): number {
    return this.completed;
  }

  /** Samples pushed so far. */
  get samplesSeen(): number {
    return this.completed * this.frameSize + this.frameFill;
  }
}

/** dBFS of the RMS of `count` samples whose squares add up to `sumOfSquares`; the same arithmetic as `rmsDbfs`. */
export function levelOfSumDbfs(sumOfSquares: number, count: number): number {
  if (count <= 0) return -Infinity;
  const rms = Math.sqrt(sumOfSquares / count);
  return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
}
