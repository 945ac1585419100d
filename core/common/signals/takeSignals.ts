import type { AudioSignals, PauseStats } from './signalTypes';
import type { VadSignals } from './vadSignals';

/**
 * An item's WAV holds every recording (take) of the item one after the other, so the silence at the end of one take
 * and at the start of the next would read as one pause of speech that never happened. The signals are computed within
 * each take and summed: pauses, chunks and speech per take, the longest over all, the first speech on the item's
 * audio timeline (the take's start plus its own).
 */

/**
 * Spans found in each take on its own, placed on the item's audio timeline (ms): a pause marker, a tier or a filter
 * then never shows a pause across the boundary of two takes that the signals do not count.
 */
export function spansWithinTakes<T>(
  pcm: Float32Array,
  sampleRate: number,
  takeStartsMs: readonly number[],
  spansOf: (take: Float32Array) => T[],
  shift: (span: T, offsetMs: number) => T,
): T[] {
  const starts = takeStartsMs.map((ms) => Math.round((ms * sampleRate) / 1000));
  return takeBounds(pcm.length, starts).flatMap(([start, end]) => {
    const offsetMs = (start * 1000) / sampleRate;
    return spansOf(pcm.subarray(start, end)).map((span) => shift(span, offsetMs));
  });
}

/** [start, end) of each take in samples, from where the recordings began (sorted, inside the audio, the first at 0). */
export function takeBounds(totalSamples: number, takeStarts: readonly number[]): Array<[number, number]> {
  const starts = [...new Set([0, ...takeStarts.filter((s) => s > 0 && s < totalSamples)])].sort((a, b) => a - b);
  return starts.map((start, i) => [start, starts[i + 1] ?? totalSamples] as [number, number]).filter(([a, b]) => b > a);
}

/** The signals of each take at its start (ms on the item's audio), as one item's. */
export function combineTakeAudioSignals(parts: ReadonlyArray<{ offsetMs: number; signals: AudioSignals }>): AudioSignals {
  const first = parts.find((p) => p.signals.time_to_first_speech_ms !== null);
  return {
    silent_chunks: sum(parts.map((p) => p.signals.silent_chunks)),
    total_chunks: sum(parts.map((p) => p.signals.total_chunks)),
    pauses: combinePauses(parts.map((p) => p.signals.pauses)),
    time_to_first_speech_ms: first ? first.offsetMs + first.signals.time_to_first_speech_ms! : null,
  };
}

/** The VAD signals of each take at its start, as one item's (every take on the same VAD window). */
export function combineTakeVadSignals(parts: ReadonlyArray<{ offsetMs: number; signals: VadSignals }>): VadSignals | null {
  if (parts.length === 0) return null;
  const first = parts.find((p) => p.signals.vad_time_to_first_speech_ms !== null);
  return {
    vad_speech_ms: sum(parts.map((p) => p.signals.vad_speech_ms)),
    vad_pauses: combinePauses(parts.map((p) => p.signals.vad_pauses)),
    vad_time_to_first_speech_ms: first ? first.offsetMs + first.signals.vad_time_to_first_speech_ms! : null,
    vad_window_ms: parts[0]!.signals.vad_window_ms,
  };
}

function combinePauses(all: readonly PauseStats[]): PauseStats {
  return {
    count: sum(all.map((p) => p.count)),
    total_ms: sum(all.map((p) => p.total_ms)),
    longest_ms: Math.max(0, ...all.map((p) => p.longest_ms)),
    long_count: sum(all.map((p) => p.long_count)),
  };
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
