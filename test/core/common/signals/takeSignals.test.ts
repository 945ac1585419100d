import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { energyPauseSpans } from '../../../../core/common/signals/audioSignals';
import { combineTakeVadSignals, spansWithinTakes, takeBounds } from '../../../../core/common/signals/takeSignals';
import { pauseSpans } from '../../../../renderer/src/features/review/reviewModel';
import { audioSignalsOf } from '../../../../core/node/session/itemAudioSignals';
import { audio } from './syntheticAudio';

const here = path.dirname(fileURLToPath(import.meta.url));
const { thinkaloud } = parseProjectConfig(readFileSync(path.join(here, '../../../../demo-project/aloud.yaml'), 'utf8'));

describe('signals within each recording (take) of an item', () => {
  it('takeBounds: the takes cover the audio from 0, in order, without empty or outside ones', () => {
    expect(takeBounds(100, [0, 40])).toEqual([
      [0, 40],
      [40, 100],
    ]);
    expect(takeBounds(100, [40, 0, 40, 100, 250])).toEqual([
      [0, 40],
      [40, 100],
    ]);
    expect(takeBounds(0, [0])).toEqual([]);
  });

  it('the silence that ends one take and starts the next is no pause; a pause inside a take still is', () => {
    // take 1: speech, then 1.5 s of silence before stop; take 2: 1.5 s of silence, speech, a 1 s pause, speech
    const first = audio([{ tone_ms: 1000 }, { silence_ms: 1500 }]);
    const second = audio([{ silence_ms: 1500 }, { tone_ms: 1000 }, { silence_ms: 1000 }, { tone_ms: 1000 }]);
    const pcm = new Float32Array(first.length + second.length);
    pcm.set(first);
    pcm.set(second, first.length);
    const asOne = audioSignalsOf(pcm, 16000, thinkaloud, null, [0]);
    const byTake = audioSignalsOf(pcm, 16000, thinkaloud, null, [0, first.length]);
    // read as one recording, the 3 s across the two takes would be the longest pause of speech
    expect(asOne.audio.pauses.count).toBe(2);
    expect(asOne.audio.pauses.longest_ms).toBeGreaterThanOrEqual(2900);
    expect(byTake.takes).toEqual([0, first.length]);
    expect(byTake.audio.pauses.count).toBe(1);
    expect(byTake.audio.pauses.longest_ms).toBeGreaterThanOrEqual(900);
    expect(byTake.audio.pauses.longest_ms).toBeLessThanOrEqual(1100);
    expect(byTake.audio.total_chunks).toBeGreaterThan(0);
    expect(byTake.audio.time_to_first_speech_ms).toBe(asOne.audio.time_to_first_speech_ms);
  });

  it('the spans a screen or a tier shows are found within each take, where the signals count them: the Review markers and the ELAN/Praat pause tier agree with the record', () => {
    const first = audio([{ tone_ms: 1000 }, { silence_ms: 1500 }]);
    const second = audio([{ silence_ms: 1500 }, { tone_ms: 1000 }, { silence_ms: 1000 }, { tone_ms: 1000 }]);
    const pcm = new Float32Array(first.length + second.length);
    pcm.set(first);
    pcm.set(second, first.length);
    const takeStartsMs = [0, (first.length * 1000) / 16000];
    const recorded = audioSignalsOf(pcm, 16000, thinkaloud, null, [0, first.length]).audio.pauses;
    const options = {
      chunk_seconds: thinkaloud.chunk_seconds,
      silence_threshold_dbfs: thinkaloud.silence_threshold_dbfs,
      min_pause_ms: thinkaloud.min_pause_ms,
      long_pause_ms: thinkaloud.long_pause_ms,
    };
    // over the whole WAV a 3 s "pause" spans the two takes; within the takes only the 1 s one, 5 s into the audio
    expect(energyPauseSpans(pcm, 16000, options)).toHaveLength(2);
    const tier = spansWithinTakes(
      pcm,
      16000,
      takeStartsMs,
      (take) => energyPauseSpans(take, 16000, options),
      (p, at) => ({ t0_ms: p.t0_ms + at, t1_ms: p.t1_ms + at }),
    );
    expect(tier).toHaveLength(recorded.count);
    expect(tier[0]!.t0_ms).toBeGreaterThanOrEqual(4900);
    expect(tier[0]!.t1_ms).toBeLessThanOrEqual(6100);
    const markers = spansWithinTakes(
      pcm,
      16000,
      takeStartsMs,
      (take) => pauseSpans(take, 16000, thinkaloud),
      (p, at) => ({ ...p, start_ms: p.start_ms + at, end_ms: p.end_ms + at }),
    );
    expect(markers.map((m) => Math.round((m.end_ms - m.start_ms) / 100) / 10)).toEqual([1]);
    expect(Math.max(...markers.map((m) => m.end_ms - m.start_ms))).toBeCloseTo(recorded.longest_ms, -2);
  });

  it('VAD signals of the takes add up, the first speech on the item timeline', () => {
    const none = { count: 0, total_ms: 0, longest_ms: 0, long_count: 0 };
    const combined = combineTakeVadSignals([
      { offsetMs: 0, signals: { vad_speech_ms: 500, vad_pauses: none, vad_time_to_first_speech_ms: null, vad_window_ms: 32 } },
      {
        offsetMs: 2000,
        signals: {
          vad_speech_ms: 700,
          vad_pauses: { count: 1, total_ms: 400, longest_ms: 400, long_count: 0 },
          vad_time_to_first_speech_ms: 300,
          vad_window_ms: 32,
        },
      },
    ]);
    expect(combined).toEqual({
      vad_speech_ms: 1200,
      vad_pauses: { count: 1, total_ms: 400, longest_ms: 400, long_count: 0 },
      vad_time_to_first_speech_ms: 2300,
      vad_window_ms: 32,
    });
    expect(combineTakeVadSignals([])).toBeNull();
  });
});
