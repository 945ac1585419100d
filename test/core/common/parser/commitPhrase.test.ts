import { describe, expect, it } from 'vitest';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import { createCommitParser } from '../../../../core/common/parser/commitPhrase';
import { DEFAULT_STEMS } from '../../../../core/common/parser/defaultStems';
import type { ParseOptions } from '../../../../core/common/parser/parseTypes';
import { bilingual, committedLabels, diagnosticKinds, english, expectQuotesExact, german, parse, politeness } from './parserTestSupport';

const [EN_I_LABEL, EN_MODAL, EN_LABEL_THIS, EN_MY_ANSWER, EN_FINAL, , EN_CHOOSE, , , , EN_DEFINITELY] = DEFAULT_STEMS.en!;
const [DE_ICH_WAEHLE, DE_MEINE_ANTWORT, DE_ENDGUELTIG, DE_BEWERTE] = DEFAULT_STEMS.de!;

function labelsNamed(...names: string[]): LabelDef[] {
  return names.map((name) => ({ name, synonyms: {} }));
}

describe('default English stems commit', () => {
  it.each([
    ['I label this polite', EN_I_LABEL],
    ['I label it polite', EN_I_LABEL],
    ['I label that one as polite', EN_I_LABEL],
    ['I label this as polite', EN_I_LABEL],
    ["I'd label it polite", EN_MODAL],
    ["I'll mark this polite", EN_MODAL],
    ['I would call that polite', EN_MODAL],
    ['I will rate this one as polite', EN_MODAL],
    ["I'd classify it as polite", EN_MODAL],
    ["I'll tag this polite", EN_MODAL],
    ['Label this as polite', EN_LABEL_THIS],
    ['label it polite', EN_LABEL_THIS],
    ['My label is polite', EN_MY_ANSWER],
    ['My answer would be polite', EN_MY_ANSWER],
    ['my rating is polite', EN_MY_ANSWER],
    ['My choice is polite', EN_MY_ANSWER],
    ['My verdict is polite', EN_MY_ANSWER],
    ['The final answer is polite', EN_FINAL],
    ['Final answer: polite', EN_FINAL],
    ['final answer polite', EN_FINAL],
    ['I choose polite', EN_CHOOSE],
    ["I'll pick polite", EN_CHOOSE],
    ['I select polite', EN_CHOOSE],
    ["I'll go with polite", EN_CHOOSE],
    ['I say polite', EN_CHOOSE],
    ['This is definitely polite', EN_DEFINITELY],
    ['That one is definitely polite', EN_DEFINITELY],
    ['It is definitely polite', EN_DEFINITELY],
  ])('%s', (sentence, stem) => {
    const prefix = 'Okay. ';
    const result = parse(`${prefix}${sentence}.`);
    expect(result.commitments).toEqual([
      { label: 'Polite', quote: sentence, start: prefix.length, end: prefix.length + sentence.length, stem, language: 'en' },
    ]);
    expect(result.final_label).toBe('Polite');
    expect(result.diagnostics).toEqual([]);
  });
});

describe('default German stems commit when de is active', () => {
  it.each([
    ['Ich wähle höflich', DE_ICH_WAEHLE, 'Polite'],
    ['Ich nehme unhöflich', DE_ICH_WAEHLE, 'Impolite'],
    ['ich sage neutral', DE_ICH_WAEHLE, 'Neutral'],
    ['Meine Antwort ist höflich', DE_MEINE_ANTWORT, 'Polite'],
    ['meine Wahl ist unhöflich', DE_MEINE_ANTWORT, 'Impolite'],
    ['Meine Bewertung ist höflich', DE_MEINE_ANTWORT, 'Polite'],
    ['Endgültige Antwort: höflich', DE_ENDGUELTIG, 'Polite'],
    ['Finale Antwort ist neutral', DE_ENDGUELTIG, 'Neutral'],
    ['Ich bewerte das als höflich', DE_BEWERTE, 'Polite'],
    ['Ich markiere dies unhöflich', DE_BEWERTE, 'Impolite'],
    ['ICH BEWERTE ES ALS HÖFLICH', DE_BEWERTE, 'Polite'],
  ])('%s', (sentence, stem, label) => {
    for (const options of [german, bilingual]) {
      const result = parse(`Also. ${sentence}.`, options);
      expect(result.commitments).toEqual([{ label, quote: sentence, start: 6, end: 6 + sentence.length, stem, language: 'de' }]);
    }
  });

  it('German stems do nothing when only English is active', () => {
    expect(parse('Ich wähle höflich.', english).commitments).toEqual([]);
  });

  it('English stems do nothing when only German is active, but label names match in any language', () => {
    expect(parse('I label this polite.', german).commitments).toEqual([]);
    expect(committedLabels(parse('Ich nehme Neutral.', german))).toEqual(['Neutral']);
  });
});

describe('negation', () => {
  it('a cue before the stem in the same clause blocks it: "I would not label this polite"', () => {
    const result = parse('I would not label this polite.');
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'not label this polite', stem: EN_LABEL_THIS }]);
  });

  it("n't before the stem blocks it: \"I don't think I'd label it polite\"", () => {
    const result = parse("I don't think I'd label it polite.");
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: "don't think I'd label it polite", stem: EN_MODAL }]);
  });

  it("n't with a curly apostrophe blocks too", () => {
    const result = parse('I wouldn’t label it polite.');
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'wouldn’t label it polite' }]);
  });

  it('a cue between the stem and the label blocks it: "I label this not polite"', () => {
    const result = parse('I label this not polite.');
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'I label this not polite', stem: EN_I_LABEL }]);
  });

  it('a negation in an earlier sentence does not block', () => {
    const result = parse("It's not rude. I label this polite.");
    expect(committedLabels(result)).toEqual(['Polite']);
    expect(result.diagnostics).toEqual([]);
  });

  it.each(['Not rude! I label this polite', 'Never mind; I label this polite', 'Is it not rude? I label this polite'])(
    'every clause end (. ! ? ;) ends the reach of a cue: %s',
    (transcript) => {
      expect(committedLabels(parse(transcript))).toEqual(['Polite']);
    },
  );

  it('a comma ends the clause, so a negation before it does not reach the next phrase: "Not rude, I label this polite"', () => {
    expect(committedLabels(parse('Not rude, I label this polite'))).toEqual(['Polite']);
    const result = parse('I would not label this polite, final answer neutral.');
    expect(committedLabels(result)).toEqual(['Neutral']);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'not label this polite' }]);
  });

  it('"but" and "aber" end the clause too; a comma beside a filler does not', () => {
    expect(committedLabels(parse("I don't like it but I label this neutral."))).toEqual(['Neutral']);
    expect(committedLabels(parse('Ich mag es nicht aber ich nehme neutral.', german))).toEqual(['Neutral']);
    const filler = parse('I would not, uh, label this polite.');
    expect(filler.commitments).toEqual([]);
    expect(diagnosticKinds(filler)).toEqual(['negated']);
  });

  it('"no longer" blocks', () => {
    const result = parse('I no longer label this polite.');
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'no longer label this polite' }]);
  });

  it('"never" blocks', () => {
    expect(diagnosticKinds(parse("I'd never label this polite."))).toEqual(['negated']);
  });

  it('a negation after the label does not block: "I label this polite, not rude"', () => {
    expect(committedLabels(parse('I label this polite, not rude.'))).toEqual(['Polite']);
  });

  it('a cue between stem and label is reported even with a word between cue and label', () => {
    const result = parse('I label this not very polite.');
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'I label this not very polite' }]);
  });

  it('German "nicht" between stem and label blocks', () => {
    const result = parse('Ich sage nicht höflich.', german);
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'Ich sage nicht höflich' }]);
    expect(diagnosticKinds(parse('Ich bewerte das nicht als höflich.', german))).toEqual(['negated']);
  });

  it('German "nicht" before the stem blocks in the same clause only', () => {
    expect(diagnosticKinds(parse('Ich bin nicht sicher ich wähle höflich.', german))).toEqual(['negated']);
    expect(committedLabels(parse('Das ist nicht höflich, ich wähle unhöflich.', german))).toEqual(['Impolite']);
    const later = parse('Das ist nicht höflich. Ich wähle unhöflich.', german);
    expect(committedLabels(later)).toEqual(['Impolite']);
    expect(later.diagnostics).toEqual([]);
  });

  it('German "kein"/"keine" block in their clause', () => {
    const result = parse('Kein Zweifel ich wähle unhöflich.', german);
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'Kein Zweifel ich wähle unhöflich' }]);
    expect(diagnosticKinds(parse('Ich wähle keine höflich.', german))).toEqual(['negated']);
    expect(committedLabels(parse('Kein Zweifel, ich wähle unhöflich.', german))).toEqual(['Impolite']);
  });

  it('a label that contains a cue is a label, not a negation', () => {
    const toxicity: ParseOptions = { labels: labelsNamed('Toxic', 'Not toxic'), languages: ['en'] };
    expect(committedLabels(parse('I label this not toxic.', toxicity))).toEqual(['Not toxic']);
    expect(committedLabels(parse('It is clearly not toxic, so I label this not toxic.', toxicity))).toEqual(['Not toxic']);
    expect(committedLabels(parse('I label this toxic.', toxicity))).toEqual(['Toxic']);
    const negated = parse('I would not label this toxic.', toxicity);
    expect(negated.commitments).toEqual([]);
    expect(diagnosticKinds(negated)).toEqual(['negated']);
  });

  it('a cue after a stem does not reach past the clause end into the next phrase', () => {
    const result = parse('I label this not. I label this polite.');
    expect(result.commitments).toMatchObject([{ label: 'Polite', quote: 'I label this polite', start: 18 }]);
    expect(result.diagnostics).toEqual([]);
  });

  it('a negated stem with no label after it reports nothing', () => {
    const result = parse("I wouldn't say that again.");
    expect(result).toEqual({ commitments: [], final_label: null, diagnostics: [] });
  });
});

describe('ambiguity', () => {
  it.each([
    ['I label this polite or neutral', 'I label this polite or neutral'],
    ['I label this polite and impolite', 'I label this polite and impolite'],
    ['I label this polite or, um, maybe rude', 'I label this polite or, um, maybe rude'],
    ['I label this polite or rather neutral', 'I label this polite or rather neutral'],
    ['I label this polite or not', 'I label this polite or not'],
  ])('%s → ambiguous, nothing committed', (transcript, quote) => {
    const result = parse(`${transcript}.`);
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'ambiguous', quote, stem: EN_I_LABEL }]);
  });

  it('German: "höflich oder neutral" is ambiguous', () => {
    const result = parse('Ich wähle höflich oder neutral.', german);
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'ambiguous', quote: 'Ich wähle höflich oder neutral' }]);
  });

  it('the same label twice commits that label', () => {
    const result = parse('I label this polite or polite.');
    expect(result.commitments).toMatchObject([{ label: 'Polite', quote: 'I label this polite' }]);
    expect(committedLabels(parse('I label this impolite and rude.'))).toEqual(['Impolite']);
  });

  it('an everyday "and ..." after the label still commits', () => {
    expect(committedLabels(parse('I label this polite and move on to the next one.'))).toEqual(['Polite']);
  });

  it('a second label in a new clause after "and" is not looked for', () => {
    expect(committedLabels(parse('I label this polite and. Neutral ones are rare.'))).toEqual(['Polite']);
  });
});

describe('labels contained in other labels', () => {
  it.each([
    { order: 'schema order', labels: politeness },
    { order: 'reversed', labels: [...politeness].reverse() },
  ])('"polite" never matches Impolite and "impolite" never matches Polite ($order)', ({ labels }) => {
    const options: ParseOptions = { labels, languages: ['en'] };
    expect(committedLabels(parse('I label this impolite.', options))).toEqual(['Impolite']);
    expect(committedLabels(parse('I label this polite.', options))).toEqual(['Polite']);
  });
});

describe('spoken forms, never fuzzy guessing', () => {
  it('a misspelt label commits nothing: "polit", "courteus"', () => {
    expect(parse('I label this polit.').commitments).toEqual([]);
    expect(parse('I label this courteus.').commitments).toEqual([]);
  });

  it('derived forms of a name commit: split and hyphenated prefixes, "in" heard for "im"', () => {
    for (const said of ['in polite', 'im polite', 'im-polite', 'in-polite']) {
      expect(parse(`My answer is ${said}.`).commitments).toMatchObject([{ label: 'Impolite', quote: `My answer is ${said}` }]);
    }
    expect(committedLabels(parse('Meine Antwort ist un-höflich.', german))).toEqual(['Impolite']);
  });

  it('compound names: "not-toxic" and "nottoxic" name "Not toxic"', () => {
    const options: ParseOptions = { labels: labelsNamed('Toxic', 'Not toxic'), languages: ['en'] };
    expect(committedLabels(parse('I label this not-toxic.', options))).toEqual(['Not toxic']);
    expect(committedLabels(parse('I label this nottoxic.', options))).toEqual(['Not toxic']);
  });

  it('a derived form two labels share names neither: "in polite" with labels Impolite and Inpolite', () => {
    const options: ParseOptions = { labels: labelsNamed('Impolite', 'Inpolite', 'Polite'), languages: ['en'] };
    expect(parse('My answer is in polite.', options).commitments).toEqual([]);
    expect(committedLabels(parse('My answer is inpolite.', options))).toEqual(['Inpolite']);
  });

  it('"very impolite" is not "Very polite"', () => {
    const options: ParseOptions = { labels: labelsNamed('Very polite', 'Polite', 'Impolite'), languages: ['en'] };
    expect(committedLabels(parse('I label this very impolite.', options))).toEqual([]);
    expect(committedLabels(parse('I label this very polite.', options))).toEqual(['Very polite']);
  });
});

describe('synonyms', () => {
  it('English synonyms', () => {
    expect(committedLabels(parse('I label this rude.'))).toEqual(['Impolite']);
    expect(committedLabels(parse("I'd call it courteous."))).toEqual(['Polite']);
  });

  it("German synonyms count only when German is active, with any active language's stems", () => {
    expect(parse('I label this höflich.', english).commitments).toEqual([]);
    expect(committedLabels(parse('I label this höflich.', bilingual))).toEqual(['Polite']);
    expect(committedLabels(parse('Ich wähle unhöflich.', bilingual))).toEqual(['Impolite']);
    expect(committedLabels(parse('Ich wähle rude.', bilingual))).toEqual(['Impolite']);
  });
});

describe('custom stems', () => {
  const custom: ParseOptions = { labels: politeness, languages: ['en', 'de'], stems: { en: ['I vote (for)'] } };

  it('replace the defaults of that language', () => {
    expect(parse('I vote for polite.', custom).commitments).toMatchObject([
      { label: 'Polite', quote: 'I vote for polite', stem: 'I vote (for)', language: 'en' },
    ]);
    expect(committedLabels(parse('I vote rude.', custom))).toEqual(['Impolite']);
    expect(parse('I label this polite. My answer is polite.', custom).commitments).toEqual([]);
  });

  it('leave the other languages on their defaults', () => {
    expect(committedLabels(parse('Ich wähle höflich.', custom))).toEqual(['Polite']);
  });

  it('for an inactive language are ignored', () => {
    const options: ParseOptions = { labels: politeness, languages: ['en'], stems: { de: ['ich stimme für'] } };
    expect(parse('Ich stimme für höflich.', options).commitments).toEqual([]);
    expect(committedLabels(parse('I label this polite.', options))).toEqual(['Polite']);
  });

  it('a language with neither custom nor default stems has none', () => {
    expect(parse('I label this polite.', { labels: politeness, languages: ['fr'] }).commitments).toEqual([]);
  });

  it('a malformed custom stem is an error naming where it is', () => {
    expect(() => createCommitParser({ labels: politeness, languages: ['en'], stems: { en: ['I vote', 'I (pick'] } })).toThrow(
      /^stems\.en\[1\]: invalid stem pattern "I \(pick": "\(" at character 3 is never closed/,
    );
  });
});

describe('the last commitment wins', () => {
  it('across different phrasings', () => {
    const result = parse('My answer is impolite. Actually, I label this polite.');
    expect(committedLabels(result)).toEqual(['Impolite', 'Polite']);
    expect(result.final_label).toBe('Polite');
  });

  it('also when the same phrasing is repeated', () => {
    const transcript = 'I label this polite. I label this impolite. I label this polite.';
    const result = parse(transcript);
    expect(committedLabels(result)).toEqual(['Polite', 'Impolite', 'Polite']);
    expect(result.commitments.map((c) => c.start)).toEqual([0, 21, 44]);
    expect(result.final_label).toBe('Polite');
  });

  it('identical repeats are separate commitments', () => {
    const result = parse('My answer is neutral. My answer is neutral.');
    expect(result.commitments.map((c) => [c.quote, c.start])).toEqual([
      ['My answer is neutral', 0],
      ['My answer is neutral', 22],
    ]);
  });
});

describe('multi-word labels', () => {
  const options: ParseOptions = { labels: labelsNamed('Polite', 'Very polite', 'Impolite'), languages: ['en'] };

  it('the longest label wins: "very polite" → Very polite', () => {
    expect(parse('I label this very polite.', options).commitments).toMatchObject([
      { label: 'Very polite', quote: 'I label this very polite' },
    ]);
    expect(committedLabels(parse('I label this polite.', options))).toEqual(['Polite']);
    expect(committedLabels(parse('I label this, um, Very  Polite!', options))).toEqual(['Very polite']);
  });

  it('a multi-word synonym counts', () => {
    const withSynonym: ParseOptions = {
      labels: [
        { name: 'Impolite', synonyms: { en: ['not nice'] } },
        { name: 'Polite', synonyms: {} },
      ],
      languages: ['en'],
    };
    expect(committedLabels(parse("I'd call it not nice.", withSynonym))).toEqual(['Impolite']);
  });
});

describe('overlapping stems', () => {
  it('the longest stem is used: "I label this one as polite" is one commitment with the full stem', () => {
    expect(parse('I label this one as polite.').commitments).toEqual([
      { label: 'Polite', quote: 'I label this one as polite', start: 0, end: 26, stem: EN_I_LABEL, language: 'en' },
    ]);
  });

  it('"I\'d label it polite" does not also commit through "label it"', () => {
    expect(parse("I'd label it polite.").commitments).toMatchObject([{ quote: "I'd label it polite", stem: EN_MODAL }]);
  });

  it('a stem that leads nowhere lets a later one commit once', () => {
    expect(parse('I label this, I label this polite.').commitments).toMatchObject([{ quote: 'I label this polite', start: 14 }]);
    expect(parse("I'll go with, my answer is polite.").commitments).toMatchObject([{ quote: 'my answer is polite', stem: EN_MY_ANSWER }]);
  });

  it('a label that is the optional word of a stem still commits ("one")', () => {
    const options: ParseOptions = { labels: labelsNamed('One', 'Two'), languages: ['en'] };
    expect(parse('I label this one.', options).commitments).toMatchObject([{ label: 'One', quote: 'I label this one' }]);
    expect(committedLabels(parse('I label this one as two.', options))).toEqual(['Two']);
  });
});

describe('fillers between stem and label', () => {
  it('any number of default fillers, multi-word ones too', () => {
    expect(parse('I label this, um, uh, polite.').commitments).toMatchObject([{ quote: 'I label this, um, uh, polite' }]);
    expect(committedLabels(parse('My answer is, I think, kind of, rude.'))).toEqual(['Impolite']);
  });

  it('options.fillers replaces the default fillers; filled pauses (um, äh) are always skipped', () => {
    const options: ParseOptions = { ...english, fillers: ['you know'] };
    expect(committedLabels(parse('I label this, you know, polite.', options))).toEqual(['Polite']);
    expect(parse('I label this sort of polite.', options).commitments).toEqual([]);
    expect(committedLabels(parse('I label this um polite.', options))).toEqual(['Polite']);
    expect(committedLabels(parse('Ich wähle, ähm, höflich.', german))).toEqual(['Polite']);
  });

  it('nothing else may stand between: "I label this reply polite" commits nothing', () => {
    expect(parse('I label this reply polite.')).toEqual({ commitments: [], final_label: null, diagnostics: [] });
  });

  it('a label that is also a filler is a label', () => {
    const options: ParseOptions = { labels: labelsNamed('Yes', 'No', 'Maybe'), languages: ['en'] };
    expect(committedLabels(parse("I'll say maybe.", options))).toEqual(['Maybe']);
  });
});

describe('unknown labels and everyday continuations', () => {
  it('"My answer is purple." → unknown_label "purple"', () => {
    const result = parse('My answer is purple.');
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'unknown_label', quote: 'My answer is purple', stem: EN_MY_ANSWER }]);
    expect(result.diagnostics[0]!.message).toContain('Polite, Impolite, Neutral');
  });

  it('two content words before a pause, or a word before a filler, are reported too', () => {
    expect(parse('Final answer: light blue.').diagnostics).toMatchObject([{ kind: 'unknown_label', quote: 'Final answer: light blue' }]);
    expect(parse("I'll go with blue I guess").diagnostics).toMatchObject([{ kind: 'unknown_label', quote: "I'll go with blue" }]);
  });

  it.each(["I'll say that again.", "I think I'll go with my gut.", "I'd call it a day.", "I'll pick it up later.", 'I choose to read on.'])(
    '%s → nothing at all',
    (transcript) => {
      expect(parse(transcript)).toEqual({ commitments: [], final_label: null, diagnostics: [] });
    },
  );

  it('a word running on into the sentence is not reported', () => {
    expect(parse("I'll go with purple things in mind").diagnostics).toEqual([]);
  });
});

describe('questions do not commit', () => {
  it('"Should I label this polite? No, rude." commits nothing', () => {
    const result = parse('Should I label this polite? No, rude.');
    expect(result.commitments).toEqual([]);
    expect(result.diagnostics).toMatchObject([{ kind: 'ambiguous', quote: 'Should I label this polite' }]);
  });

  it('a question elsewhere, or a tag question after other words, does not block', () => {
    expect(committedLabels(parse('Is it rude? I label this polite.'))).toEqual(['Polite']);
    expect(committedLabels(parse('I label this polite, right?'))).toEqual(['Polite']);
  });
});

describe('a phrase split across recording chunks', () => {
  it('counts once the segment texts are joined', () => {
    const transcript = [' Hmm, okay.', ' I label this', ' polite.'].join('');
    expect(parse(transcript).commitments).toEqual([
      { label: 'Polite', quote: 'I label this polite', start: 12, end: 31, stem: EN_I_LABEL, language: 'en' },
    ]);
  });

  it('also when the engine closed the first chunk with a full stop', () => {
    const transcript = [' My answer is.', ' Impolite.'].join('');
    expect(parse(transcript).commitments).toMatchObject([{ label: 'Impolite', quote: 'My answer is. Impolite' }]);
  });
});

describe('offsets and quotes in the original transcript', () => {
  it('curly apostrophes: "I’ll go with polite"', () => {
    const transcript = 'So… I’ll go with polite.';
    expect(parse(transcript).commitments).toEqual([
      { label: 'Polite', quote: 'I’ll go with polite', start: 4, end: 23, stem: EN_CHOOSE, language: 'en' },
    ]);
  });

  it('NFKC-changing characters before and inside the phrase', () => {
    const before = 'ﬁne ﬁne, ＯＫ. ';
    const transcript = `${before}I label this polite.`;
    expect(parse(transcript).commitments).toMatchObject([{ quote: 'I label this polite', start: before.length, end: before.length + 19 }]);
    const fullWidth = 'Ｉ ｌａｂｅｌ ｔｈｉｓ ｐｏｌｉｔｅ';
    expect(parse(`Hm. ${fullWidth}`).commitments).toMatchObject([{ label: 'Polite', quote: fullWidth, start: 4 }]);
  });

  it('multiple spaces, tabs and newlines are kept in the quote', () => {
    const transcript = 'I   label\tthis\n\n  polite  .';
    expect(parse(transcript).commitments).toMatchObject([{ quote: 'I   label\tthis\n\n  polite', start: 0, end: 24 }]);
  });

  it('combining marks stay with their letter (decomposed umlaut)', () => {
    const transcript = 'Ich wähle ho\u0308flich.';
    expect(parse(transcript, german).commitments).toMatchObject([{ label: 'Polite', quote: 'Ich wähle ho\u0308flich', end: 18 }]);
  });

  it('characters outside the BMP before the phrase', () => {
    const transcript = '😀😀 ok, I label this rude 👍';
    expect(parse(transcript).commitments).toMatchObject([{ label: 'Impolite', quote: 'I label this rude', start: 9, end: 26 }]);
  });

  it('diagnostic quotes are exact too', () => {
    const transcript = 'I  would ＮＯＴ label this   polite.';
    expect(parse(transcript).diagnostics).toMatchObject([{ kind: 'negated', quote: 'ＮＯＴ label this   polite' }]);
  });
});

describe('the fixture transcripts', () => {
  it('commit-polite: "kind of polite" commits nothing, the phrase commits Polite once', () => {
    const transcript = 'Hmm, well. This reply is, um, kind of polite, I guess. I label this polite.';
    const result = parse(transcript);
    expect(result.commitments).toEqual([
      { label: 'Polite', quote: 'I label this polite', start: 55, end: 74, stem: EN_I_LABEL, language: 'en' },
    ]);
    expect(result.final_label).toBe('Polite');
    expect(result.diagnostics).toEqual([]);
  });

  it('change-to-neutral: two commitments, final Neutral', () => {
    const result = parse('My answer is impolite. Uh, actually no. Final answer: neutral.');
    expect(result.commitments).toEqual([
      { label: 'Impolite', quote: 'My answer is impolite', start: 0, end: 21, stem: EN_MY_ANSWER, language: 'en' },
      { label: 'Neutral', quote: 'Final answer: neutral', start: 40, end: 61, stem: EN_FINAL, language: 'en' },
    ]);
    expect(result.final_label).toBe('Neutral');
    expect(result.diagnostics).toEqual([]);
  });

  it('negated-then-impolite: a negated diagnostic, then Impolite', () => {
    const result = parse('I would not label this polite. It is rude. I label this impolite.');
    expect(result.diagnostics).toMatchObject([{ kind: 'negated', quote: 'not label this polite', start: 8, end: 29, stem: EN_LABEL_THIS }]);
    expect(result.commitments).toEqual([
      { label: 'Impolite', quote: 'I label this impolite', start: 43, end: 64, stem: EN_I_LABEL, language: 'en' },
    ]);
    expect(result.final_label).toBe('Impolite');
  });
});

describe('createCommitParser', () => {
  it('a compiled parser gives the same result as parseCommitments, transcript after transcript', () => {
    const parser = createCommitParser(bilingual);
    for (const transcript of ['I label this polite.', 'Ich wähle unhöflich.', 'My answer is purple.', '']) {
      const result = parser(transcript);
      expectQuotesExact(transcript, result);
      expect(result).toEqual(parse(transcript, bilingual));
    }
  });

  it('an empty or punctuation-only transcript has no commitments', () => {
    expect(parse('')).toEqual({ commitments: [], final_label: null, diagnostics: [] });
    expect(parse(' ... ?! ')).toEqual({ commitments: [], final_label: null, diagnostics: [] });
  });
});

describe('sentences too long to judge', () => {
  it('a phrase with more than 60 words of its sentence before or after it (no punctuation) commits nothing', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    expect(committedLabels(parse(`${words(30)} and I label this polite.`))).toEqual(['Polite']);
    expect(parse(`if ${words(70)} and I label this polite.`).commitments).toEqual([]);
    expect(parse(`I label this polite and ${words(70)} if so.`).commitments).toEqual([]);
    expect(committedLabels(parse(`${words(70)}. I label this polite. ${words(70)}`))).toEqual(['Polite']);
  });
});
