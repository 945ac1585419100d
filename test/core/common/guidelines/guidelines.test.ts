import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { codebookVersion, parseCodebook } from '../../../../core/common/codebook/codebook';
import { GuidelineHistoryFold, labelNamedIn } from '../../../../core/common/guidelines/guidelineHistory';
import { withGuidelinesInForce } from '../../../../core/common/guidelines/guidelineLogging';
import {
  codeGuidelinesInForce,
  guidelineChanges,
  guidelineIn,
  labelGuidelinesInForce,
  labelGuidelineVersion,
  type GuidelineInForce,
} from '../../../../core/common/guidelines/guidelines';
import { ConfigError, formatConfigProblem, parseProjectConfig } from '../../../../core/common/project/projectConfig';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const project = (politeGuideline: string, rudeGuideline = '') =>
  [
    'name: t',
    'schema:',
    '  name: s',
    '  labels:',
    '    - name: Polite',
    '      key: "1"',
    politeGuideline,
    '    - name: Rude',
    rudeGuideline,
    '',
  ]
    .filter((l) => l !== '')
    .join('\n');

const problemsOf = (text: string): string[] => {
  try {
    parseProjectConfig(text);
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map(formatConfigProblem);
    throw e;
  }
};

describe('guidelines in aloud.yaml', () => {
  it('reads a plain definition (the project language) and per-language texts and lists', () => {
    const config = parseProjectConfig(
      project(
        [
          '      definition: {en: Courteous towards the reader, de: Höflich zum Leser}',
          '      examples: {en: ["Thank you so much"], de: ["Vielen Dank"]}',
          '      counter_examples: ["Thanks, I guess"]',
        ].join('\n'),
        '      definition: Dismissive or insulting',
      ),
    );
    expect(config.schema.labels[0]).toMatchObject({
      definition: { en: 'Courteous towards the reader', de: 'Höflich zum Leser' },
      examples: { en: ['Thank you so much'], de: ['Vielen Dank'] },
      counter_examples: ['Thanks, I guess'],
    });
    expect(config.schema.labels[1]!.definition).toBe('Dismissive or insulting');
  });

  it('keeps a project without guidelines valid and without a version', () => {
    const config = parseProjectConfig(project(''));
    expect(labelGuidelinesInForce(config, sha256)).toBeNull();
  });

  it('refuses a wrong shape with one line naming the file, line and field', () => {
    expect(problemsOf(project('      definition: 3'))).toEqual([
      'aloud.yaml:7: schema.labels[0].definition: must be a text that is not empty, or one per language ({en: …, de: …})',
    ]);
    expect(problemsOf(project('      definition: {english: Courteous}'))).toEqual([
      'aloud.yaml:7: schema.labels[0].definition.english: "english" is not a language code (two or three lower-case letters, e.g. en, de)',
    ]);
    expect(problemsOf(project('      examples: {de: ["ok", ""]}'))).toEqual([
      'aloud.yaml:7: schema.labels[0].examples.de[1]: must be a text that is not empty',
    ]);
    expect(problemsOf(project('      counter_examples: Thanks'))).toEqual([
      'aloud.yaml:7: schema.labels[0].counter_examples: must be a list of texts, or one per language ({en: …, de: …})',
    ]);
  });
});

describe('the guideline version', () => {
  const labels = [
    { name: 'Polite', definition: { en: 'Courteous', de: 'Höflich' }, examples: ['Thank you'] },
    { name: 'Rude', definition: 'Dismissive' },
  ];

  it('is 12 hex digits that change with any meaning and not with order, keys or map order', () => {
    const v = labelGuidelineVersion(labels, 'en', sha256)!;
    expect(v).toMatch(/^[0-9a-f]{12}$/);
    expect(labelGuidelineVersion([...labels].reverse(), 'en', sha256)).toBe(v);
    expect(labelGuidelineVersion([{ ...labels[0]!, definition: { de: 'Höflich', en: 'Courteous' } }, labels[1]!], 'en', sha256)).toBe(v);
    expect(labelGuidelineVersion([{ ...labels[0]!, key: '1' } as never, labels[1]!], 'en', sha256)).toBe(v);
    expect(labelGuidelineVersion([{ ...labels[0]!, definition: { en: 'Courteous.', de: 'Höflich' } }, labels[1]!], 'en', sha256)).not.toBe(
      v,
    );
    expect(labelGuidelineVersion([{ ...labels[0]!, counter_examples: ['Thanks I guess'] }, labels[1]!], 'en', sha256)).not.toBe(v);
    // a plain text is in the project's language: another language is another meaning
    expect(labelGuidelineVersion(labels, 'de', sha256)).not.toBe(v);
  });

  it('keeps the version of a codebook written before lists and per-language texts', () => {
    const text = 'codes:\n  - name: Doubt\n    definition: Says they are unsure.\n    example: maybe\n';
    const before = codebookVersion(parseCodebook(text), sha256);
    // the canonical form of such a codebook is what the version was computed from before
    expect(before).toBe(
      sha256(JSON.stringify({ exclusive: false, codes: [['Doubt', 'Says they are unsure.', 'maybe', null, null]] })).slice(0, 12),
    );
    const richer = parseCodebook(`${text}    examples: {de: [vielleicht]}\n`);
    expect(codebookVersion(richer, sha256)).not.toBe(before);
  });

  it('refuses a code with a wrong guideline shape, naming the field', () => {
    expect(() => parseCodebook('codes:\n  - name: Doubt\n    definition: {en: ""}\n')).toThrow(
      'codebook.yaml:3: codes[0].definition.en: must be a text that is not empty',
    );
    // an empty plain definition stays what it was: a code not defined yet
    expect(parseCodebook('codes:\n  - name: Doubt\n    definition: ""\n').codes[0]!.definition).toBe('');
  });
});

describe('showing a guideline', () => {
  const g = {
    name: 'Polite',
    definition: { en: 'Courteous', de: 'Höflich' },
    examples: { de: ['Danke'] },
    counter_examples: ['Thanks I guess'],
  };
  it('takes the interface language, else English, else the project language', () => {
    expect(guidelineIn(g, 'de', 'en')).toEqual({
      name: 'Polite',
      definition: 'Höflich',
      examples: ['Danke'],
      counter_examples: ['Thanks I guess'],
      language: 'de',
    });
    expect(guidelineIn(g, 'fr', 'en').definition).toBe('Courteous');
    expect(guidelineIn({ name: 'X', definition: 'Nur deutsch' }, 'en', 'de')).toMatchObject({ definition: 'Nur deutsch', language: 'de' });
    expect(guidelineIn({ name: 'X' }, 'en', 'en')).toMatchObject({ definition: null, examples: [], counter_examples: [] });
  });
});

describe('logging the guideline in force', () => {
  const v1: GuidelineInForce = { scope: 'labels', version: 'aaaaaaaaaaaa', language: 'en', guidelines: [] };
  const entry = (type: string, data: unknown = {}) => ({ type, data });
  const mark = (data: GuidelineInForce) => entry('guideline_in_force', data);

  it('logs it once before the first act under a version the log has not recorded last', () => {
    const out = withGuidelinesInForce(
      [entry('item_opened'), entry('label_committed'), entry('label_committed')],
      () => null,
      { labels: v1, codes: null },
      mark,
    );
    expect(out.map((e) => e.type)).toEqual(['item_opened', 'guideline_in_force', 'label_committed', 'label_committed']);
    expect(withGuidelinesInForce([entry('label_committed')], () => 'aaaaaaaaaaaa', { labels: v1, codes: null }, mark)).toHaveLength(1);
    expect(withGuidelinesInForce([entry('item_opened')], () => null, { labels: v1, codes: null }, mark)).toHaveLength(1);
    expect(withGuidelinesInForce([entry('label_committed')], () => null, { labels: null, codes: null }, mark)).toHaveLength(1);
  });

  it('logs a code guideline only for acts under its version', () => {
    const codes = codeGuidelinesInForce([{ name: 'Doubt', definition: 'unsure', example: 'maybe' }], 'bbbbbbbbbbbb', 'en');
    expect(codes.guidelines[0]).toEqual({ name: 'Doubt', definition: 'unsure', examples: ['maybe'], counter_examples: null });
    const acts = [entry('code_applied', { codebook_version: 'cccccccccccc' }), entry('code_applied', { codebook_version: 'bbbbbbbbbbbb' })];
    expect(withGuidelinesInForce(acts, () => null, { labels: v1, codes }, mark).map((e) => e.type)).toEqual([
      'code_applied',
      'guideline_in_force',
      'code_applied',
    ]);
  });
});

describe('the guideline history', () => {
  const at = (m: number) => `2026-12-05T09:${String(m).padStart(2, '0')}:00.000Z`;
  const version = (v: string, definition: string): GuidelineInForce => ({
    scope: 'labels',
    version: v,
    language: 'en',
    guidelines: [
      { name: 'Polite', definition, examples: null, counter_examples: null },
      { name: 'Rude', definition: 'Dismissive', examples: null, counter_examples: null },
    ],
  });
  const first = version('111111111111', 'Courteous');
  const second = version('222222222222', 'Courteous towards the reader');
  const log = (events: Array<[number, string, unknown]>) => events.map(([m, type, data]) => ({ ts: at(m), type, data }));

  it('keeps every version seen with its texts, first use, users, acts, changes and flags', () => {
    const fold = new GuidelineHistoryFold();
    fold.applyLog(
      'ann',
      log([
        [1, 'guideline_in_force', first],
        [2, 'label_committed', { item_id: 'a' }],
        [5, 'guideline_in_force', second],
        [6, 'label_committed', { item_id: 'b' }],
      ]),
    );
    fold.applyLog(
      'bob',
      log([
        [3, 'guideline_in_force', first],
        [4, 'label_committed', { item_id: 'b' }],
        [7, 'label_committed', { item_id: 'a' }],
      ]),
    );
    const { versions } = fold.history(
      [second],
      [{ item_id: 'a', label: 'Rude', guideline_flag: 'unclear where polite ends', adjudicator: 'lead', decided_at: at(9) }],
      ['Polite', 'Rude'],
    );
    expect(versions.map((v) => [v.version, v.first_used, v.annotators, v.acts, v.current])).toEqual([
      ['111111111111', at(2), ['ann', 'bob'], 3, false],
      ['222222222222', at(6), ['ann'], 1, true],
    ]);
    expect(versions[0]!.changes).toEqual([]);
    expect(versions[1]!.changes).toEqual([
      { name: 'Polite', part: 'definition', language: 'en', from: 'Courteous', to: 'Courteous towards the reader' },
    ]);
    // item a's last label (bob's, at 7) was given under the first version: the flag names Polite, not the decided Rude
    expect(versions[0]!.flags).toEqual([
      { item_id: 'a', text: 'unclear where polite ends', adjudicator: 'lead', decided_at: at(9), label: 'Polite', version: '111111111111' },
    ]);
    expect(versions[1]!.flags).toEqual([]);
  });

  it('lists the version in force before anyone used it', () => {
    const { versions } = new GuidelineHistoryFold().history([first], [], ['Polite', 'Rude']);
    expect(versions).toMatchObject([{ version: '111111111111', first_used: null, acts: 0, current: true }]);
  });

  it('names added and removed labels', () => {
    expect(
      guidelineChanges(first.guidelines, [
        { name: 'polite', definition: { en: 'Courteous', de: 'Höflich' }, examples: ['Thanks', 'Cheers'], counter_examples: null },
        { name: 'Neutral', definition: 'Neither', examples: null, counter_examples: null },
      ]),
    ).toEqual([
      { name: 'polite', part: 'definition', language: 'de', from: null, to: 'Höflich' },
      { name: 'polite', part: 'examples', language: 'en', from: null, to: 'Thanks | Cheers' },
      { name: 'Neutral', part: 'added', language: null, from: null, to: 'Neither' },
      { name: 'Rude', part: 'removed', language: null, from: 'Dismissive', to: null },
    ]);
    expect(labelNamedIn('Rude or not?', ['Polite', 'Rude'])).toBe('Rude');
    expect(labelNamedIn('prudence', ['Polite', 'Rude'])).toBeNull();
  });
});
