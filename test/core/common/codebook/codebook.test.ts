import { describe, expect, it } from 'vitest';
import { codebookProblems, formatCodebook, parseCodebook } from '../../../../core/common/codebook/codebook';
import { ConfigError, formatConfigProblem } from '../../../../core/common/project/projectConfig';

const problemsOf = (text: string): string[] => {
  try {
    parseCodebook(text, 'codebook.yaml');
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map(formatConfigProblem);
    throw e;
  }
  return [];
};

describe('codebook.yaml', () => {
  it('reads codes with nesting, examples and keys', () => {
    const codebook = parseCodebook(
      [
        'codes:',
        '  - name: Reasons',
        '    definition: Why the annotator chose the label.',
        '  - name: Cites the guideline',
        '    definition: Names a rule of the guidelines.',
        '    example: "the guide says thanks count as polite"',
        '    counter_example: "I just feel it is polite"',
        '    parent: Reasons',
        '    key: g',
        '',
      ].join('\n'),
    );
    expect(codebook.codes).toEqual([
      { name: 'Reasons', definition: 'Why the annotator chose the label.' },
      {
        name: 'Cites the guideline',
        definition: 'Names a rule of the guidelines.',
        example: 'the guide says thanks count as polite',
        counter_example: 'I just feel it is polite',
        parent: 'Reasons',
        key: 'g',
      },
    ]);
  });

  it('locates every problem by key path and line', () => {
    expect(problemsOf('codes:\n  - name: Doubts\n')).toEqual(['codebook.yaml:2: codes[0]: missing required key "definition"']);
    expect(problemsOf('codes:\n  - name: Doubts\n    definition: x\n    colour: red\n')).toEqual([
      'codebook.yaml:4: codes[0].colour: unknown key (not allowed here)',
    ]);
    expect(problemsOf('codes:\n  - {name: Doubts, definition: a}\n  - {name: doubts, definition: b}\n')).toEqual([
      'codebook.yaml:3: codes[1].name: duplicate code name "doubts" (also codes[0])',
    ]);
    expect(problemsOf('codes:\n  - {name: A, definition: a, parent: Nowhere}\n')).toEqual([
      'codebook.yaml:2: codes[0].parent: parent "Nowhere" is not a code of this codebook',
    ]);
    expect(problemsOf('codes:\n  - {name: A, definition: a, parent: B}\n  - {name: B, definition: b, parent: A}\n')).toEqual([
      'codebook.yaml:2: codes[0].parent: parents form a cycle through "A"',
      'codebook.yaml:3: codes[1].parent: parents form a cycle through "B"',
    ]);
    expect(problemsOf('codes:\n  - {name: A, definition: a, key: x}\n  - {name: B, definition: b, key: x}\n')).toEqual([
      'codebook.yaml:3: codes[1].key: key "x" is already used by codes[0]',
    ]);
    expect(problemsOf('codes:\n  - {name: A, definition: a, key: xy}\n')).toEqual([
      'codebook.yaml:2: codes[0].key: must match pattern "^\\S$"',
    ]);
    // the coding view's own keys (memo, in-vivo proposal, the definitions list) are no code's
    expect(
      problemsOf('codes:\n  - {name: A, definition: a}\n  - {name: B, definition: b, key: M}\n  - {name: C, definition: c, key: "?"}\n'),
    ).toEqual([
      'codebook.yaml:3: codes[1].key: key "M" is the coding view\'s shortcut for the memo; choose another',
      'codebook.yaml:4: codes[2].key: key "?" is the coding view\'s shortcut for the definitions and shortcuts; choose another',
    ]);
    expect(problemsOf('codes: [\n')[0]).toMatch(/^codebook\.yaml:2: \(top level\): YAML syntax/);
    expect(problemsOf('codes:\n  - {name: "  ", definition: a}\n')).toEqual(['codebook.yaml:2: codes[0].name: must match pattern "\\S"']);
  });

  it('writes what it reads back', () => {
    const codebook = {
      codes: [
        { name: 'A: "quoted"', definition: 'line one\nline two' },
        { name: 'B', definition: '', parent: 'A: "quoted"', key: '#' },
      ],
    };
    expect(codebookProblems(codebook, 'x')).toEqual([]);
    const text = formatCodebook(codebook, 'a header\nof two lines');
    expect(text.startsWith('# a header\n# of two lines\ncodes:\n')).toBe(true);
    expect(parseCodebook(text)).toEqual(codebook);
  });
});
