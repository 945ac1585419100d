import { describe, expect, it } from 'vitest';
import { AudioSignalMeter, computeAudioSignals } from '../../../../core/common/signals/audioSignals';
import type { AudioSignalOptions, AudioSignals } from '../../../../core/common/signals/signalTypes';
import { audio, burstyAudio, prng } from './syntheticAudio';

const defaults: AudioSignalOptions = { chunk_seconds: 1, silence_threshold_dbfs: -45, min_pause_ms: 250, long_pause_ms: 1000 };
const signals = (pcm: Float32Array, options: Partial<AudioSignalOptions> = {}, sampleRate = 16000): AudioSignals =>
  computeAudioSignals(pcm, sampleRate, { ...defaults, ...options });

describe('computeAudioSignals: pauses', () => {
  it('counts silent runs between speech, with total, longest and long ones', () => {
    // tone 300 | 500 silent | tone 300 | 1200 silent | tone 200: every edge is on the 20 ms grid
    const pcm = audio([{ tone_ms: 300 }, { silence_ms: 500 }, { tone_ms: 300 }, { silence_ms: 1200 }, { tone_ms: 200 }]);
    expect(signals(pcm).pauses).toEqual({ count: 2, total_ms: 1700, longest_ms: 1200, long_count: 1 });
  });

  it('does not count silence before the first or after the last speech as a pause', () => {
    const pcm = audio([{ silence_ms: 460 }, { tone_ms: 200 }, { silence_ms: 400 }, { tone_ms: 200 }, { silence_ms: 3000 }]);
    const s = signals(pcm);
    expect(s.pauses).toEqual({ count: 1, total_ms: 400, longest_ms: 400, long_count: 0 });
    expect(s.time_to_first_speech_ms).toBe(460);
  });

  it('min_pause_ms: a run counts from exactly min_pause_ms, measured in whole 20 ms frames', () => {
    const pcm = audio([{ tone_ms: 200 }, { silence_ms: 240 }, { tone_ms: 200 }, { silence_ms: 260 }, { tone_ms: 200 }]);
    expect(signals(pcm, { min_pause_ms: 250 }).pauses).toEqual({ count: 1, total_ms: 260, longest_ms: 260, long_count: 0 });
    expect(signals(pcm, { min_pause_ms: 240 }).pauses).toEqual({ count: 2, total_ms: 500, longest_ms: 260, long_count: 0 });
    expect(signals(pcm, { min_pause_ms: 260 }).pauses.count).toBe(1);
    expect(signals(pcm, { min_pause_ms: 261 }).pauses.count).toBe(0);
  });

  it('a 250 ms gap holds only 12 whole silent frames (the frame it shares with speech is not silent), so it is no pause at 250', () => {
    // aligned: gap 200..450 ms → frames [200,440) silent, frame [440,460) is half tone (3 dB quieter, still loud)
    const aligned = audio([{ tone_ms: 200 }, { silence_ms: 250 }, { tone_ms: 200 }]);
    // unaligned: gap 210..460 ms → frame [200,220) is half tone, frames [220,460) silent: again 12 frames
    const unaligned = audio([{ tone_ms: 210 }, { silence_ms: 250 }, { tone_ms: 190 }]);
    for (const pcm of [aligned, unaligned]) {
      expect(signals(pcm).pauses.count).toBe(0);
      expect(signals(pcm, { min_pause_ms: 240 }).pauses).toEqual({ count: 1, total_ms: 240, longest_ms: 240, long_count: 0 });
    }
  });

  it('long_pause_ms: a pause of exactly long_pause_ms is long, one frame shorter is not', () => {
    const pcm = audio([{ tone_ms: 100 }, { silence_ms: 1000 }, { tone_ms: 100 }, { silence_ms: 980 }, { tone_ms: 100 }]);
    expect(signals(pcm).pauses).toEqual({ count: 2, total_ms: 1980, longest_ms: 1000, long_count: 1 });
  });

  it('time_to_first_speech_ms is the start of the first non-silent frame', () => {
    // speech starting 10 ms into frame [480,500) makes that frame non-silent: it starts at 480
    expect(signals(audio([{ silence_ms: 490 }, { tone_ms: 100 }])).time_to_first_speech_ms).toBe(480);
    expect(signals(audio([{ tone_ms: 100 }])).time_to_first_speech_ms).toBe(0);
  });

  it('all silent: time_to_first_speech_ms is null and the pause figures are zero', () => {
    const s = signals(audio([{ silence_ms: 3000 }]));
    expect(s).toEqual({
      silent_chunks: 3,
      total_chunks: 3,
      pauses: { count: 0, total_ms: 0, longest_ms: 0, long_count: 0 },
      time_to_first_speech_ms: null,
    });
  });

  it('no audio at all gives zero chunks and no speech', () => {
    expect(signals(new Float32Array(0))).toEqual({
      silent_chunks: 0,
      total_chunks: 0,
      pauses: { count: 0, total_ms: 0, longest_ms: 0, long_count: 0 },
      time_to_first_speech_ms: null,
    });
  });
});

describe('computeAudioSignals: silence threshold', () => {
  it('a frame is silent only when its level is strictly below the threshold', () => {
    // DC 0.5: every frame's RMS is exactly 0.5, level exactly 20·log10(0.5) ≈ -6.02 dBFS
    const pcm = audio([{ dc_ms: 1000, value: 0.5 }]);
    const atLevel = 20 * Math.log10(0.5);
    expect(signals(pcm, { silence_threshold_dbfs: atLevel })).toMatchObject({ silent_chunks: 0, time_to_first_speech_ms: 0 });
    expect(signals(pcm, { silence_threshold_dbfs: atLevel + 1e-9 })).toMatchObject({ silent_chunks: 1, time_to_first_speech_ms: null });
  });

  it('quiet speech either side of -45 dBFS: 2^-8 (-48.2 dB) is silent, 2^-7 (-42.1 dB) is not', () => {
    const quiet = audio([{ dc_ms: 500, value: 2 ** -8 }, { tone_ms: 100 }]);
    expect(signals(quiet).time_to_first_speech_ms).toBe(500);
    const audible = audio([{ dc_ms: 500, value: 2 ** -7 }, { tone_ms: 100 }]);
    expect(signals(audible).time_to_first_speech_ms).toBe(0);
  });
});

describe('computeAudioSignals: silent chunks', () => {
  it('a chunk is silent by the RMS of all its samples, even when some of its frames are not', () => {
    // 100 ms of a 0.02 sine in a 1 s chunk: frames at 0.02/√2 → -37 dB (speech), chunk RMS 0.02/√2·√0.1 → -47 dB (silent)
    const faint = audio([{ tone_ms: 100, amp: 0.02 }, { silence_ms: 900 }]);
    expect(signals(faint)).toMatchObject({ silent_chunks: 1, total_chunks: 1, time_to_first_speech_ms: 0 });
    // a 0.1 sine for 100 ms: chunk RMS → -33 dB, not silent
    expect(signals(audio([{ tone_ms: 100, amp: 0.1 }, { silence_ms: 900 }])).silent_chunks).toBe(0);
  });

  it('chunks lie on a grid from t=0', () => {
    // silence 0.5..2.5 s on a 1 s grid: only [1,2) lies inside it
    const pcm = audio([{ tone_ms: 500 }, { silence_ms: 2000 }, { tone_ms: 500 }]);
    expect(signals(pcm)).toMatchObject({ silent_chunks: 1, total_chunks: 3 });
    // on a 0.5 s grid: [0.5,1) [1,1.5) [1.5,2) [2,2.5) are silent
    expect(signals(pcm, { chunk_seconds: 0.5 })).toMatchObject({ silent_chunks: 4, total_chunks: 6 });
  });

  it('a trailing partial chunk counts only when it is at least half a chunk long', () => {
    expect(signals(audio([{ tone_ms: 2000 }, { silence_ms: 500 }]))).toMatchObject({ silent_chunks: 1, total_chunks: 3 });
    expect(signals(audio([{ tone_ms: 2000 }, { silence_ms: 499 }]))).toMatchObject({ silent_chunks: 0, total_chunks: 2 });
    // the partial chunk is judged by its own samples: 500 ms of tone is not silent
    expect(signals(audio([{ silence_ms: 2000 }, { tone_ms: 600 }]))).toMatchObject({ silent_chunks: 2, total_chunks: 3 });
    // half of a 0.3 s chunk is 150 ms (2400 samples)
    expect(signals(audio([{ silence_ms: 750 }]), { chunk_seconds: 0.3 })).toMatchObject({ silent_chunks: 3, total_chunks: 3 });
    expect(signals(audio([{ silence_ms: 749 }]), { chunk_seconds: 0.3 })).toMatchObject({ total_chunks: 2 });
  });
});

describe('computeAudioSignals: other sample rates and bad options', () => {
  it('keeps the 20 ms grid at 8 kHz and 44.1 kHz', () => {
    for (const rate of [8000, 44100]) {
      // 2.4 s: [0,1) holds tone, [1,2) is silent, the 0.4 s rest is under half a chunk
      const pcm = audio([{ silence_ms: 300 }, { tone_ms: 400 }, { silence_ms: 1300 }, { tone_ms: 400 }], rate);
      expect(signals(pcm, {}, rate)).toEqual({
        silent_chunks: 1,
        total_chunks: 2,
        pauses: { count: 1, total_ms: 1300, longest_ms: 1300, long_count: 1 },
        time_to_first_speech_ms: 300,
      });
    }
  });

  it('names the option that is wrong', () => {
    const pcm = new Float32Array(16000);
    expect(() => signals(pcm, { chunk_seconds: 0 })).toThrow(/chunk_seconds/);
    expect(() => signals(pcm, { silence_threshold_dbfs: Number.NaN })).toThrow(/silence_threshold_dbfs/);
    expect(() => signals(pcm, { min_pause_ms: -1 })).toThrow(/min_pause_ms/);
    expect(() => signals(pcm, { long_pause_ms: Number.POSITIVE_INFINITY })).toThrow(/long_pause_ms/);
    expect(() => computeAudioSignals(pcm, 0, defaults)).toThrow(/sampleRate/);
  });
});

describe('AudioSignalMeter (while recording)', () => {
  it('equals computeAudioSignals on the audio so far, for random chunkings, grids and thresholds', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = prng(seed);
      const pcm = burstyAudio(random, Math.floor(random() * 60000));
      const options: AudioSignalOptions = {
        chunk_seconds: [1, 0.25, 0.33, 0.7][seed % 4]!,
        silence_threshold_dbfs: -10 - random() * 40,
        min_pause_ms: [20, 100, 250][seed % 3]!,
        long_pause_ms: [60, 200, 1000][seed % 3]!,
      };
      const meter = new AudioSignalMeter(16000, options);
      let from = 0;
      while (from < pcm.length) {
        const to = Math.min(pcm.length, from + Math.floor(random() * 5000));
        meter.push(pcm.subarray(from, to));
        from = to;
        if (random() < 0.3)
          expect(meter.result(), `seed ${seed} at ${to}`).toEqual(computeAudioSignals(pcm.subarray(0, to), 16000, options));
      }
      expect(meter.result(), `seed ${seed}`).toEqual(computeAudioSignals(pcm, 16000, options));
      expect(meter.samplesSeen).toBe(pcm.length);
    }
  });

  it('result() does not disturb the meter, and push returns the completed frame levels', () => {
    const pcm = audio([{ tone_ms: 300 }, { silence_ms: 500 }, { tone_ms: 310 }]);
    const meter = new AudioSignalMeter(16000, defaults);
    const levels: number[] = [];
    for (let at = 0; at < pcm.length; at += 3200) {
      levels.push(...meter.push(pcm.subarray(at, at + 3200)));
      meter.result();
    }
    expect(levels).toHaveLength(55); // 1110 ms: 55 whole frames, the last 10 ms still pending
    expect(meter.result()).toEqual(signals(pcm));
  });
});
