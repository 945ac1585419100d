import type { HiddenAudio, SampleRange } from '../deidentified/deidentifyTerms';
import type { HiddenAudioSpan } from './deidentifyRecord';

/** The tone that replaces a hidden span when asked for: 1 kHz at −20 dBFS, its phase starting with each span. */
export const TONE_HZ = 1000;
export const TONE_DBFS = -20;
const TONE_AMPLITUDE = Math.round(32767 * 10 ** (TONE_DBFS / 20));

/** The hidden spans widened by the margin on both sides, in samples, clipped to the audio, merged where they touch. */
export function hiddenSampleRanges(
  spans: readonly Pick<HiddenAudioSpan, 't0_ms' | 't1_ms'>[],
  marginMs: number,
  sampleRate: number,
  sampleCount: number,
): SampleRange[] {
  const ranges = spans
    .map((s) => ({
      start: Math.max(0, Math.floor(((s.t0_ms - marginMs) * sampleRate) / 1000)),
      end: Math.min(sampleCount, Math.ceil(((s.t1_ms + marginMs) * sampleRate) / 1000)),
    }))
    .filter((r) => r.start < r.end)
    .sort((a, b) => a.start - b.start);
  const merged: SampleRange[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

/** The sample a hidden range holds at `i` (its offset from the range's start is `k`). */
export function hiddenSample(mode: HiddenAudio, k: number, sampleRate: number): number {
  return mode === 'silence' ? 0 : Math.round(TONE_AMPLITUDE * Math.sin((2 * Math.PI * TONE_HZ * k) / sampleRate));
}

/** Replaces every hidden range of 16-bit samples in place; every other sample is left as it was. */
export function maskSamples(samples: Int16Array, ranges: readonly SampleRange[], mode: HiddenAudio, sampleRate: number): void {
  for (const r of ranges) for (let i = r.start; i < r.end; i++) samples[i] = hiddenSample(mode, i - r.start, sampleRate);
}

/** The first sample of a range that is not what hiding writes, or null when the whole range is silence/tone. */
export function firstUnmaskedSample(samples: Int16Array, range: SampleRange, mode: HiddenAudio, sampleRate: number): number | null {
  for (let i = range.start; i < Math.min(range.end, samples.length); i++)
    if (samples[i] !== hiddenSample(mode, i - range.start, sampleRate)) return i;
  return null;
}
