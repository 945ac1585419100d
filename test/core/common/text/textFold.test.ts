import { describe, expect, it } from 'vitest';
import { caselessKey, foldForMatching, foldedKeys, looksAlike } from '../../../../core/common/text/textFold';

describe('foldForMatching', () => {
  it.each([
    ['full-width', 'Ｓａｒａｈ'],
    ['mathematical bold', '𝐒𝐚𝐫𝐚𝐡'],
    ['small capitals', 'ꜱᴀʀᴀʜ'],
    ['zero-width space', 'Sar\u200bah'],
    ['soft hyphen', 'Sar\u00adah'],
    ['zero-width joiner', 'Sar\u200dah'],
    ['bidi override', '\u202eSarah\u202c'],
    ['Cyrillic a', 'S\u0430rah'],
    ['combining accent', 'Sa\u0301rah'],
    ['upper case', 'SARAH'],
  ])('folds %s to the listed name', (_, written) => {
    expect(foldForMatching(written).text).toBe(foldForMatching('Sarah').text);
  });

  it('folds NFD and NFC and upper case of a German name alike, and a dotless i to i', () => {
    const key = foldForMatching('Müller').text;
    for (const written of ['Mu\u0308ller', 'MÜLLER', 'Muller']) expect(foldForMatching(written).text).toBe(key);
    expect(foldForMatching('M\u0131ller').text).toBe(foldForMatching('Miller').text);
    expect(foldForMatching('Straße').text).toBe(foldForMatching('STRASSE').text);
  });

  it('makes one space of any run of word separators', () => {
    expect(foldForMatching('Sarah_Miller').text).toBe(foldForMatching('Sarah - Miller').text);
    expect(foldForMatching('Sarah.Miller').text).toBe(foldForMatching('sarah miller').text);
  });

  it('maps every folded character back to its span of the original', () => {
    const original = 'I met Ｊｏ\u200bnas_W\u0435ber.';
    const folded = foldForMatching(original);
    const at = folded.text.indexOf(foldForMatching('Jonas Weber').text);
    expect(at).toBeGreaterThan(0);
    const end = at + foldForMatching('Jonas Weber').text.length - 1;
    expect(original.slice(folded.starts[at], folded.ends[end])).toBe('Ｊｏ\u200bnas_W\u0435ber');
  });
});

describe('looksAlike', () => {
  it('joins look-alikes and keeps different names apart', () => {
    expect(looksAlike('bob', 'b\u043eb')).toBe(true);
    expect(looksAlike('Sally', 'SaIly')).toBe(true);
    expect(looksAlike('Ivy', 'ivy')).toBe(true);
    expect(looksAlike('bob', 'rob')).toBe(false);
    expect(looksAlike('Anna', 'Ana')).toBe(false);
  });

  it('gives a capital I both readings', () => {
    expect(foldedKeys('Ivy')).toEqual(['ivy', 'lvy']);
    expect(foldedKeys('bob')).toEqual(['bob']);
  });
});

describe('caselessKey', () => {
  it('joins case and compatibility forms, and nothing else', () => {
    for (const spelled of ['Doubt', 'DOUBT', 'ｄｏｕｂｔ', 'doubt']) expect(caselessKey(spelled)).toBe('doubt');
    expect(caselessKey('ﬁne')).toBe('fine');
    // look-alikes from another script stay different words (foldForMatching joins them)
    expect(caselessKey('dоubt')).not.toBe('doubt');
    expect(foldForMatching('dоubt').text).toBe('doubt');
    // marks and spaces are kept: "résumé" is not "resume"
    expect(caselessKey('Résumé')).toBe('résumé');
    expect(caselessKey(' a  b ')).toBe(' a  b ');
  });

  it('is NFKC after lower case too, and folding again changes nothing', () => {
    for (const text of ['İstanbul', 'ΑΣ', 'Ǆ', 'ẞ', 'ｶﾞ']) {
      const key = caselessKey(text);
      expect(key).toBe(key.normalize('NFKC'));
      expect(caselessKey(key)).toBe(key);
    }
  });
});
