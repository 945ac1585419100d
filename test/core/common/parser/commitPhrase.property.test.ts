import { describe, expect, it } from 'vitest';
import { createCommitParser } from '../../../../core/common/parser/commitPhrase';
import { DEFAULT_STEMS } from '../../../../core/common/parser/defaultStems';
import type { ParseOptions } from '../../../../core/common/parser/parseTypes';
import { expectQuotesExact, politeness } from './parserTestSupport';

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
  'I',
  'label',
  'this',
  'it',
  'that',
  'one',
  'as',
  "I'd",
  'I’ll',
  'I will',
  'would',
  'call',
  'rate',
  'mark',
  'my',
  'answer',
  'rating',
  'is',
  'would be',
  'the',
  'final',
  'final answer',
  'choose',
  'pick',
  'go with',
  'say',
  'definitely',
  'polite',
  'Polite',
  'impolite',
  'IMPOLITE',
  'neutral',
  'rude',
  'courteous',
  'polit',
  'impolit',
  'purple',
  'light blue',
  'not',
  "don't",
  'don’t',
  'never',
  'no longer',
  'no',
  'or',
  'and',
  'oder',
  'und',
  'um',
  'uh',
  'I guess',
  'kind of',
  'like',
  'ich',
  'wähle',
  'nehme',
  'meine',
  'Antwort',
  'ist',
  'endgültige',
  'bewerte',
  'das',
  'als',
  'höflich',
  'unhöflich',
  'nicht',
  'kein',
  'ho\u0308flich',
  'ﬁne',
  'ＯＫ',
  'Ｉ',
  '😀',
  'po\u00ADlite',
  'again',
  'reply',
  'hmm',
  'well',
];
const SEPARATORS = [' ', ' ', ' ', '  ', ', ', '. ', '? ', '! ', '; ', ': ', '\n', '\t', '… ', ' - ', '', '’', "'"];

function randomTranscript(next: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const wordCount = Math.floor(next() * 40);
  let text = next() < 0.3 ? pick(SEPARATORS) : '';
  for (let i = 0; i < wordCount; i++) text += pick(VOCABULARY) + pick(SEPARATORS);
  return text;
}

describe('parser properties over random transcripts', () => {
  const options: ParseOptions = { labels: politeness, languages: ['en', 'de'] };
  const parser = createCommitParser(options);
  const labelNames = new Set(politeness.map((l) => l.name));

  it('never throws, quotes every match exactly, keeps commitments in order and final_label the last', () => {
    const next = random(20240611);
    let commitments = 0;
    let diagnostics = 0;
    for (let round = 0; round < 3000; round++) {
      const transcript = randomTranscript(next);
      const result = parser(transcript);
      expectQuotesExact(transcript, result);
      for (const c of result.commitments) expect(labelNames.has(c.label)).toBe(true);
      result.commitments.forEach((c, i) => {
        if (i > 0) expect(c.start).toBeGreaterThanOrEqual(result.commitments[i - 1]!.end);
      });
      commitments += result.commitments.length;
      diagnostics += result.diagnostics.length;
    }
    // the vocabulary is rich enough that all outcomes occur, so the checks above are exercised
    expect(commitments).toBeGreaterThan(15);
    expect(diagnostics).toBeGreaterThan(100);
  });

  it('a clean commitment between random sentences is always found, quoted at its offset', () => {
    const next = random(77);
    for (let round = 0; round < 1000; round++) {
      const before = `${randomTranscript(next)}. `;
      const chunks = [' I label this', ' polite.'];
      const transcript = `${before}${chunks.join('')} Well. ${randomTranscript(next)}`;
      const result = parser(transcript);
      const start = before.length + 1;
      expect(result.commitments).toContainEqual({
        label: 'Polite',
        quote: 'I label this polite',
        start,
        end: start + 19,
        stem: DEFAULT_STEMS.en![0],
        language: 'en',
      });
    }
  });

  it('the same commitment after another subject, or with a condition, never commits', () => {
    const next = random(4242);
    for (let round = 0; round < 1000; round++) {
      const before = `${randomTranscript(next)}. `;
      for (const said of [
        'Someone might label this polite.',
        'They would say polite.',
        "I'd label this polite if it were shorter.",
        'I was going to label this polite.',
      ]) {
        const result = parser(`${before}${said} Well. ${randomTranscript(next)}`);
        expect(result.commitments.filter((c) => c.start >= before.length && c.start < before.length + said.length)).toEqual([]);
      }
    }
  });
});
