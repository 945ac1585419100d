/**
 * Prints timings of the commit-phrase parser on think-aloud-like transcripts of 100 to 5,000 words.
 * Run: npx tsx scripts/bench-parser.ts   (figures only; nothing is asserted)
 */
import { createCommitParser, parseCommitments } from '../core/common/parser/commitPhrase';
import type { ParseOptions } from '../core/common/parser/parseTypes';

const options: ParseOptions = {
  labels: [
    { name: 'Polite', synonyms: { en: ['courteous'], de: ['höflich'] } },
    { name: 'Impolite', synonyms: { en: ['rude'], de: ['unhöflich'] } },
    { name: 'Neutral', synonyms: { de: ['neutral'] } },
    { name: 'Very polite', synonyms: {} },
  ],
  languages: ['en', 'de'],
};

const SENTENCES = [
  'Hmm, well, this reply is, um, kind of polite, I guess.',
  'The tone is a bit curt but not really rude.',
  'I would not label this polite.',
  'It answers the question and it is, uh, fine.',
  'My answer is impolite.',
  'Uh, actually no.',
  'Final answer: neutral.',
  'I’ll go with polite or maybe neutral.',
  'Okay so I think I’ll go with my gut here.',
  'It thanks the user, which is nice, like, really nice.',
  'Ich wähle höflich.',
  'I label this polit.',
];

function transcriptOf(words: number): string {
  let text = '';
  let count = 0;
  for (let i = 0; count < words; i++) {
    const sentence = SENTENCES[i % SENTENCES.length]!;
    text += (text ? ' ' : '') + sentence;
    count += sentence.split(/\s+/).length;
  }
  return text;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(run: () => unknown, repeats: number): number {
  for (let i = 0; i < 20; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

const parser = createCommitParser(options);
console.log(`compile options (stems, labels, fillers): ${time(() => createCommitParser(options), 200).toFixed(3)} ms`);
for (const words of [100, 500, 2000, 5000]) {
  const transcript = transcriptOf(words);
  const result = parser(transcript);
  const compiled = time(() => parser(transcript), 200);
  const uncompiled = time(() => parseCommitments(transcript, options), 100);
  console.log(
    `${String(words).padStart(5)} words: ${compiled.toFixed(3)} ms with createCommitParser ` +
      `(${((compiled / words) * 100).toFixed(4)} ms per 100 words), ${uncompiled.toFixed(3)} ms with parseCommitments; ` +
      `${result.commitments.length} commitments, ${result.diagnostics.length} diagnostics`,
  );
}
