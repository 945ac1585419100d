import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UtteranceCutter } from '../../../../core/common/engine/utteranceCutter';
import { readWav } from '../../../../core/node/audio/wavFile';
import { SHARED } from './engineTestModels';

const FIXTURES = path.join(SHARED, 'fixtures/audio');
const haveFixtures = existsSync(FIXTURES);
if (!haveFixtures) console.warn(`[cutter speech test] SKIPPED: ${FIXTURES} (the espeak-ng think-aloud clips) is absent`);

/** Spoken parts of the shared clips in ms (see ../shared/fixtures/audio/README.md): [start, end] of each. */
const CLIPS: Record<string, Array<[number, number]>> = {
  'commit-polite.wav': [
    [0, 5097],
    [7097, 8753],
  ],
  'change-to-neutral.wav': [
    [0, 1732],
    [3232, 4970],
    [5770, 7837],
  ],
  'negated-then-impolite.wav': [
    [0, 2066],
    [3266, 6137],
  ],
};

describe.skipIf(!haveFixtures)('UtteranceCutter on synthesised think-aloud speech', () => {
  it.each(Object.entries(CLIPS))('%s: one utterance per spoken part, each inside its part ± the kept margins', async (file, parts) => {
    const wav = await readWav(path.join(FIXTURES, file));
    expect(wav.sampleRate).toBe(16000);
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: -45 });
    const utterances = [];
    for (let at = 0; at < wav.samples.length; at += 3200) utterances.push(...cutter.push(wav.samples.subarray(at, at + 3200)));
    utterances.push(...cutter.flush());
    expect(utterances.map((u) => u.index)).toEqual(parts.map((_, i) => i));
    utterances.forEach((u, i) => {
      const [start, end] = parts[i]!;
      const startMs = u.startSample / 16;
      const endMs = u.endSample / 16;
      // a 20 ms frame of slack on the grid, plus the 200 ms kept before and 300 ms kept after speech
      expect(startMs).toBeGreaterThanOrEqual(start - 220);
      expect(endMs).toBeLessThanOrEqual(end + 320);
      // and it holds most of the part (espeak's own lead-in and lead-out silences are short)
      expect(endMs - startMs).toBeGreaterThan((end - start) * 0.85);
    });
  });
});
