import { describe, expect, it } from 'vitest';
import { countHesitation, hesitationOccurrences, hesitationSignals, transcriptLanguage } from '../../../../core/common/signals/hesitation';
import { DEFAULT_FILLERS, DEFAULT_HESITATION, hesitationListsFor } from '../../../../core/common/signals/hesitationLists';
import { computeTranscriptSignals } from '../../../../core/common/signals/transcriptSignals';

const en = (text: string) => countHesitation(text, 'en', DEFAULT_HESITATION.en!);
const de = (text: string) => countHesitation(text, 'de', DEFAULT_HESITATION.de!);
const legacy = (text: string, languages = ['en']) =>
  computeTranscriptSignals(text, { commitments: [] }, { fillers: DEFAULT_FILLERS, languages });

describe('hesitation by category (English)', () => {
  it('keeps filled pauses, hedges, repetitions and editing terms apart', () => {
    expect(en('Um, uh, I think it is, sort of, polite. Maybe. I, I mean, no wait, the the reply is fine.')).toEqual({
      filled_pause_count: 2,
      hedge_count: 3,
      repetition_count: 2,
      editing_term_count: 2,
    });
  });

  it('counts a filled pause held longer as its listed form, and spellings such as uhm', () => {
    expect(en('Ummm, hmmmm, uhm, errr, mm.').filled_pause_count).toBe(5);
    expect(en('An umbrella, a summer, very hmm-like.').filled_pause_count).toBe(1);
  });

  it('"like" as a verb or a comparison is no hedge; as a filler it is', () => {
    expect(en('I like this reply.').hedge_count).toBe(0);
    expect(en("I'd like a shorter one, they like it, don't like it.").hedge_count).toBe(0);
    expect(en('It sounds like a question, just like the last one, looks like rain.').hedge_count).toBe(0);
    expect(en("It's like a question.").hedge_count).toBe(0);
    expect(en("It's, like, really rude. Like, why?").hedge_count).toBe(2);
    // the legacy filler_count is kept exactly as it was: every "like" counts there
    expect(legacy('I like this reply.').filler_count).toBe(1);
  });

  it('"what kind of" and "a sort of" ask for a type; "kind of polite" hedges', () => {
    expect(en('What kind of reply is this? A sort of apology.').hedge_count).toBe(0);
    expect(en('It is kind of polite, sort of.').hedge_count).toBe(2);
  });

  it('a repetition is a word said again at once, also across a comma, a dash or an ellipsis; not across a full stop', () => {
    expect(en('I, I think so. It-it is. The... the end.').repetition_count).toBe(3);
    expect(en('No no no.').repetition_count).toBe(2);
    expect(en('Polite. Polite.').repetition_count).toBe(0);
    expect(en('I think that that is fine.').repetition_count).toBe(0); // a listed exception
    expect(en('Um, um, fine.')).toMatchObject({ filled_pause_count: 2, repetition_count: 0 });
  });

  it('editing terms may stand apart by a comma', () => {
    expect(en('Polite, no, wait, rude. I mean, actually, no. Or rather neutral.').editing_term_count).toBe(4);
    expect(en('No. Wait. I. Mean.').editing_term_count).toBe(0);
    expect(en('Polite, no wait, rude. Actually no, neutral.').editing_term_count).toBe(2);
  });
});

describe('hesitation by category (German)', () => {
  it('counts äh, ähm, öh, hm; "Ähm" too, which the legacy list misses', () => {
    expect(de('Ähm, äh, öh, hm, das ist höflich.').filled_pause_count).toBe(4);
    expect(legacy('Ähm, das ist höflich.').filler_count).toBe(0);
  });

  it('"um" before a time, a number, "zu", an article or a noun is a preposition', () => {
    expect(de('Wir treffen uns um drei Uhr, um 15 Uhr, um zu reden.').filled_pause_count).toBe(0);
    expect(de('Es geht um den Ton, um Höflichkeit.').filled_pause_count).toBe(0);
    expect(de('Also, um, ich glaube, äh, höflich.').filled_pause_count).toBe(2);
    // the legacy list counts every "um"
    expect(legacy('Wir treffen uns um drei Uhr.').filler_count).toBe(1);
  });

  it('hedges, editing terms and the German repetition exceptions', () => {
    expect(de('Vielleicht, ich glaube, irgendwie wahrscheinlich eher höflich.').hedge_count).toBe(5);
    expect(de('Höflich, nein warte, ich meine unhöflich.').editing_term_count).toBe(2);
    expect(de('Ich, ich finde, dass die die Antwort gut ist.').repetition_count).toBe(1);
  });
});

describe("the transcript's language decides the lists", () => {
  it('one language: that one; several: the one whose common words the transcript has most of, ties to the first', () => {
    expect(transcriptLanguage('Ähm, das ist höflich.', ['en'])).toBe('en');
    expect(transcriptLanguage('Ähm, das ist höflich, ich glaube.', ['en', 'de'])).toBe('de');
    expect(transcriptLanguage('Um, I think this is polite.', ['en', 'de'])).toBe('en');
    expect(transcriptLanguage('Hmm.', ['de', 'en'])).toBe('de');
  });

  it('so German "er" ("he") is no filled pause in a German transcript, and English "um" counts in an English one', () => {
    const thinkaloud = { languages: ['en', 'de'] };
    expect(hesitationSignals('Er sagt, das ist nicht höflich.', thinkaloud)).toMatchObject({
      hesitation_language: 'de',
      filled_pause_count: 0,
    });
    expect(hesitationSignals('Er, um, this is the reply.', thinkaloud)).toMatchObject({ hesitation_language: 'en', filled_pause_count: 2 });
  });

  it("aloud.yaml's lists replace that language's built-in list, the others stay", () => {
    const lists = hesitationListsFor('en', { en: { hedges: ['arguably'] } });
    expect(lists.hedges).toEqual(['arguably']);
    expect(lists.filled_pauses).toEqual(DEFAULT_HESITATION.en!.filled_pauses);
    expect(
      hesitationSignals('Arguably, maybe, polite.', { languages: ['en'], hesitation: { en: { hedges: ['arguably'] } } }).hedge_count,
    ).toBe(1);
    expect(hesitationListsFor('fr')).toEqual({ filled_pauses: [], hedges: [], editing_terms: [], repetition_exceptions: [] });
  });
});

describe('where each hesitation stands (the tiers of the ELAN and Praat exports)', () => {
  const heard = (text: string, languages = ['en']) =>
    hesitationOccurrences(text, { languages }).map((o) => `${o.category}:${text.slice(o.start, o.end)}`);

  it('names each counted hesitation at its place in the verbatim transcript, as many of each as its count', () => {
    const text = 'Um, uh, I think it is, sort of, polite. Maybe. I, I mean, no wait, the the reply is fine.';
    expect(heard(text)).toEqual([
      'filled_pause:Um',
      'filled_pause:uh',
      'hedge:I think',
      'hedge:sort of',
      'hedge:Maybe',
      'editing_term:I mean',
      'editing_term:no wait',
      'repetition:I',
      'repetition:the',
    ]);
    const counts = en(text);
    for (const category of ['filled_pause', 'hedge', 'repetition', 'editing_term'] as const) {
      expect(heard(text).filter((h) => h.startsWith(`${category}:`))).toHaveLength(counts[`${category}_count`]);
    }
  });

  it('uses the same context rules and language as the counts', () => {
    expect(heard('I like this reply, like, really.')).toEqual(['hedge:like']);
    expect(heard('Ähm, wir treffen uns um drei Uhr, äh, ich glaube schon.', ['en', 'de'])).toEqual([
      'filled_pause:Ähm',
      'filled_pause:äh',
      'hedge:ich glaube',
    ]);
  });

  it('offsets are those of the verbatim text, also where NFKC changes it (full-width letters, a ligature, decomposed marks)', () => {
    const text = 'ﬁne, ＵＭ, A\u0308hm, vielleicht.';
    expect(hesitationOccurrences(text, { languages: ['de'] }).map((o) => text.slice(o.start, o.end))).toEqual([
      'ＵＭ',
      'A\u0308hm',
      'vielleicht',
    ]);
  });
});
