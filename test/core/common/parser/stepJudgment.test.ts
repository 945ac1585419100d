import { describe, expect, it } from 'vitest';
import { parseStepJudgments, type StepJudgmentOptions, type StepJudgmentParse } from '../../../../core/common/parser/stepJudgment';

const english: StepJudgmentOptions = { languages: ['en'] };

/** The parse, with every quote checked to be the exact slice of the transcript at its offsets. */
function parse(transcript: string, options: StepJudgmentOptions = english): StepJudgmentParse {
  const result = parseStepJudgments(transcript, options);
  for (const found of [...result.judgments, ...result.diagnostics]) expect(transcript.slice(found.start, found.end)).toBe(found.quote);
  return result;
}

const judged = (transcript: string, options?: StepJudgmentOptions) =>
  parse(transcript, options).judgments.map((j) => [j.index, j.reward, j.kind]);
const diagnosed = (transcript: string, options?: StepJudgmentOptions) => parse(transcript, options).diagnostics.map((d) => d.kind);

describe('spoken step judgments', () => {
  it.each([
    ['Step three is wrong.', [[3, -1, 'step']]],
    ['step 2 is correct', [[2, 1, 'step']]],
    ['Step four is neutral', [[4, 0, 'step']]],
    ['The first error is step five.', [[5, -1, 'first_error']]],
    ['the first mistake is in step 2', [[2, -1, 'first_error']]],
    ['first error: step twelve', [[12, -1, 'first_error']]],
    [
      'Step number one is fine, step two is a mistake.',
      [
        [1, 1, 'step'],
        [2, -1, 'step'],
      ],
    ],
    ['step three is, um, definitely wrong', [[3, -1, 'step']]],
    ['Step 10 seems to be right', [[10, 1, 'step']]],
  ])('%j judges %j', (transcript, expected) => {
    expect(judged(transcript)).toEqual(expected);
  });

  it('keeps the quote and offsets of each phrase in the original transcript', () => {
    const transcript = 'Hmm, so… STEP Three is WRONG! And the first error is step five.';
    const { judgments } = parse(transcript);
    expect(judgments.map((j) => j.quote)).toEqual(['STEP Three is WRONG', 'the first error is step five']);
    expect(judgments[0]).toMatchObject({ start: 9, end: 28, language: 'en' });
  });

  it('keeps every judgment in the order said, so the last one per step can win', () => {
    expect(judged('step three is wrong. Actually no, step three is correct.')).toEqual([
      [3, -1, 'step'],
      [3, 1, 'step'],
    ]);
  });

  it.each([
    ['step three is not wrong', 'negated'],
    ["step three isn't correct", 'negated'],
    ["I don't think step three is wrong", 'negated'],
    ['step two is never right', 'negated'],
    ['the first error is not step five', 'negated'],
    ['step three is wrong?', 'ambiguous'],
    ['step three is wrong or right', 'ambiguous'],
    ['step three is right or not', 'ambiguous'],
  ])('%j judges nothing (%s)', (transcript, kind) => {
    expect(judged(transcript)).toEqual([]);
    expect(diagnosed(transcript)).toEqual([kind]);
  });

  it('a negation in an earlier sentence does not reach the next', () => {
    expect(judged("That's not it. Step three is wrong.")).toEqual([[3, -1, 'step']]);
  });

  it('nothing else said judges anything', () => {
    for (const transcript of [
      'the first mistake three',
      'The third step looks odd',
      'step three',
      'in step three it says wrong things',
      'is step three wrong',
      'I label this polite',
      'step is wrong',
      'steps three is wrong',
    ]) {
      expect(parse(transcript)).toEqual({ judgments: [], diagnostics: [] });
    }
  });

  it('reports a step beyond the shown reasoning as unknown, judging nothing', () => {
    expect(judged('step seven is wrong', { languages: ['en'], stepCount: 5 })).toEqual([]);
    expect(parse('step seven is wrong', { languages: ['en'], stepCount: 5 }).diagnostics[0]!.message).toContain('steps 1 to 5');
    expect(diagnosed('step zero is wrong')).toEqual(['unknown_step']);
  });

  it('understands German stems and number words, only when German is active', () => {
    const german = { languages: ['de'] };
    expect(judged('Schritt drei ist falsch. Schritt zwo ist richtig, Schritt 4 ist neutral.', german)).toEqual([
      [3, -1, 'step'],
      [2, 1, 'step'],
      [4, 0, 'step'],
    ]);
    expect(judged('Der erste Fehler ist in Schritt fünf', german)).toEqual([[5, -1, 'first_error']]);
    expect(judged('Schritt eins ist in Ordnung', german)).toEqual([[1, 1, 'step']]);
    expect(diagnosed('Schritt drei ist nicht falsch', german)).toEqual(['negated']);
    expect(diagnosed('Ich glaube nicht, dass Schritt drei falsch ist', german)).toEqual([]);
    expect(judged('Schritt drei ist falsch')).toEqual([]);
    expect(judged('step three is wrong, Schritt vier ist richtig', { languages: ['en', 'de'] })).toEqual([
      [3, -1, 'step'],
      [4, 1, 'step'],
    ]);
  });
});
