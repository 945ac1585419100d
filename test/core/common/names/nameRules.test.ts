import { describe, expect, it } from 'vitest';
import { encodedFileName, fileNameProblem, itemIdKey, itemIdProblem } from '../../../../core/common/names/nameRules';
import { annotatorNameProblem } from '../../../../core/common/names/personNames';

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
