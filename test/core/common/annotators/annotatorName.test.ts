import { describe, expect, it } from 'vitest';
import { annotatorKey, existingAnnotator } from '../../../../core/common/annotators/annotatorName';

describe('annotator names', () => {
  it('names differing only by case or spacing are one annotator', () => {
    expect(existingAnnotator('ana', ['Ana', 'Kim'])).toBe('Ana');
    expect(existingAnnotator('  ANA ', ['Ana'])).toBe('Ana');
    expect(existingAnnotator('Mary  Jane', ['mary jane'])).toBe('mary jane');
    expect(existingAnnotator('Anna', ['Ana'])).toBeNull();
  });
  it('keys are NFKC-folded', () => {
    expect(annotatorKey('Ｋｉｍ')).toBe(annotatorKey('kim'));
  });
});
