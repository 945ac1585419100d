import { describe, expect, it } from 'vitest';
import { type Utterance, UtteranceCutter } from '../../../../core/common/engine/utteranceCutter';
import { frameLevelsDbfs } from '../../../../core/common/signals/frameLevels';

const RATE = 16000;
const ms = (x: number): number => (x * RATE) / 1000;
const THRESHOLD = -45;

type Part = { speech: number } | { silence: number } | { quiet: number } | { zero: number };

/** Speech = a 220 Hz tone at -23 dBFS RMS; silence = faint noise at about -70 dBFS; quiet = -50 dBFS (below threshold); zero = digital silence. */
function signal(parts: Part[], seed = 1): Float32Array {
  const total = parts.reduce((n, p) => n + ms(Object.values(p)[0] as number), 0);
  const out = new Float32Array(total);
  let state = seed;
  const noise = (): number => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  let at = 0;
  for (const part of parts) {
    const n = ms(Object.values(part)[0] as number);
    for (let i = 0; i < n; i++, at++) {
      if ('speech' in part) out[at] = 0.1 * Math.sin((2 * Math.PI * 220 * at) / RATE);
      else if ('quiet' in part) out[at] = 0.0045 * Math.sin((2 * Math.PI * 220 * at) / RATE);
      else if ('zero' in part) out[at] = 0;
      else out[at] = 0.001 * noise();
    }
  }
  return out;
}

function cutAll(
  pcm: Float32Array,
  chunkSizes: () => number,
  options: Partial<ConstructorParameters<typeof UtteranceCutter>[0]> = {},
): Utterance[] {
  const cutter = new UtteranceCutter({ silenceThresholdDbfs: THRESHOLD, ...options });
  const out: Utterance[] = [];
  for (let at = 0; at < pcm.length;) {
    const n = Math.min(pcm.length - at, chunkSizes());
    out.push(...cutter.push(pcm.subarray(at, at + n)));
    at += n;
  }
  out.push(...cutter.flush());
  return out;
}

const chunks3200 = (): number => 3200;

describe('UtteranceCutter', () => {
  it('cuts at a silence of 600 ms: 200 ms kept before speech, 300 ms after', () => {
    const pcm = signal([{ silence: 1000 }, { speech: 1500 }, { silence: 800 }, { speech: 1000 }, { silence: 2000 }]);
    const utterances = cutAll(pcm, chunks3200);
    expect(utterances.map((u) => [u.index, u.startSample, u.endSample])).toEqual([
      [0, ms(800), ms(2800)],
      [1, ms(3100), ms(4600)],
    ]);
  });

  it('emits an utterance as soon as its 600 ms of silence have been pushed, not later', () => {
    const pcm = signal([{ speech: 1000 }, { silence: 3000 }]);
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: THRESHOLD });
    expect(cutter.push(pcm.subarray(0, ms(1000 + 580)))).toEqual([]);
    const out = cutter.push(pcm.subarray(ms(1580), ms(1600)));
    expect(out).toHaveLength(1);
    expect(out[0]!.endSample).toBe(ms(1300));
  });

  it('does not cut at 580 ms of silence, and does at exactly 600 ms', () => {
    const short = cutAll(signal([{ speech: 1000 }, { silence: 580 }, { speech: 1000 }, { silence: 1000 }]), chunks3200);
    expect(short).toHaveLength(1);
    expect([short[0]!.startSample, short[0]!.endSample]).toEqual([0, ms(2580 + 300)]);
    const exact = cutAll(signal([{ speech: 1000 }, { silence: 600 }, { speech: 1000 }, { silence: 1000 }]), chunks3200);
    expect(exact.map((u) => [u.startSample, u.endSample])).toEqual([
      [0, ms(1300)],
      [ms(1400), ms(2900)],
    ]);
  });

  it('uses the hesitation signals’ 20 ms frame levels and threshold', () => {
    // one 20 ms frame at -44.9 dBFS alone in silence is voiced; at -45.1 dBFS it is not
    const oneFrame = (dbfs: number): Float32Array => {
      const pcm = new Float32Array(ms(2000));
      for (let i = ms(1000); i < ms(1020); i++) pcm[i] = 10 ** (dbfs / 20);
      return pcm;
    };
    expect(frameLevelsDbfs(oneFrame(-44.9), RATE)[50]).toBeCloseTo(-44.9, 6);
    expect(cutAll(oneFrame(-44.9), chunks3200, { minVoicedMs: 20 }).map((u) => [u.startSample, u.endSample])).toEqual([
      [ms(800), ms(1320)],
    ]);
    expect(cutAll(oneFrame(-45.1), chunks3200, { minVoicedMs: 20 })).toHaveLength(0);
    expect(cutAll(oneFrame(-44.9), chunks3200, { minVoicedMs: 40 })).toHaveLength(0);
  });

  it('gives the same utterances whatever the chunk sizes', () => {
    const pcm = signal([
      { silence: 700 },
      { speech: 2300 },
      { silence: 650 },
      { speech: 400 },
      { quiet: 500 },
      { speech: 900 },
      { silence: 1200 },
      { speech: 300 },
    ]);
    const reference = cutAll(pcm, chunks3200);
    expect(reference.length).toBe(3);
    let state = 7;
    const random = (): number => {
      state = (state * 48271) % 2147483647;
      return 1 + (state % 5000);
    };
    for (const sizes of [() => 1, () => 159, () => 320, random, () => pcm.length]) {
      const other = cutAll(pcm, sizes);
      expect(other.map((u) => [u.index, u.startSample, u.endSample])).toEqual(reference.map((u) => [u.index, u.startSample, u.endSample]));
      other.forEach((u, i) => expect(u.pcm).toEqual(reference[i]!.pcm));
    }
  });

  it('copies exactly the samples of each utterance', () => {
    const pcm = signal([{ silence: 500 }, { speech: 1000 }, { silence: 900 }, { speech: 700 }, { silence: 900 }]);
    const utterances = cutAll(pcm, () => 1234);
    expect(utterances).toHaveLength(2);
    for (const u of utterances) {
      expect(u.pcm).toEqual(pcm.slice(u.startSample, u.endSample));
      u.pcm[0] = 9; // a copy: the recording is untouched
      expect(pcm[u.startSample]).not.toBe(9);
    }
  });

  it('sends nothing for silence, however long', () => {
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: THRESHOLD });
    const second = signal([{ silence: 1000 }]);
    for (let i = 0; i < 120; i++) expect(cutter.push(second)).toEqual([]);
    expect(cutter.flush()).toEqual([]);
    expect(cutter.samplesSeen).toBe(120 * RATE);
  });

  it('drops clicks shorter than minVoicedMs, without using up an index', () => {
    const pcm = signal([{ silence: 500 }, { speech: 40 }, { silence: 1000 }, { speech: 800 }, { silence: 1000 }]);
    const utterances = cutAll(pcm, chunks3200);
    expect(utterances).toHaveLength(1);
    expect(utterances[0]!.index).toBe(0);
    expect(utterances[0]!.startSample).toBe(ms(1340));
  });

  it('flush at recording stop returns the open utterance, its trailing silence limited to what was recorded', () => {
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: THRESHOLD });
    expect(cutter.push(signal([{ silence: 300 }, { speech: 1000 }, { silence: 100 }]))).toEqual([]);
    const out = cutter.flush();
    expect(out.map((u) => [u.index, u.startSample, u.endSample])).toEqual([[0, ms(100), ms(1400)]]);
    expect(cutter.flush()).toEqual([]);
    expect(() => cutter.push(new Float32Array(10))).toThrow(/push after flush/);
  });

  it('flush counts the speech of a last partial frame', () => {
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: THRESHOLD });
    cutter.push(signal([{ speech: 500 }, { silence: 200 }]));
    cutter.push(signal([{ speech: 10 }]));
    expect(cutter.flush().map((u) => [u.startSample, u.endSample])).toEqual([[0, ms(710)]]);
  });

  it('cuts continuous speech at 25 s, at the quietest frame of the last 2 s, losing no sample', () => {
    // 60 s of speech with a brief gap (far short of a pause) at 24.0–24.1 s and 47.5–47.6 s
    const pcm = signal([
      { silence: 1000 },
      { speech: 23_000 },
      { zero: 100 },
      { speech: 23_400 },
      { zero: 100 },
      { speech: 12_400 },
      { silence: 1000 },
    ]);
    const utterances = cutAll(pcm, () => 3200);
    expect(utterances.map((u) => [u.startSample, u.endSample])).toEqual([
      [ms(800), ms(24_100)],
      [ms(24_100), ms(47_600)],
      [ms(47_600), ms(60_300)],
    ]);
    for (const u of utterances) expect(u.endSample - u.startSample).toBeLessThanOrEqual(ms(25_000));
  });

  it('never makes an utterance longer than maxUtteranceMs, even without any dip', () => {
    const pcm = signal([{ speech: 61_000 }]);
    const utterances = cutAll(pcm, () => 4000);
    expect(utterances.length).toBe(3);
    expect(utterances[0]!.startSample).toBe(0);
    for (let i = 1; i < utterances.length; i++) expect(utterances[i]!.startSample).toBe(utterances[i - 1]!.endSample);
    expect(utterances.at(-1)!.endSample).toBe(pcm.length);
    for (const u of utterances) expect(u.endSample - u.startSample).toBeLessThanOrEqual(ms(25_000));
  });

  it('keeps the audio before speech only back to the previous cut', () => {
    const pcm = signal([{ speech: 1000 }, { silence: 660 }, { speech: 1000 }, { silence: 1000 }]);
    const [first, second] = cutAll(pcm, chunks3200);
    expect(first!.endSample).toBe(ms(1300));
    expect(second!.startSample).toBe(ms(1460));
    expect(second!.startSample).toBeGreaterThanOrEqual(first!.endSample);
  });

  it('refuses options that make no sense, naming them', () => {
    expect(() => new UtteranceCutter({ silenceThresholdDbfs: Number.NaN })).toThrow(/silenceThresholdDbfs/);
    expect(() => new UtteranceCutter({ silenceThresholdDbfs: -45, keepAfterSpeechMs: 600 })).toThrow(
      /keepAfterSpeechMs \(600\) must be below minSilenceMs \(600\)/,
    );
    expect(() => new UtteranceCutter({ silenceThresholdDbfs: -45, minSilenceMs: 5 })).toThrow(/minSilenceMs/);
    expect(() => new UtteranceCutter({ silenceThresholdDbfs: -45, maxUtteranceMs: 1000 })).toThrow(/maxUtteranceMs/);
    expect(() => new UtteranceCutter({ silenceThresholdDbfs: -45 }).push([1, 2] as unknown as Float32Array)).toThrow(/Float32Array/);
  });
});

describe('a cut that listens (adaptiveFloorMs)', () => {
  /** A probe on 512-sample windows: the window's mean absolute sample above 0.02 is speech (0.95); "quiet" windows (0.002–0.02) are 0.3, a breath; below, 0.01. */
  const probe = {
    windowSamples: 512,
    probabilities(pcm: Float32Array) {
      const out = new Float32Array(pcm.length / 512);
      for (let w = 0; w < out.length; w++) {
        let sum = 0;
        for (let i = w * 512; i < (w + 1) * 512; i++) sum += Math.abs(pcm[i]!);
        const mean = sum / 512;
        out[w] = mean > 0.02 ? 0.95 : mean > 0.002 ? 0.3 : 0.01;
      }
      return out;
    },
    reset() {},
  };
  /** Feeds 50 ms chunks; `hint(cutter, at)` runs after each; answers the sample count fed when each cut came. */
  function cutTimes(
    pcm: Float32Array,
    hint: (cutter: UtteranceCutter) => void,
    floor: number | null = 200,
  ): Array<{ at: number; end: number }> {
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: THRESHOLD, speech: probe, adaptiveFloorMs: floor });
    const cuts: Array<{ at: number; end: number }> = [];
    for (let at = 0; at < pcm.length; at += ms(50)) {
      for (const u of cutter.push(pcm.subarray(at, at + ms(50))))
        cuts.push({ at: ((at + ms(50)) * 1000) / RATE, end: (u.endSample * 1000) / RATE });
      hint(cutter);
    }
    return cuts;
  }
  const sentenceEnd = (cutter: UtteranceCutter): void => {
    const open = cutter.openUtterance;
    if (open && open.silenceMs >= 150) cutter.hintSentenceEnd(open.index, true);
  };

  /** Speech with the short pauses between words a speaker makes (4 × 64 ms), then `pause`. */
  const talk = (pause: Part): Float32Array =>
    signal([
      { speech: 300 },
      { zero: 64 },
      { speech: 300 },
      { zero: 64 },
      { speech: 300 },
      { zero: 64 },
      { speech: 300 },
      { zero: 64 },
      { speech: 300 },
      pause,
    ]);

  it('without a sentence end the cut waits the full 300 ms; after one, over a clean pause, the floor (200 ms)', () => {
    const pcm = talk({ zero: 600 });
    const fixed = cutTimes(pcm, () => undefined);
    const listening = cutTimes(pcm, sentenceEnd);
    expect(fixed).toHaveLength(1);
    expect(listening).toHaveLength(1);
    // the same utterance either way (so a speculation of it is adopted), cut about 100 ms sooner
    expect(listening[0]!.end).toBe(fixed[0]!.end);
    expect(fixed[0]!.at - listening[0]!.at).toBeGreaterThanOrEqual(64);
    expect(fixed[0]!.at - listening[0]!.at).toBeLessThanOrEqual(150);
    // a floor of 300 ms is today's fixed cut
    expect(cutTimes(pcm, sentenceEnd, 300)).toEqual(fixed);
  });

  it('a pause with breath-like sound (speech probability 0.3) is not clean: the full 300 ms', () => {
    const pcm = talk({ quiet: 600 });
    expect(cutTimes(pcm, sentenceEnd)).toEqual(cutTimes(pcm, () => undefined));
  });

  it('a speaker who has not yet paused inside an utterance gets the full 300 ms', () => {
    const pcm = signal([{ speech: 1500 }, { zero: 600 }]);
    expect(cutTimes(pcm, sentenceEnd)).toEqual(cutTimes(pcm, () => undefined));
  });

  it('a speaker who pauses 250 ms inside utterances is given longer: their 90th percentile + 40 ms, never over 300 ms', () => {
    const parts: Part[] = [];
    for (let i = 0; i < 4; i++) parts.push({ speech: 400 }, { zero: 250 });
    parts.push({ speech: 400 }, { zero: 600 });
    const pcm = signal(parts);
    // every pause of 250 ms looks like a sentence end to the hint: still one utterance, never split inside
    const listening = cutTimes(pcm, sentenceEnd);
    expect(listening).toHaveLength(1);
    const fixed = cutTimes(pcm, () => undefined);
    expect(listening[0]!.end).toBe(fixed[0]!.end);
    expect(listening[0]!.at).toBeLessThanOrEqual(fixed[0]!.at);
  });

  it('a sentence that ends right after a commit phrase is cut at the floor over a clean pause, whatever the speaker’s pauses', () => {
    const commitment = (cutter: UtteranceCutter): void => {
      const open = cutter.openUtterance;
      if (open && open.silenceMs >= 96) cutter.hintSentenceEnd(open.index, true, true);
    };
    // a speaker who has not yet paused inside an utterance: a plain sentence end waits the full 300 ms, a commitment does not
    const unknown = signal([{ speech: 1500 }, { zero: 600 }]);
    const fixed = cutTimes(unknown, () => undefined);
    const committed = cutTimes(unknown, commitment);
    expect(committed).toHaveLength(1);
    expect(committed[0]!.end).toBe(fixed[0]!.end);
    expect(fixed[0]!.at - committed[0]!.at).toBeGreaterThanOrEqual(64);
    // a speaker whose pauses inside utterances are 250 ms: still the floor after a commitment
    const parts: Part[] = [];
    for (let i = 0; i < 4; i++) parts.push({ speech: 400 }, { zero: 250 });
    parts.push({ speech: 400 }, { zero: 600 });
    const slow = signal(parts);
    const slowCommitted = cutTimes(slow, (cutter) => {
      const open = cutter.openUtterance;
      // the commitment is only heard at the end (after the fifth stretch of speech)
      if (open && open.silenceMs >= 96 && open.speechEndSample > ms(3000)) cutter.hintSentenceEnd(open.index, true, true);
    });
    expect(slowCommitted).toHaveLength(1);
    expect(cutTimes(slow, () => undefined)[0]!.at - slowCommitted[0]!.at).toBeGreaterThanOrEqual(64);
    // not over breath-like sound, and not without a sentence end
    const breath = signal([{ speech: 1500 }, { quiet: 600 }]);
    expect(cutTimes(breath, commitment)).toEqual(cutTimes(breath, () => undefined));
    const noSentence = (cutter: UtteranceCutter): void => {
      const open = cutter.openUtterance;
      if (open && open.silenceMs >= 96) cutter.hintSentenceEnd(open.index, false, true);
    };
    expect(cutTimes(unknown, noSentence)).toEqual(fixed);
    // without a floor the cut is fixed
    expect(cutTimes(unknown, commitment, null)).toEqual(fixed);
  });

  it('speech after the hint clears it: the next pause waits the full 300 ms again', () => {
    const cutter = new UtteranceCutter({ silenceThresholdDbfs: THRESHOLD, speech: probe, adaptiveFloorMs: 200 });
    const pcm = signal([
      { speech: 300 },
      { zero: 64 },
      { speech: 300 },
      { zero: 64 },
      { speech: 300 },
      { zero: 64 },
      { speech: 300 },
      { zero: 180 },
      { speech: 500 },
      { zero: 600 },
    ]);
    let hinted = false;
    let hintedAtMs = Infinity;
    const cuts: number[] = [];
    for (let at = 0; at < pcm.length; at += ms(50)) {
      for (const u of cutter.push(pcm.subarray(at, at + ms(50)))) cuts.push(((at + ms(50)) * 1000) / RATE - (u.endSample * 1000) / RATE);
      const open = cutter.openUtterance;
      // the first pause (180 ms) is hinted as a sentence end as soon as it is seen, then speech goes on
      if (!hinted && open && open.silenceMs >= 90) {
        cutter.hintSentenceEnd(open.index, true);
        hinted = true;
        hintedAtMs = ((at + ms(50)) * 1000) / RATE;
      }
    }
    // hinted inside the first pause (it ends at 1572 ms), which is shorter than the floor
    expect(hintedAtMs).toBeLessThanOrEqual(4 * 300 + 3 * 64 + 180);
    expect(cuts).toHaveLength(1);
    // cut 300 ms after the speech ended (less the 150 ms kept after it), within one chunk and one window
    expect(cuts[0]!).toBeGreaterThanOrEqual(300 - 150 - 1);
  });
});
