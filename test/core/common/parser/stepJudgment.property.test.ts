import { describe, expect, it } from 'vitest';
import { createStepJudgmentParser } from '../../../../core/common/parser/stepJudgment';

/** Small deterministic PRNG (mulberry32) so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = [
  'step',
  'Step',
  'STEP',
  'number',
  'three',
  'two',
  '2',
  '17',
  '0',
  'twenty',
  'is',
  'was',
  'seems to be',
  'isn’t',
  "isn't",
  'not',
  'never',
  "don't",
  'wrong',
  'correct',
  'right',
  'neutral',
  'a mistake',
  'an error',
  'fine',
  'the',
  'first',
  'error',
  'mistake',
  'in',
  'or',
  'and',
  'um',
  'uh',
  'definitely',
  'Schritt',
  'drei',
  'zwo',
  'ist',
  'falsch',
  'richtig',
  'nicht',
  'der',
  'erste',
  'Fehler',
  'oder',
  'in Ordnung',
  'ﬁne',
  'ＳＴＥＰ',
  '😀',
  'st\u00ADep',
  'polite',
  'hmm',
  // phrase pieces, so whole judgments (and their near misses) come up often
  'step three is',
  'Step 4 is',
  'step twenty is',
  'Schritt drei ist',
  'the first error is step',
  'der erste Fehler ist Schritt',
];
const SEPARATORS = [' ', ' ', ' ', '  ', ', ', '. ', '? ', '! ', '; ', ': ', '\n', '… ', ' - ', ''];

function randomTranscript(next: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  let text = '';
  const words = Math.floor(next() * 30);
  for (let i = 0; i < words; i++) text += pick(VOCABULARY) + pick(SEPARATORS);
  return text;
}

describe('step-judgment parser properties over random transcripts', () => {
  const parse = createStepJudgmentParser({ languages: ['en', 'de'], stepCount: 12 });

  it('every quote is the exact slice at its offsets, indices stay in 1..stepCount, rewards on the scale', () => {
    const next = random(13);
    let judged = 0;
    for (let n = 0; n < 3000; n++) {
      const transcript = randomTranscript(next);
      const result = parse(transcript);
      for (const found of [...result.judgments, ...result.diagnostics]) {
        expect(found.end, transcript).toBeGreaterThan(found.start);
        expect(transcript.slice(found.start, found.end), transcript).toBe(found.quote);
      }
      for (const j of result.judgments) {
        expect(j.index).toBeGreaterThanOrEqual(1);
        expect(j.index).toBeLessThanOrEqual(12);
        expect([1, 0, -1]).toContain(j.reward);
        judged++;
      }
    }
    // the vocabulary makes judgments common enough for the properties to mean something
    expect(judged).toBeGreaterThan(200);
  });

  it('a transcript without a step word or "first"/"erste" judges nothing', () => {
    const next = random(7);
    for (let n = 0; n < 2000; n++) {
      const transcript = randomTranscript(next).replace(/step|schritt|first|erste|ＳＴＥＰ|st\u00ADep/giu, 'word');
      expect(parse(transcript).judgments, transcript).toEqual([]);
    }
  });

  it('a negation cue right after every copula leaves no step verdict', () => {
    const next = random(21);
    for (let n = 0; n < 2000; n++) {
      const transcript = randomTranscript(next)
        .replace(/\b(is|was|ist)\b/gu, (m) => `${m} ${m === 'ist' ? 'nicht' : 'not'}`)
        .replace(/seems to be/gu, 'seems not to be');
      // a first-error phrase may do without a copula ("first error: step five"), a step verdict never
      expect(
        parse(transcript).judgments.filter((j) => j.kind === 'step'),
        transcript,
      ).toEqual([]);
    }
  });
});
