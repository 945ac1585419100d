import { describe, expect, it } from 'vitest';
import {
  annotatorNameProblem,
  clashingName,
  existingName,
  normalizeAnnotatorName,
  sameName,
  lookAlikeOf,
  looksLikeWord,
  nameFormProblem,
  sameNameKey,
  TakenNames,
} from '../../../../core/common/names/personNames';

describe('the one rule for names of people and codes', () => {
  it('names differing only by case, spacing or compatibility form are one name', () => {
    expect(existingName('ana', ['Ana', 'Kim'])).toBe('Ana');
    expect(existingName('  ANA ', ['Ana'])).toBe('Ana');
    expect(existingName('Mary  Jane', ['mary jane'])).toBe('mary jane');
    expect(existingName('Anna', ['Ana'])).toBeNull();
    expect(sameNameKey('Ｋｉｍ')).toBe(sameNameKey('kim'));
    // one name in another Unicode form (mathematical bold, a combining diaeresis) is that name, not a second person
    expect(existingName('\ud835\udc01\ud835\udc1e\ud835\udc27', ['Ben'])).toBe('Ben');
    expect(existingName('Mu\u0308ller', ['Müller'])).toBe('Müller');
  });

  it.each([
    ['bob', 'b\u043eb', 'a Cyrillic о'],
    ['alice', '\u0430lice', 'a Cyrillic а'],
    ['Ben', '\u0412\u0415N', 'Cyrillic capitals'],
    ['Bob', 'B0b', 'a zero'],
    ['Bill', 'BiII', 'capital I for l'],
    ['Sam', 'Sarn', 'rn for m'],
    ['Doubts', 'D\u043eubts', 'a code name with a Cyrillic о'],
  ])('%s and %s: the second is refused as a look-alike of the first (%s)', (existing, typed) => {
    expect(lookAlikeOf(typed, [existing])).toBe(existing);
    expect(new TakenNames([existing]).add(typed)).toBe(existing);
  });

  it('a name is not a look-alike of itself or of another spelling of itself, and different names are not look-alikes', () => {
    expect(lookAlikeOf('bob', ['bob'])).toBeNull();
    expect(lookAlikeOf('Bob', ['bob'])).toBeNull();
    for (const [a, b] of [
      ['Ana', 'Anna'],
      ['Ali', 'All'],
      ['Eva', 'Ava'],
      ['Jo', 'Jon'],
    ])
      expect(lookAlikeOf(a!, [b!]), `${a} ${b}`).toBeNull();
    const taken = new TakenNames(['bob']);
    expect(taken.add('Bob')).toBeNull();
    expect(taken.add('carla')).toBeNull();
    expect(taken.add('c\u0430rla')).toBe('carla');
  });

  it.each([
    ['ana\u202e', /U\+202E at position 4/, 'an RTL override'],
    ['\u2066ana\u2069', /U\+2066 at position 1/, 'a bidi isolate'],
    ['an\u200ba', /U\+200B at position 3/, 'a zero-width space'],
    ['an\u2060a', /U\+2060/, 'a word joiner (default-ignorable)'],
    ['a\u0007b', /control character/, 'a control character'],
    ['x'.repeat(201), /too long \(201 characters, at most 200\)/, 'over 200 characters'],
    ['  ', /must not be empty/, 'blank'],
  ])('%j is refused (%s)', (name, message) => {
    expect(nameFormProblem(name, 'code name')).toMatch(message);
  });

  it('"lead" in any look-alike form reads as lead; a name that contains more does not', () => {
    for (const name of ['lead', 'LEAD', 'l\u0435ad', 'L.E.A.D', 'IEAD', '[lead]', 'l e a d'])
      expect(looksLikeWord(name, 'lead'), name).toBe(true);
    for (const name of ['leader', 'Leah', 'Ed', 'lea']) expect(looksLikeWord(name, 'lead'), name).toBe(false);
  });
});

describe('one person, one name', () => {
  it('stores a name NFC and trimmed, and judges the same person by case, spacing and compatibility form', () => {
    expect(normalizeAnnotatorName(' Zoe\u0308 ')).toBe('Zo\u00eb');
    expect(sameName('Ana', ' ana')).toBe(true);
    expect(sameName('ａｎａ', 'Ana')).toBe(true);
    expect(sameName('Ana  Lee', 'ana lee')).toBe(true);
    expect(sameName('ana', '\u0430na')).toBe(false);
  });

  it('a new name clashes with the same person spelled another way and with a look-alike, never with itself', () => {
    const held = ['ana', 'bob'];
    expect(clashingName('ana', held)).toBeNull();
    expect(clashingName('carla', held)).toBeNull();
    expect(clashingName('Ana', held)).toBe('ana');
    expect(clashingName('b\u043eb', held)).toBe('bob');
  });

  it('a person name that cannot name a session says why', () => {
    expect(annotatorNameProblem('ana')).toBeNull();
    expect(annotatorNameProblem('a\u200bna')).toMatch(/invisible or text-direction character \(U\+200B at position 2\)/);
  });
});
