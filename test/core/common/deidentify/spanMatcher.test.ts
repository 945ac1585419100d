import { describe, expect, it } from 'vitest';
import { parseDeidentifyList } from '../../../../core/common/deidentify/deidentifyList';
import { SpanMatcher } from '../../../../core/common/deidentify/spanMatcher';

const matcher = new SpanMatcher(
  parseDeidentifyList(
    'terms:\n  - {text: Sarah, class: PERSON}\n  - {text: Sarah Miller, class: PERSON}\n  - {text: New York, class: PLACE}\n  - {text: "O\'Brien", class: PERSON}\n',
  ),
);
const hidden = (text: string): Array<[string, string]> => matcher.find(text).map((s) => [text.slice(s.start, s.end), s.class]);

describe('SpanMatcher: listed terms', () => {
  it('matches case-insensitively on word boundaries, longest first', () => {
    expect(hidden('this sounds like my manager SARAH, or sarah miller?')).toEqual([
      ['SARAH', 'PERSON'],
      ['sarah miller', 'PERSON'],
    ]);
    expect(hidden('Sarahs and Sarahville and xSarah stay')).toEqual([]);
    expect(hidden("Sarah's idea")).toEqual([['Sarah', 'PERSON']]);
  });

  it('lets words of a term stand apart by spaces or hyphens, and either apostrophe', () => {
    expect(hidden('in New  York, new-york or NEW YORK')).toEqual([
      ['New  York', 'PLACE'],
      ['new-york', 'PLACE'],
      ['NEW YORK', 'PLACE'],
    ]);
    expect(hidden('Mr O’Brien called')).toEqual([['O’Brien', 'PERSON']]);
  });

  it('numbers the same term under one key whatever its case', () => {
    const keys = matcher.find('Sarah and SARAH').map((s) => s.key);
    expect(keys).toEqual(['term:sarah', 'term:sarah']);
  });
});

describe('SpanMatcher: the canonical form (textFold) of what must be hidden', () => {
  const list = new SpanMatcher(
    parseDeidentifyList(
      'terms:\n  - {text: Sarah, class: PERSON}\n  - {text: Miller, class: PERSON}\n  - {text: Müller, class: PERSON}\n  - {text: Sarah Miller, class: PERSON}\n  - {text: Ivy, class: PERSON}\npatterns: []\n',
    ),
  );
  const spans = (text: string): Array<[string, string]> => list.find(text).map((s) => [text.slice(s.start, s.end), s.key]);

  it.each([
    ['NFD', 'Frau Mu\u0308ller kam', 'Mu\u0308ller', 'term:rnuller'],
    ['full-width', 'ask \uff33\uff41\uff52\uff41\uff48 now', '\uff33\uff41\uff52\uff41\uff48', 'term:sarah'],
    [
      'mathematical bold',
      'ask \u{1d412}\u{1d41a}\u{1d42b}\u{1d41a}\u{1d421} now',
      '\u{1d412}\u{1d41a}\u{1d42b}\u{1d41a}\u{1d421}',
      'term:sarah',
    ],
    ['small capitals', 'ask s\u1d00\u0280\u1d00\u029c now', 's\u1d00\u0280\u1d00\u029c', 'term:sarah'],
    ['zero-width space', 'ask Sar\u200bah now', 'Sar\u200bah', 'term:sarah'],
    ['soft hyphen', 'ask Sar\u00adah now', 'Sar\u00adah', 'term:sarah'],
    ['zero-width joiner', 'ask Sa\u200drah now', 'Sa\u200drah', 'term:sarah'],
    ['Cyrillic look-alike', 'ask S\u0430rah now', 'S\u0430rah', 'term:sarah'],
    ['combining accent', 'ask Sa\u0301rah now', 'Sa\u0301rah', 'term:sarah'],
    ['underscore between words', 'ask Sarah_Miller now', 'Sarah_Miller', 'term:sarah rniller'],
    ['dotless i', 'ask M\u0131ller now', 'M\u0131ller', 'term:rniller'],
    ['capital I read as l', 'ask MiIIer now', 'MiIIer', 'term:rniller'],
    ['trailing combining mark', 'ask Sarah\u0301, now', 'Sarah\u0301', 'term:sarah'],
    ['after emoji and other characters outside the BMP', '\u{1f600}\u{1f600} \u{20000} Sarah said', 'Sarah', 'term:sarah'],
  ])('%s: hidden, mapped back to its exact verbatim span', (_, text, hiddenText, key) => {
    expect(spans(text)).toEqual([[hiddenText, key]]);
  });

  it('keeps word edges on the folded text and both readings of a capital I', () => {
    expect(spans('Sarahs, xSarah, Sarah2, Ivyland')).toEqual([]);
    expect(spans('IVY and ivy')).toEqual([
      ['IVY', 'term:ivy'],
      ['ivy', 'term:ivy'],
    ]);
  });

  it('matches terms with an automaton: thousands of terms, overlapping ones settled longest first', () => {
    const many = new SpanMatcher({
      terms: Array.from({ length: 5000 }, (_, i) => ({ text: `Name${i} Family${i}`, class: 'PERSON' })).concat([
        { text: 'Name17', class: 'PERSON' },
      ]),
      patterns: [],
      languages: ['en'],
    });
    const text = 'then Name17 Family17 and name4999  family4999 and Name17.';
    expect(many.find(text).map((s) => text.slice(s.start, s.end))).toEqual(['Name17 Family17', 'name4999  family4999', 'Name17']);
  });
});

describe('SpanMatcher: built-in patterns (en and de)', () => {
  const patterns = new SpanMatcher(parseDeidentifyList('terms:\n  - {text: Anna, class: PERSON}\n'));
  const found = (text: string): Array<[string, string]> => patterns.find(text).map((s) => [text.slice(s.start, s.end), s.class]);

  it('hides e-mail addresses, written and spoken, as one EMAIL even when a listed name is in them', () => {
    expect(found('mail anna.k@example.com today.')).toEqual([['anna.k@example.com', 'EMAIL']]);
    expect(found('write to anna at example dot com please')).toEqual([['anna at example dot com', 'EMAIL']]);
    expect(found('schreib an anna ät beispiel punkt de')).toEqual([['anna ät beispiel punkt de', 'EMAIL']]);
  });

  it('hides spoken contact data whole, in English and German: dot/at/underscore/dash, Punkt/ät/Klammeraffe/Unterstrich/Bindestrich', () => {
    expect(found('write to jonas dot weber at example dot com please')).toEqual([['jonas dot weber at example dot com', 'EMAIL']]);
    expect(found('jonas underscore weber at uni dash leipzig dot de')).toEqual([
      ['jonas underscore weber at uni dash leipzig dot de', 'EMAIL'],
    ]);
    expect(found('Schreib an Jonas Punkt Weber Klammeraffe Beispiel Punkt DE bitte')).toEqual([
      ['Jonas Punkt Weber Klammeraffe Beispiel Punkt DE', 'EMAIL'],
    ]);
    expect(found('anna unterstrich k ät beispiel bindestrich firma punkt de')).toEqual([
      ['anna unterstrich k ät beispiel bindestrich firma punkt de', 'EMAIL'],
    ]);
  });

  it('hides phone numbers said digit by digit (en and de), and leaves years and counts alone', () => {
    expect(found('call five five five, one two three four now')).toEqual([['five five five, one two three four', 'PHONE']]);
    expect(found('ruf null drei null, fünf fünf eins zwei drei an')).toEqual([['null drei null, fünf fünf eins zwei drei', 'PHONE']]);
    expect(found('plus four nine, double five one two three')).toEqual([['plus four nine, double five one two three', 'PHONE']]);
    expect(found('in 2019, 2020 and 2021 one or two people, three four five')).toEqual([]);
    expect(patterns.find('five five five one two three four and 555 1234').map((s) => s.key)).toEqual(['phone:5551234', 'phone:5551234']);
  });

  it('reads compatibility forms and invisibles in what patterns find: full-width digits, a zero-width space in an address', () => {
    expect(found('call \uff15\uff15\uff15 \uff11\uff12\uff13\uff14 now')).toEqual([
      ['\uff15\uff15\uff15 \uff11\uff12\uff13\uff14', 'PHONE'],
    ]);
    expect(found('mail anna@exa\u200bmple.com today')).toEqual([['anna@exa\u200bmple.com', 'EMAIL']]);
    expect(patterns.find('\uff15\uff15\uff15-1234 and 555 1234').map((s) => s.key)).toEqual(['phone:5551234', 'phone:5551234']);
  });

  it('hides URLs without their trailing punctuation', () => {
    expect(found('see https://example.org/a?b=1. And www.uni-leipzig.de, or shop.example.com/x')).toEqual([
      ['https://example.org/a?b=1', 'URL'],
      ['www.uni-leipzig.de', 'URL'],
      ['shop.example.com/x', 'URL'],
    ]);
  });

  it('hides phone numbers of seven digits or more, and long digit runs, but not small numbers or years', () => {
    expect(found("I'd call 555-1234 or +49 30 1234567 or (030) 123 45 67")).toEqual([
      ['555-1234', 'PHONE'],
      ['+49 30 1234567', 'PHONE'],
      ['(030) 123 45 67', 'PHONE'],
    ]);
    expect(found('my id is 12345678, it was 2019, 3 or 4 times, 10 000 people')).toEqual([['12345678', 'NUMBER']]);
  });

  it('hides dates in English and German forms', () => {
    expect(found('on March 3rd, 2021 or the 5th of May or 2024-01-05 or 12/31/99 or March third or June 2020')).toEqual([
      ['March 3rd, 2021', 'DATE'],
      ['the 5th of May', 'DATE'],
      ['2024-01-05', 'DATE'],
      ['12/31/99', 'DATE'],
      ['March third', 'DATE'],
      ['June 2020', 'DATE'],
    ]);
    expect(found('am 3. März 2021, am 12.05.2024, am 1.2. oder am dritten Mai')).toEqual([
      ['3. März 2021', 'DATE'],
      ['12.05.2024', 'DATE'],
      ['1.2.', 'DATE'],
      ['dritten Mai', 'DATE'],
    ]);
    expect(found('it may be so, in may')).toEqual([]);
    expect(found('1. 1. The reply, 2. 2. it says, am 3. 5. 2021')).toEqual([['3. 5. 2021', 'DATE']]);
  });

  it("finds a pattern split across two of whisper's tokens, since it matches on the joined text", () => {
    const tokens = [' call', ' 555', '-1234', ' now'];
    expect(found(tokens.join(''))).toEqual([['555-1234', 'PHONE']]);
  });

  it('only uses the patterns in force', () => {
    const none = new SpanMatcher(parseDeidentifyList('terms: []\npatterns: []\n'));
    expect(none.find('anna@example.com 555-1234 2024-01-05')).toEqual([]);
  });
});

describe('SpanMatcher on hostile text', () => {
  it('gets through 100 000-character notes built to make patterns backtrack, and still finds what is in them', () => {
    const all = new SpanMatcher(parseDeidentifyList('terms:\n  - {text: Sarah, class: PERSON}\n'));
    for (const unit of ['a.', '1 ', 'a@', 'http://x', 'a at b dot ', 'x-']) {
      const text = `${unit.repeat(Math.ceil(100_000 / unit.length)).slice(0, 100_000)} Sarah`;
      const spans = all.find(text);
      expect(spans.at(-1), unit).toMatchObject({ class: 'PERSON', end: text.length });
    }
  });
});
