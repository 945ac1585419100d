import { describe, expect, it } from 'vitest';
import { itemModelReasoning, splitReasoning } from '../../../../core/common/reasoning/reasoningSteps';

describe('splitReasoning (auto: numbered lines, then blank lines, then sentences)', () => {
  it('splits a list numbered 1, 2, 3 at its numbers, continuation lines staying with their step', () => {
    const text = '1. The user asks for a refund.\n2) The reply says no,\n   without apologising.\n3: So it is rude.';
    expect(splitReasoning(text)).toEqual({
      split: 'numbered',
      steps: ['1. The user asks for a refund.', '2) The reply says no,\n   without apologising.', '3: So it is rude.'],
    });
  });

  it('reads "Step 1:", "**Step 2**" and German "Schritt 3" as numbers', () => {
    const text = 'Step 1: greet.\n**Step 2** thank.\nSchritt 3 - verdict.';
    expect(splitReasoning(text)).toEqual({ split: 'numbered', steps: ['Step 1: greet.', '**Step 2** thank.', 'Schritt 3 - verdict.'] });
  });

  it("does not take a list that skips a number, or starts after a preamble, as numbered (step k must be the model's k)", () => {
    expect(splitReasoning('1. a\n3. b\n\n4. c').split).toBe('paragraphs');
    expect(splitReasoning('Let me think.\n1. a\n2. b').split).toBe('sentences');
  });

  it('does not read decimals or clock times as step numbers', () => {
    expect(splitReasoning('1.5 stars is low.\n10:30 is late.').steps).toEqual(['1.5 stars is low.', '10:30 is late.']);
    expect(splitReasoning('1.5 stars is low.\n10:30 is late.').split).toBe('sentences');
  });

  it('falls back to blank lines when there are at least two paragraphs', () => {
    const text = 'The reply thanks the user.\nIt is warm.\n\n  \n\nSo: polite.\n';
    expect(splitReasoning(text)).toEqual({ split: 'paragraphs', steps: ['The reply thanks the user.\nIt is warm.', 'So: polite.'] });
  });

  it('falls back to sentences; "e.g. this", "3.5" and a closing quote stay whole', () => {
    const text = 'It says "thanks!" Then it lists e.g. the price of 3.5 dollars. Is that rude? No… It is polite.';
    expect(splitReasoning(text)).toEqual({
      split: 'sentences',
      steps: ['It says "thanks!"', 'Then it lists e.g. the price of 3.5 dollars.', 'Is that rude?', 'No…', 'It is polite.'],
    });
  });

  it('one sentence is one step; blank text has none', () => {
    expect(splitReasoning('Polite.')).toEqual({ split: 'sentences', steps: ['Polite.'] });
    expect(splitReasoning('   \n ').steps).toEqual([]);
  });

  it('applies a configured rule alone', () => {
    const text = 'Intro.\n1. a. b.\n2. c\n\nd';
    expect(splitReasoning(text, 'numbered').steps).toEqual(['Intro.', '1. a. b.', '2. c\n\nd']);
    expect(splitReasoning(text, 'lines').steps).toEqual(['Intro.', '1. a. b.', '2. c', 'd']);
    expect(splitReasoning(text, 'paragraphs').steps).toEqual(['Intro.\n1. a. b.\n2. c', 'd']);
    expect(splitReasoning('A b. C d.', 'sentences').steps).toEqual(['A b.', 'C d.']);
    expect(splitReasoning(text, 'none')).toEqual({ split: 'none', steps: [text.trim()] });
    expect(splitReasoning('no numbers here. none at all.', 'numbered')).toEqual({
      split: 'none',
      steps: ['no numbers here. none at all.'],
    });
  });

  it('handles CRLF line ends like LF', () => {
    expect(splitReasoning('1. a\r\n2. b\r\n')).toEqual({ split: 'numbered', steps: ['1. a', '2. b'] });
  });
});

describe('itemModelReasoning', () => {
  it('uses given steps as given, splits a text by the configured rule, and is null without reasoning', () => {
    expect(itemModelReasoning({ model_steps: ['a. b.', 'c'], model_label: 'Polite' }, 'sentences')).toEqual({
      label: 'Polite',
      steps: ['a. b.', 'c'],
      split: 'given',
    });
    expect(itemModelReasoning({ model_reasoning: 'A. B.' }, 'none')).toEqual({ label: null, steps: ['A. B.'], split: 'none' });
    expect(itemModelReasoning({ model_label: 'Rude' })).toEqual({ label: 'Rude', steps: [], split: 'given' });
    expect(itemModelReasoning({})).toBeNull();
  });
});
