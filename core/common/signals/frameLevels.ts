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
  const rms = Math.sqrt(sum / n);
  return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
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
