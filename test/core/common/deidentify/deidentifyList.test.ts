import { describe, expect, it } from 'vitest';
import { parseDeidentifyList } from '../../../../core/common/deidentify/deidentifyList';
import { ConfigError, formatConfigProblem } from '../../../../core/common/project/strictYaml';

const problemsOf = (text: string): string[] => {
  try {
    parseDeidentifyList(text, 'deidentify.yaml');
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map(formatConfigProblem);
    throw e;
  }
  return [];
};

describe('deidentify.yaml', () => {
  it('reads terms with their classes and the defaults', () => {
    const list = parseDeidentifyList(
      'version: 3\nterms:\n  - {text: Sarah Miller, class: PERSON}\n  - {text: Leipzig, class: PLACE}\n  - {text: ACME, class: EMPLOYER}\n',
    );
    expect(list).toEqual({
      version: '3',
      terms: [
        { text: 'Sarah Miller', class: 'PERSON' },
        { text: 'Leipzig', class: 'PLACE' },
        { text: 'ACME', class: 'EMPLOYER' },
      ],
      patterns: ['email', 'url', 'phone', 'digits', 'date'],
      languages: ['en', 'de'],
      audio: 'silence',
      margin_ms: 150,
    });
    expect(parseDeidentifyList('terms: []\naudio: tone\nmargin_ms: 0\npatterns: [email]\nlanguages: [de]\n')).toMatchObject({
      version: 'unversioned',
      audio: 'tone',
      margin_ms: 0,
      patterns: ['email'],
      languages: ['de'],
    });
  });

  it('refuses unknown keys, bad classes and bounds with file, line and key path', () => {
    expect(problemsOf('terms:\n  - {text: Sarah, class: PERSON, note: x}\n')).toEqual([
      'deidentify.yaml:2: terms[0].note: unknown key (not allowed here)',
    ]);
    expect(problemsOf('terms:\n  - text: Sarah\n    class: person\n')).toEqual([
      'deidentify.yaml:3: terms[0].class: must match pattern "^[A-Z][A-Z0-9_]{0,31}$"',
    ]);
    expect(problemsOf('terms: []\nmargin_ms: 1e26\n')[0]).toMatch(/^deidentify\.yaml:2: margin_ms: must be/);
    expect(problemsOf('terms: []\naudio: beep\n')).toEqual(['deidentify.yaml:2: audio: must be one of "silence", "tone"']);
    expect(problemsOf('terms: []\npatterns: [names]\n')[0]).toMatch(/^deidentify\.yaml:2: patterns\[0\]: must be one of/);
    expect(problemsOf('version: 1\n')).toEqual(['deidentify.yaml:1: (top level): missing required key "terms"']);
    expect(problemsOf('terms: [\n')[0]).toMatch(/^deidentify\.yaml:\d+: \(top level\): YAML syntax/);
  });

  it('refuses a term listed twice, with spaces around it, without a letter, or with an invisible character', () => {
    expect(problemsOf('terms:\n  - {text: Sarah, class: PERSON}\n  - {text: SARAH, class: PLACE}\n')).toEqual([
      'deidentify.yaml:3: terms[1].text: term "SARAH" is listed twice (also terms[0], compared as the matcher reads them: case, accents and look-alikes folded)',
    ]);
    expect(problemsOf('terms:\n  - {text: " Sarah", class: PERSON}\n')).toEqual([
      'deidentify.yaml:2: terms[0].text: term " Sarah" has leading or trailing spaces',
    ]);
    expect(problemsOf('terms:\n  - {text: "--", class: PERSON}\n')[0]).toMatch(/has no letter or digit/);
    expect(problemsOf('terms:\n  - {text: "Sa\\u200brah", class: PERSON}\n')[0]).toMatch(/control or invisible character/);
  });
});
