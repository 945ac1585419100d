import { expect, it } from 'vitest';
import { createEndsWithCommitment } from '../../../../core/common/engine/endsWithCommitment';

const endsWithCommitment = createEndsWithCommitment({
  labels: [
    { name: 'Polite', synonyms: {} },
    { name: 'Impolite', synonyms: {} },
    { name: 'Neutral', synonyms: {} },
  ],
  languages: ['en'],
  stems: {},
});

it('is true only for a text whose last commit phrase is followed by nothing but a sentence end', () => {
  expect(endsWithCommitment('Hmm, well. I label this polite.')).toBe(true);
  expect(endsWithCommitment(' Final answer: neutral. ')).toBe(true);
  expect(endsWithCommitment('I label this impolite!')).toBe(true);
  // the sentence goes on, or has not ended
  expect(endsWithCommitment('I label this polite, I guess.')).toBe(false);
  expect(endsWithCommitment('I label this polite')).toBe(false);
  expect(endsWithCommitment('I label this polite...')).toBe(false);
  // no commitment: negated, or none at all
  expect(endsWithCommitment('I would not label this polite.')).toBe(false);
  expect(endsWithCommitment('This reply is kind of polite.')).toBe(false);
  expect(endsWithCommitment('')).toBe(false);
});
