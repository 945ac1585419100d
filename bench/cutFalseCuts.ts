/**
 * False cuts of the cut that listens (figures only; nothing is asserted). Run: npx tsx bench/cutFalseCuts.ts [VAD_MODEL]
 * (the clips: $ALOUD_FIXTURES, else shared/fixtures/audio beside the repository or beside its folder).
 *
 * Feeds each clip in 50 ms chunks through the UtteranceCutter with the Silero VAD, once with today's fixed 300 ms cut
 * and once per floor with two hints, from when the speculative final could start (the cut audio is complete):
 * - worst: every pause is taken for a sentence end, as if whisper put a full stop at every pause;
 * - commitment: that, and a pause after a spoken part whose text ends with a commit phrase and a full stop (the
 *   project's parser on the README's words) is taken for a commitment, which cuts at the floor whatever the pauses;
 * - worst commitment: every pause is taken for a commitment (whisper heard a commit phrase at every pause).
 * A cut inside a spoken part (the clip's README: synthetic parts; real speech: Silero's speech regions) that the
 * fixed cut does not make is a false cut the rule added. Prints, per clip, the cuts (speech end, ms), the silence each
 * waited and the false cuts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseOptionsOf } from '../core/common/analysis/transcriptAnalysis';
import { createEndsWithCommitment } from '../core/common/engine/endsWithCommitment';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../core/node/project/projectFolder';
import { readWavFor16k } from '../core/node/engine/audioInput';
import { SileroVad } from '../core/node/engine/sileroVad';
import { UtteranceCutter } from '../core/common/engine/utteranceCutter';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const FIXTURES =
  process.env.ALOUD_FIXTURES ??
  [path.resolve(repo, '../shared/fixtures/audio'), path.resolve(repo, '../../shared/fixtures/audio')].find((dir) => existsSync(dir)) ??
  path.resolve(repo, '../shared/fixtures/audio');
const vadModel = process.argv[2] ?? path.resolve(FIXTURES, '../../models/for-tests-silero-v6.2.0-ggml.bin');

/** What each part says (the README), for the commitment hint; the real speech clip commits nothing. */
const WORDS: Record<string, string[]> = {
  'commit-polite.wav': ['Hmm, well. This reply is, um, kind of polite, I guess.', 'I label this polite.'],
  'change-to-neutral.wav': ['My answer is impolite.', 'Uh, actually no.', 'Final answer: neutral.'],
  'negated-then-impolite.wav': ['I would not label this polite.', 'It is rude. I label this impolite.'],
};

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

/** What the speculative final is taken to say at a pause: a sentence end, and whether after a commit phrase. */
type Hint = (speechEndMs: number) => { sentence: boolean; commitment: boolean };

/** Speech ends (ms) of the cuts, feeding 50 ms chunks; `floor` null: the fixed cut. */
function cuts(vad: SileroVad, pcm: Float32Array, floor: number | null, hint: Hint): number[] {
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
    // the hint comes once the speculation could start: the cut's audio is complete
    if (floor !== null && open && open.cutIfSilentSample <= open.samplesSeen) {
      const { sentence, commitment } = hint((open.speechEndSample * 1000) / 16000);
      cutter.hintSentenceEnd(open.index, sentence, commitment);
    }
  }
  for (const u of cutter.flush()) ends.push(Math.round(((u.endSample - keep) * 1000) / 16000));
  return ends;
}

const endsWithCommitment = createEndsWithCommitment(parseOptionsOf((await loadProjectConfig(DEMO_PROJECT_DIR)).config));
const vad = SileroVad.load(vadModel);
try {
  const totals = { worst: 0, commitment: 0, 'worst commitment': 0 };
  let cutsFixed = 0;
  for (const [clip, parts] of Object.entries(CLIPS)) {
    const { pcm } = await readWavFor16k(path.join(FIXTURES, clip));
    // espeak pads each part with its own silence (about 0.3 s): a speech end within 400 ms of a part's end is that part's end
    const partEnding = (ms: number): number => parts.findIndex(([, b]) => ms >= b * 1000 - 400 && ms <= b * 1000 + 400);
    const inside = (ms: number): boolean => parts.some(([a, b]) => ms > a * 1000 + 50 && ms < b * 1000 - 400);
    const hints: Record<keyof typeof totals, Hint> = {
      worst: () => ({ sentence: true, commitment: false }),
      commitment: (ms) => {
        const part = partEnding(ms);
        return { sentence: true, commitment: part >= 0 && endsWithCommitment(WORDS[clip]?.[part] ?? '') };
      },
      'worst commitment': () => ({ sentence: true, commitment: true }),
    };
    const fixed = cuts(vad, pcm, null, hints.worst);
    const fixedWaits = waits;
    cutsFixed += fixed.length;
    process.stdout.write(
      `${clip}\n  fixed 300 ms: cuts at ${fixed.join(', ')} ms, after ${fixedWaits.join(', ')} ms of silence (${fixed.filter(inside).length} inside a part)\n`,
    );
    for (const floor of [160, 200, 250]) {
      for (const [name, hint] of Object.entries(hints) as Array<[keyof typeof totals, Hint]>) {
        const adaptive = cuts(vad, pcm, floor, hint);
        const added = adaptive.filter((ms) => !fixed.some((f) => Math.abs(f - ms) <= 40) && inside(ms));
        if (floor === 200) totals[name] += added.length;
        process.stdout.write(
          `  floor ${floor} ms, ${name} hint: cuts at ${adaptive.join(', ')} ms, after ${waits.join(', ')} ms; false cuts added: ${added.length}${added.length ? ` (at ${added.join(', ')} ms)` : ''}\n`,
        );
      }
    }
  }
  process.stdout.write(
    `\nfalse cuts added at the default floor (200 ms) over ${Object.keys(CLIPS).length} clips (fixed cut: ${cutsFixed} cuts): ` +
      `${Object.entries(totals)
        .map(([name, n]) => `${name} hint ${n}`)
        .join(', ')}\n(a clip's last cut comes at its end, after no wait: its silence is not listed)\n`,
  );
} finally {
  vad.free();
}
