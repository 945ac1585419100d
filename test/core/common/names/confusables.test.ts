import { describe, expect, it } from 'vitest';
import { looksAlike, looksLikeWord, nameSkeletons } from '../../../../core/common/names/confusables';
import { annotatorNameProblem, encodedFileName, fileNameProblem, itemIdKey, itemIdProblem } from '../../../../core/common/names/nameRules';

describe('name skeletons (look-alikes)', () => {
  it.each([
    ['Ben', 'B\u0435n', 'a Cyrillic е'],
    ['Ben', '\u0412\u0415N', 'Cyrillic capitals В and Е'],
    ['Ben', '\uff22\uff45\uff4e', 'full-width letters'],
    ['Ben', '\ud835\udc01\ud835\udc1e\ud835\udc27', 'mathematical bold letters'],
    ['Bob', 'B\u03bfb', 'a Greek ο'],
    ['Bob', 'B0b', 'a zero'],
    ['Bill', 'BiII', 'capital I for l'],
    ['Ivy', 'ivy', 'case'],
    ['Ana Lee', 'Ana  Lee', 'a run of spaces'],
    ['Sam', 'Sarn', 'rn for m'],
    ['Zo\u00eb', 'Zoe\u0308', 'NFC and NFD'],
  ])('%s and %s look alike (%s)', (a, b) => {
    expect(looksAlike(a, b)).toBe(true);
    expect(looksAlike(b, a)).toBe(true);
  });

  it.each([
    ['Ana', 'Anna'],
    ['Ali', 'All'],
    ['Ben', 'Bén'],
    ['Eva', 'Ava'],
    ['Jo', 'Jon'],
  ])('%s and %s do not', (a, b) => {
    expect(looksAlike(a, b)).toBe(false);
  });

  it('"lead" in any look-alike form, punctuation aside, reads as lead; a name that contains more does not', () => {
    for (const name of ['lead', 'LEAD', 'Lead', 'l\u0435ad', 'L.E.A.D', 'IEAD', '[lead]', 'l e a d']) expect(looksLikeWord(name, 'lead'), name).toBe(true);
    for (const name of ['leader', 'Leah', 'Ed', 'lea']) expect(looksLikeWord(name, 'lead'), name).toBe(false);
  });

  it('is the same on every run (a fixed table): the skeletons of a few names', () => {
    expect(nameSkeletons('B\u0435n')).toEqual(['ben']);
    expect(nameSkeletons('Bill')).toEqual(['bill']);
    expect(nameSkeletons('BiII')).toEqual(['biii', 'bill']);
    expect(nameSkeletons('\u0421\u0430rn')).toEqual(['cam']);
  });
});

describe('name rules in file-name units', () => {
  it('counts what a session counts: a-z, 0-9, _ and - as 1, every other UTF-8 byte as 3', () => {
    expect(encodedFileName('ana-1_x')).toBe('ana-1_x');
    expect(encodedFileName('Ana')).toBe('%41na');
    expect(encodedFileName('\u6f22').length).toBe(9);
    expect(fileNameProblem('\u6f22'.repeat(22), 'item id')).toBeNull();
    expect(fileNameProblem('\u6f22'.repeat(23), 'item id')).toMatch(/207 characters once encoded, at most 200/);
  });

  it('refuses invisible and direction characters in annotator names and item ids, and keys ids as they read', () => {
    expect(annotatorNameProblem('ana\u200b')).toMatch(/U\+200B at position 4/);
    expect(itemIdProblem('d1\u202e')).toMatch(/U\+202E/);
    expect(itemIdProblem(' d1')).toMatch(/whitespace/);
    expect(itemIdKey('cafe\u0301')).toBe(itemIdKey('caf\u00e9'));
    expect(itemIdKey('d1\u200b')).toBe('d1');
  });
});
