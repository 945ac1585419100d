/**
 * False cuts of the cut that listens (figures only; nothing is asserted). Run: npx tsx bench/cutFalseCuts.ts [VAD_MODEL]
 *
 * Feeds each clip of ../shared/fixtures/audio in 50 ms chunks through the UtteranceCutter with the Silero VAD, once with
 * today's fixed 300 ms cut and once per floor with the worst hint: every pause is taken for a sentence end as soon as
 * the speculative final could start (150 ms), as if whisper put a full stop at every pause. A cut inside a spoken part
 * (the clip's README: synthetic parts; real speech: Silero's speech regions) that the fixed cut does not make is a
 * false cut the adaptive rule added. Prints, per clip, the cuts (speech end, ms) and the false cuts.
 */
import path from 'node:path';
import { readWavFor16k } from '../core/node/engine/audioInput';
import { SileroVad } from '../core/node/engine/sileroVad';
import { UtteranceCutter } from '../core/common/engine/utteranceCutter';

const FIXTURES = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../shared/fixtures/audio');
const vadModel = process.argv[2] ?? path.resolve(FIXTURES, '../../models/for-tests-silero-v6.2.0-ggml.bin');

/** Spoken parts (s): from the fixtures' README (synthetic: part lengths and inserted silences; real speech: Silero's regions). */
const CLIPS: Record<string, Array<[number, number]>> = {
  'commit-polite.wav': [
    [0, 5.097],
    [7.097, 8.753],
  ],
  'change-to-neutral.wav': [
    [0, 1.732],
    [3.232, 4.97],
    [5.77, 7.837],
  ],
  'negated-then-impolite.wav': [
    [0, 2.066],
    [3.266, 6.137],
  ],
  'real-speech-jfk.wav': [
    [0.32, 2.27],
    [3.27, 4.41],
    [5.38, 7.68],
    [8.16, 10.62],
  ],
};

/** Silence waited before each cut (ms of audio after its speech end), by the last call of `cuts`. */
let waits: number[] = [];

/** Speech ends (ms) of the cuts, feeding 50 ms chunks; `floor` null: the fixed cut. */
function cuts(vad: SileroVad, pcm: Float32Array, floor: number | null): number[] {
  waits = [];
  vad.reset();
  const cutter = new UtteranceCutter({ silenceThresholdDbfs: -45, speech: vad, adaptiveFloorMs: floor });
  const ends: number[] = [];
  const keep = cutter.keepAfterSamples;
  for (let at = 0; at < pcm.length; at += 800) {
    for (const u of cutter.push(pcm.subarray(at, at + 800))) {
      ends.push(Math.round(((u.endSample - keep) * 1000) / 16000));
      waits.push(Math.round(((Math.min(pcm.length, at + 800) - (u.endSample - keep)) * 1000) / 16000));
    }
    const open = cutter.openUtterance;
    // the worst hint: every pause is a sentence end once the speculation could start
    if (floor !== null && open && open.silenceMs >= 150) cutter.hintSentenceEnd(open.index, true);
  }
  for (const u of cutter.flush()) ends.push(Math.round(((u.endSample - keep) * 1000) / 16000));
  return ends;
}

const vad = SileroVad.load(vadModel);
try {
  let falseTotal = 0;
  let cutsFixed = 0;
  for (const [clip, parts] of Object.entries(CLIPS)) {
    const { pcm } = await readWavFor16k(path.join(FIXTURES, clip));
    const fixed = cuts(vad, pcm, null);
    cutsFixed += fixed.length;
    // espeak pads each part with its own silence (about 0.3 s): a speech end within 400 ms of a part's end is that part's end
    const inside = (ms: number): boolean => parts.some(([a, b]) => ms > a * 1000 + 50 && ms < b * 1000 - 400);
    process.stdout.write(
      `${clip}\n  fixed 300 ms: cuts at ${fixed.join(', ')} ms, after ${waits.join(', ')} ms of silence (${fixed.filter(inside).length} inside a part)\n`,
    );
    for (const floor of [160, 200, 250]) {
      const adaptive = cuts(vad, pcm, floor);
      const added = adaptive.filter((ms) => !fixed.some((f) => Math.abs(f - ms) <= 40) && inside(ms));
      falseTotal += floor === 200 ? added.length : 0;
      process.stdout.write(
        `  floor ${floor} ms: cuts at ${adaptive.join(', ')} ms, after ${waits.join(', ')} ms; false cuts added: ${added.length}${added.length ? ` (at ${added.join(', ')} ms)` : ''}\n`,
      );
    }
  }
  process.stdout.write(
    `\nfalse cuts added at the default floor (200 ms), worst hint, over ${Object.keys(CLIPS).length} clips: ${falseTotal} (fixed cut: ${cutsFixed} cuts)\n`,
  );
} finally {
  vad.free();
}
