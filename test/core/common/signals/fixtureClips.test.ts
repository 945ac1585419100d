import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AudioSignalMeter, computeAudioSignals } from '../../../../core/common/signals/audioSignals';
import type { AudioSignalOptions } from '../../../../core/common/signals/signalTypes';
import { readWav } from '../../../../core/node/audio/wavFile';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const clipDir = path.resolve(repoRoot, '../shared/fixtures/audio');
const haveClips = existsSync(path.join(clipDir, 'README.md'));
if (!haveClips) console.warn(`skipping the think-aloud clip tests: ${clipDir} is absent (CI keeps ../shared beside the repo)`);

const defaults: AudioSignalOptions = { chunk_seconds: 1, silence_threshold_dbfs: -45, min_pause_ms: 250, long_pause_ms: 1000 };

/*
 * Expected figures, worked out by hand from the clips' README (not measured):
 *
 * Every clip is espeak-ng speech (about -20 dBFS, far above -45) with inserted digital silence (far below -45).
 * espeak-ng starts speaking almost at once and ends each part, which always ends with "." (a sentence end), with
 * its sentence-final pause. Assumptions used below, stated once:
 *   A1. a part's speech starts within 200 ms of the part's start;
 *   A2. the sentence-final lead-out is longer than 300 ms and shorter than 450 ms at 150 wpm;
 *   A3. espeak-ng's pauses at punctuation inside a part ("," ":" and a mid-part ".") are shorter than 500 ms.
 * So a measured pause at a join = gap + lead-out of the part before (A2) + any quiet onset of the next part, and
 * lies in [gap + 300 - 20, gap + 500) (20 ms: a frame shared with speech is not silent; the bound 500 = 450 + a quiet
 * onset such as the "F" of "Final" + grid rounding). Inside a part, each punctuation mark adds at most one pause,
 * never a long one (A3), and no 1 s chunk inside a part is silent (1 s of a part always holds speech by A3).
 *
 * commit-polite.wav (8.754 s): part 1 [0, 5.097) · gap [5.097, 7.097) · part 2 [7.097, 8.754).
 *   chunks: 8 whole + 0.754 s (≥ 0.5, counts) = 9. Silent: [6,7) lies inside the gap; [5,6) holds part 1's last
 *   97 ms, inside its lead-out (A2), then gap: silent. [7,8) holds part 2's speech (A1). → silent_chunks 2.
 *   With 0.5 s chunks: 17 whole + 0.254 s (≥ 0.25, counts) = 18; silent: [5,5.5) [5.5,6) [6,6.5) [6.5,7) and the
 *   last 0.254 s, inside part 2's lead-out (A2) → 5.
 *   pauses: the join pause in [2280, 2500); 5 punctuation marks inside part 1 ("Hmm, well. This reply is, um, kind
 *   of polite, I guess") → count in [1, 6]; long_count 1. With min_pause_ms 500: exactly the join pause.
 * change-to-neutral.wav (7.837 s): part 1 [0, 1.732) · gap [1.732, 3.232) · part 2 [3.232, 4.970) · gap
 *   [4.970, 5.770) · part 3 [5.770, 7.837).
 *   chunks: 7 + 0.837 s (counts) = 8; silent: [2,3) only ([1,2) holds part 1 speech up to ≥ 1.732 - 0.45; [5,6)
 *   holds 0.23 s of part 3) → 1. pauses: joins in [1780, 2000) and [1080, 1300): both long → long_count 2; inner
 *   marks "," and ":" → count in [2, 4].
 * negated-then-impolite.wav (6.137 s): part 1 [0, 2.066) · gap [2.066, 3.266) · part 2 [3.266, 6.137).
 *   chunks: 6 whole + 0.137 s (< 0.5: not counted) = 6; silent: [2,3) (part 1's last 66 ms are lead-out, then gap).
 *   The uncounted rest [6, 6.137) is silent lead-out: counting it would give 2. pauses: join in [1480, 1700); inner
 *   "." in part 2 → count in [1, 2]; long_count 1.
 * time_to_first_speech_ms: every clip starts with a part → < 200 ms (A1).
 */
interface ClipExpectation {
  file: string;
  seconds: number;
  gaps_ms: number[];
  inner_marks: number;
  total_chunks: number;
  silent_chunks: number;
}
const clips: ClipExpectation[] = [
  { file: 'commit-polite.wav', seconds: 8.754, gaps_ms: [2000], inner_marks: 5, total_chunks: 9, silent_chunks: 2 },
  { file: 'change-to-neutral.wav', seconds: 7.837, gaps_ms: [1500, 800], inner_marks: 2, total_chunks: 8, silent_chunks: 1 },
  { file: 'negated-then-impolite.wav', seconds: 6.137, gaps_ms: [1200], inner_marks: 1, total_chunks: 6, silent_chunks: 1 },
];
const JOIN_MIN_EXTRA_MS = 300 - 20;
const JOIN_MAX_EXTRA_MS = 500;

describe.skipIf(!haveClips)('hesitation signals of the think-aloud clips (../shared/fixtures/audio)', () => {
  for (const clip of clips) {
    describe(clip.file, () => {
      const load = () => readWav(path.join(clipDir, clip.file));

      it('decodes as 16 kHz mono 16-bit of the listed length', async () => {
        const wav = await load();
        expect(wav).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, format: 'pcm', truncatedHeader: false });
        expect(Math.abs(wav.durationMs - clip.seconds * 1000)).toBeLessThan(1); // README rounds to the ms
      });

      it('has the silent chunks, pauses and first speech worked out from the README', async () => {
        const wav = await load();
        const s = computeAudioSignals(wav.samples, wav.sampleRate, defaults);
        expect(s.total_chunks).toBe(clip.total_chunks);
        expect(s.silent_chunks).toBe(clip.silent_chunks);
        expect(s.time_to_first_speech_ms).not.toBeNull();
        expect(s.time_to_first_speech_ms!).toBeLessThan(200);

        const longestGap = Math.max(...clip.gaps_ms);
        expect(s.pauses.longest_ms).toBeGreaterThanOrEqual(longestGap + JOIN_MIN_EXTRA_MS);
        expect(s.pauses.longest_ms).toBeLessThan(longestGap + JOIN_MAX_EXTRA_MS);
        expect(s.pauses.count).toBeGreaterThanOrEqual(clip.gaps_ms.length);
        expect(s.pauses.count).toBeLessThanOrEqual(clip.gaps_ms.length + clip.inner_marks);
        // every gap plus its lead-out is ≥ 1 s (the shortest: 800 + 280); inner pauses never are (A3)
        expect(s.pauses.long_count).toBe(clip.gaps_ms.length);
      });

      it('with min_pause_ms 500 counts exactly the inserted gaps (inner punctuation pauses are shorter, A3)', async () => {
        const wav = await load();
        const { pauses } = computeAudioSignals(wav.samples, wav.sampleRate, { ...defaults, min_pause_ms: 500 });
        expect(pauses.count).toBe(clip.gaps_ms.length);
        const gapsTotal = clip.gaps_ms.reduce((a, b) => a + b, 0);
        expect(pauses.total_ms).toBeGreaterThanOrEqual(gapsTotal + clip.gaps_ms.length * JOIN_MIN_EXTRA_MS);
        expect(pauses.total_ms).toBeLessThan(gapsTotal + clip.gaps_ms.length * JOIN_MAX_EXTRA_MS);
      });

      it('gives the same figures when the audio arrives in 200 ms chunks while recording', async () => {
        const wav = await load();
        const meter = new AudioSignalMeter(wav.sampleRate, defaults);
        for (let at = 0; at < wav.samples.length; at += 3200) meter.push(wav.samples.subarray(at, at + 3200));
        expect(meter.result()).toEqual(computeAudioSignals(wav.samples, wav.sampleRate, defaults));
      });
    });
  }

  it('commit-polite.wav on a 0.5 s grid: 18 chunks, 5 silent (the 0.254 s rest counts and is lead-out)', async () => {
    const wav = await readWav(path.join(clipDir, 'commit-polite.wav'));
    const s = computeAudioSignals(wav.samples, wav.sampleRate, { ...defaults, chunk_seconds: 0.5 });
    expect(s).toMatchObject({ total_chunks: 18, silent_chunks: 5 });
  });
});
