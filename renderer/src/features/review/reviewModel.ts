import type { Item } from '../../../../core/common/items/item';
import type { LabelSource } from '../../../../core/common/session/itemState';
import type { ItemSummary } from '../../../../core/common/session/itemSummary';
import type { AppMessageId } from '../../shared/i18n/catalogs';
import { frameLevelsDbfs, samplesPerFrame } from '../../../../core/common/signals/frameLevels';

/** What the review list can be narrowed to. Empty fields do not filter. */
export interface ReviewFilter {
  label: string | null;
  source: LabelSource | null;
  status: 'no-audio' | 'no-transcript' | 'no-label' | 'completed' | 'not-completed' | null;
  /** only items whose longest pause is above this many seconds */
  longestPauseAboveS: number | null;
}

export const NO_FILTER: ReviewFilter = { label: null, source: null, status: null, longestPauseAboveS: null };

export const STATUS_CHOICES: ReadonlyArray<{ value: NonNullable<ReviewFilter['status']>; words: AppMessageId }> = [
  { value: 'no-audio', words: 'review.status.noAudio' },
  { value: 'no-transcript', words: 'review.status.noTranscript' },
  { value: 'no-label', words: 'review.status.noLabel' },
  { value: 'completed', words: 'review.status.completed' },
  { value: 'not-completed', words: 'review.status.notCompleted' },
];

/** Every project item (recorded or not) that passes the filter, in project order. */
export function filterReviewItems(items: readonly Item[], states: ReadonlyMap<string, ItemSummary>, filter: ReviewFilter): Item[] {
  return items.filter((item) => {
    const s = states.get(item.id);
    if (filter.label !== null && s?.final_label !== filter.label) return false;
    if (filter.source !== null && s?.label_source !== filter.source) return false;
    switch (filter.status) {
      case 'no-audio':
        if ((s?.audio_ms ?? 0) > 0) return false;
        break;
      case 'no-transcript':
        if (!s || s.audio_ms === 0 || s.has_words) return false;
        break;
      case 'no-label':
        if (s?.final_label) return false;
        break;
      case 'completed':
        if (!s?.completed_at) return false;
        break;
      case 'not-completed':
        if (s?.completed_at) return false;
        break;
      default:
        break;
    }
    if (filter.longestPauseAboveS !== null && !((s?.longest_pause_ms ?? 0) > filter.longestPauseAboveS * 1000)) return false;
    return true;
  });
}

export interface PauseSpan {
  start_ms: number;
  end_ms: number;
  long: boolean;
}

/**
 * Where the pauses are, by the signals' definition (runs of silent 20 ms frames of at least min_pause_ms between
 * the first and the last non-silent frame), so the markers agree with the pause counts the session shows.
 */
export function pauseSpans(
  pcm: Float32Array,
  sampleRate: number,
  options: { silence_threshold_dbfs: number; min_pause_ms: number; long_pause_ms: number },
): PauseSpan[] {
  const levels = frameLevelsDbfs(pcm, sampleRate);
  const frameMs = (samplesPerFrame(sampleRate) * 1000) / sampleRate;
  const spans: PauseSpan[] = [];
  let spoken = false;
  let runStart = -1;
  for (let f = 0; f < levels.length; f++) {
    if (levels[f]! < options.silence_threshold_dbfs) {
      if (spoken && runStart < 0) runStart = f;
      continue;
    }
    if (runStart >= 0) {
      const ms = (f - runStart) * frameMs;
      if (ms >= options.min_pause_ms) spans.push({ start_ms: runStart * frameMs, end_ms: f * frameMs, long: ms >= options.long_pause_ms });
      runStart = -1;
    }
    spoken = true;
  }
  return spans;
}

/** The index of the segment playing at `ms`, or -1. */
export function playingSegment(segments: ReadonlyArray<{ t0_ms: number; t1_ms: number }>, ms: number): number {
  return segments.findIndex((s) => ms >= s.t0_ms && ms < s.t1_ms);
}

/** A segment key pressed this close after a segment's start goes to the one before it (as media players do). */
const PREVIOUS_SEGMENT_GRACE_MS = 500;

/**
 * Where ↓ / ↑ take the review: the start of the first segment after the playing position, or of the segment before
 * it (the current segment's own start when the position is well into it). Null: there is no such segment.
 */
export function segmentStartAfter(segments: ReadonlyArray<{ t0_ms: number }>, nowMs: number, delta: 1 | -1): number | null {
  if (delta > 0) return segments.find((s) => s.t0_ms > nowMs + 1)?.t0_ms ?? null;
  const earlier = segments.filter((s) => s.t0_ms < nowMs - PREVIOUS_SEGMENT_GRACE_MS);
  return earlier.at(-1)?.t0_ms ?? segments[0]?.t0_ms ?? null;
}

/**
 * The samples of a 16-bit PCM mono WAV (what the session store writes), as floats. The review reads the file itself
 * and hands the samples to the waveform, so the page never needs a blob: URL (the CSP allows media from our origin only).
 */
export function pcm16WavSamples(bytes: ArrayBuffer): { samples: Float32Array; sampleRate: number } {
  // the English message is for a log or console; the page says `say` in the person's language
  const view = new DataView(bytes);
  const tag = (at: number) => String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
  if (bytes.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE')
    throw new WavReadError('not a WAV file', { id: 'review.problem.wav.notWav' }); // i18n-ignore: the console's English
  let at = 12;
  let sampleRate = 0;
  let format = 0;
  let channels = 0;
  let bits = 0;
  while (at + 8 <= bytes.byteLength) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
    } else if (id === 'data') {
      if (format !== 1 || channels !== 1 || bits !== 16)
        throw new WavReadError(
          `WAV is not 16-bit PCM mono (format ${format}, ${channels} channel(s), ${bits} bits)`, // i18n-ignore: the console's English
          { id: 'review.problem.wav.notPcm16Mono', values: { format, channels, bits } },
        );
      // the header may claim more than was written (a recording still open): read what is there
      const end = Math.min(bytes.byteLength, body + size);
      const samples = new Float32Array(Math.floor((end - body) / 2));
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(body + i * 2, true) / 32768;
      return { samples, sampleRate };
    }
    at = body + size + (size % 2);
  }
  throw new WavReadError('WAV has no data chunk', { id: 'review.problem.wav.noData' }); // i18n-ignore: the console's English
}

/** A recording the review cannot read, with what it says to a person (a catalog message of the review area). */
export class WavReadError extends Error {
  constructor(
    message: string,
    readonly say: {
      id: 'review.problem.wav.notWav' | 'review.problem.wav.notPcm16Mono' | 'review.problem.wav.noData';
      values?: Record<string, number>;
    },
  ) {
    super(message);
  }
}
