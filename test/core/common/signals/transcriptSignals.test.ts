import { describe, expect, it } from 'vitest';
import type { Commitment, ParseResult } from '../../../../core/common/parser/parseTypes';
import { DEFAULT_FILLERS } from '../../../../core/common/signals/hesitationLists';
import { computeTranscriptSignals, wordTokens } from '../../../../core/common/signals/transcriptSignals';
import { joinSegments } from '../../../../core/common/transcript/joinSegments';

const noParse: ParseResult = { commitments: [], final_label: null, diagnostics: [] };
const english = { fillers: DEFAULT_FILLERS, languages: ['en'] };

/** A commitment of `label` whose quote is the first occurrence of `quote` in `transcript` (after `from`). */
function commitment(transcript: string, quote: string, label: string, from = 0): Commitment {
  const start = transcript.indexOf(quote, from);
  if (start < 0) throw new Error(`test setup: "${quote}" not in transcript`);
  return { label, quote, start, end: start + quote.length, stem: 'I label this', language: 'en' };
}

function parseOf(commitments: Commitment[]): ParseResult {
  return { commitments, final_label: commitments.at(-1)?.label ?? null, diagnostics: [] };
}

const fillersOf = (transcript: string, fillers: readonly string[] = DEFAULT_FILLERS) => {
  const s = computeTranscriptSignals(transcript, noParse, { fillers, languages: ['en'] });
  return { count: s.filler_count, byTerm: s.fillers_by_term };
};

describe('word tokens', () => {
  it('counts Unicode words; an apostrophe inside a word keeps it one word', () => {
    expect(wordTokens("Don't stop, it's 3 o'clock")).toEqual(["don't", 'stop', "it's", '3', "o'clock"]);
    expect(wordTokens('I’m sure')).toEqual(["i'm", 'sure']); // typographic apostrophe folds to '
    expect(wordTokens("'quoted' rock 'n' roll")).toEqual(['quoted', 'rock', 'n', 'roll']);
    expect(wordTokens('snake_case 42 x2')).toEqual(['snake_case', '42', 'x2']);
  });

  it('is Unicode-aware where JS \\w is not', () => {
    expect(wordTokens('Äh, das ist höflich — naïve café!')).toEqual(['äh', 'das', 'ist', 'höflich', 'naïve', 'café']);
    expect(wordTokens('nai\u0308ve cafe\u0301')).toEqual(['naïve', 'café']); // decomposed input is composed by NFKC
    expect(wordTokens('यह विनम्र है')).toEqual(['यह', 'विनम्र', 'है']); // vowel signs are marks: kept inside the word
    expect(wordTokens('ＵＭ ﬁne')).toEqual(['um', 'fine']); // NFKC folds full-width letters and ligatures
  });

  it('word_count counts every word, fillers included', () => {
    expect(computeTranscriptSignals(' Hmm, well. This reply is, um, kind of polite, I guess.', noParse, english).word_count).toBe(11);
    expect(computeTranscriptSignals('', noParse, english).word_count).toBe(0);
    expect(computeTranscriptSignals(' ... !', noParse, english).word_count).toBe(0);
  });
});

describe('fillers', () => {
  it('counts the fillers of the commit-polite clip, by term, with every term present', () => {
    const { count, byTerm } = fillersOf(' Hmm, well. This reply is, um, kind of polite, I guess. I label this polite.');
    expect(count).toBe(4);
    expect(byTerm).toEqual({ um: 1, uh: 0, hmm: 1, er: 0, like: 0, 'i guess': 1, maybe: 0, 'i think': 0, 'sort of': 0, 'kind of': 1 });
    expect(Object.keys(byTerm)).toEqual([...DEFAULT_FILLERS]); // stable shape and order for exports
  });

  it('matches whole words only: not "um" in "umbrella", "like" in "likely", "er" in "very", nor "umm"', () => {
    expect(fillersOf('An umbrella is likely very summery, umm.')).toMatchObject({ count: 0 });
    expect(fillersOf('Um, the umbrella, um.').byTerm.um).toBe(2);
  });

  it('is case-insensitive after NFKC, and keys are the terms as configured', () => {
    const { byTerm } = fillersOf('I guess. i GUESS, Ｉ ｇｕｅｓｓ! UM', ['I Guess', 'um']);
    expect(byTerm).toEqual({ 'I Guess': 3, um: 1 });
  });

  it('a multi-word filler matches consecutive words separated by whitespace or a hyphen, not across punctuation', () => {
    expect(fillersOf('kind of', ['kind of']).count).toBe(1);
    expect(fillersOf('kind \n of', ['kind of']).count).toBe(1);
    expect(fillersOf('kind-of', ['kind of']).count).toBe(1);
    // a comma or full stop between the words is a boundary the transcriber heard: "kind. Of course" is no filler
    expect(fillersOf('kind, of', ['kind of']).count).toBe(0);
    expect(fillersOf('It is that kind. Of course it is.', ['kind of']).count).toBe(0);
    expect(fillersOf('kind', ['kind of']).count).toBe(0);
  });

  it('longest match first, left to right: a word is consumed once', () => {
    expect(fillersOf('kind of like', ['like', 'kind of'])).toEqual({ count: 2, byTerm: { like: 1, 'kind of': 1 } });
    expect(fillersOf('I think so, I said', ['i', 'i think'])).toEqual({ count: 2, byTerm: { i: 1, 'i think': 1 } });
    expect(fillersOf('sort of kind of', ['of', 'sort of', 'kind of'])).toEqual({ count: 2, byTerm: { of: 0, 'sort of': 1, 'kind of': 1 } });
    expect(fillersOf('you know you know', ['you know', 'know you'])).toEqual({ count: 2, byTerm: { 'you know': 2, 'know you': 0 } });
  });

  it('two terms that fold to the same words: the first listed gets the count', () => {
    expect(fillersOf('um UM', ['Um', 'um'])).toEqual({ count: 2, byTerm: { Um: 2, um: 0 } });
  });

  it('a filler with no word in it is a configuration error naming it', () => {
    expect(() => fillersOf('um', ['um', '...'])).toThrow('fillers[1] ("...") contains no word');
  });
});

describe('commitments', () => {
  it('counts commitments and label changes between consecutive ones', () => {
    const t = 'I label this polite. No, impolite. I label this impolite. Final answer: neutral. Final answer: neutral.';
    const parse = parseOf([
      commitment(t, 'I label this polite', 'polite'),
      commitment(t, 'I label this impolite', 'impolite'),
      commitment(t, 'answer: neutral', 'neutral'),
      commitment(t, 'answer: neutral', 'neutral', t.indexOf('neutral') + 1),
    ]);
    const s = computeTranscriptSignals(t, parse, english);
    expect(s).toMatchObject({ commitment_count: 4, label_changes: 2, time_to_first_commit_ms: null, time_to_final_commit_ms: null });
  });

  it('no commitments: zero counts and null times, even with timing', () => {
    const joined = joinSegments([{ t0_ms: 0, t1_ms: 1000, text: ' Hmm.' }]);
    expect(computeTranscriptSignals(joined.text, noParse, { fillers: [], languages: ['en'] }, joined)).toEqual({
      filler_count: 0,
      fillers_by_term: {},
      filled_pause_count: 1,
      hedge_count: 0,
      repetition_count: 0,
      editing_term_count: 0,
      hesitation_language: 'en',
      word_count: 1,
      commitment_count: 0,
      label_changes: 0,
      time_to_first_commit_ms: null,
      time_to_final_commit_ms: null,
    });
  });

  it('times a commitment at the end of its quote (when the commit phrase was complete)', () => {
    // " My answer is impolite." 0..1700 ms (23 chars) · " Uh, actually no." 3200..4900 · " Final answer: neutral." 5800..7800 (23 chars)
    const joined = joinSegments([
      { t0_ms: 0, t1_ms: 1700, text: ' My answer is impolite.' },
      { t0_ms: 3200, t1_ms: 4900, text: ' Uh, actually no.' },
      { t0_ms: 5800, t1_ms: 7800, text: ' Final answer: neutral.' },
    ]);
    const t = joined.text;
    const first = commitment(t, 'My answer is impolite', 'impolite'); // ends at offset 22 of 23 in span 1
    const final = commitment(t, 'answer: neutral', 'neutral', 30); // ends at offset 62 = span 3 start 40 + 22
    const s = computeTranscriptSignals(t, parseOf([first, final]), english, joined);
    expect(first.end).toBe(22);
    expect(final.end).toBe(62);
    expect(s.time_to_first_commit_ms).toBeCloseTo((22 / 23) * 1700, 9);
    expect(s.time_to_final_commit_ms).toBeCloseTo(5800 + (22 / 23) * 2000, 9);
    expect(s).toMatchObject({ commitment_count: 2, label_changes: 1, filler_count: 1 });
  });

  it('a commitment that does not fit the timing is an error, not a made-up time', () => {
    const joined = joinSegments([{ t0_ms: 0, t1_ms: 500, text: ' short' }]);
    const parse = parseOf([{ label: 'polite', quote: 'x', start: 40, end: 41, stem: 's', language: 'en' }]);
    expect(() => computeTranscriptSignals(joined.text, parse, { fillers: [], languages: ['en'] }, joined)).toThrow(
      /commitment end 41 does not fit the segment timing/,
    );
  });
});
