import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_ADJUDICATION_CAUSES, parseProjectConfig } from '../../../../core/common/project/projectConfig';

const base = `name: p
schema:
  name: politeness
  labels:
    - {name: Polite}
    - {name: Impolite}
`;

function problemsOf(text: string) {
  try {
    parseProjectConfig(text, 'p/aloud.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    // the catalog message beside each problem is tested in test/i18n/schemaMessages.test.ts
    return (e as ConfigError).problems.map(({ say: _say, ...problem }) => problem);
  }
  throw new Error('expected a ConfigError');
}

describe('aloud.yaml adjudication', () => {
  it('defaults: every disagreement queued, two annotators, the five causes, names shown, 3 s fast decisions', () => {
    expect(parseProjectConfig(base).adjudication).toEqual({
      threshold: 1,
      min_annotators: 2,
      accept_unanimous: true,
      causes: ['ambiguous text', 'guideline gap', 'annotator error', 'edge case', 'subjective disagreement'],
      blind_names: false,
      fast_decision_seconds: 3,
      order: 'agreement',
      label_model: 'dawid-skene',
    });
    expect(DEFAULT_ADJUDICATION_CAUSES).toHaveLength(5);
  });

  it('reads its own causes and settings', () => {
    const config = parseProjectConfig(
      `${base}adjudication:\n  threshold: 0.6\n  min_annotators: 3\n  causes: [sarcasm, typo in item]\n  blind_names: true\n  fast_decision_seconds: 1.5\n  accept_unanimous: false\n  order: uncertainty\n  label_model: mace\n`,
    );
    expect(config.adjudication).toEqual({
      threshold: 0.6,
      min_annotators: 3,
      accept_unanimous: false,
      causes: ['sarcasm', 'typo in item'],
      blind_names: true,
      fast_decision_seconds: 1.5,
      order: 'uncertainty',
      label_model: 'mace',
    });
  });

  it('names the key and line of each bad setting', () => {
    const problems = problemsOf(`${base}adjudication:\n  threshold: 0.3\n  min_annotators: 1\n  blind: true\n`);
    expect(problems.map((p) => [p.path, p.line])).toEqual([
      ['adjudication.blind', 10],
      ['adjudication.threshold', 8],
      ['adjudication.min_annotators', 9],
    ]);
    expect(problemsOf(`${base}adjudication:\n  order: certainty\n  label_model: ds\n`).map((p) => [p.path, p.line])).toEqual([
      ['adjudication.order', 8],
      ['adjudication.label_model', 9],
    ]);
    expect(problemsOf(`${base}adjudication:\n  causes: [sarcasm, "a, b", Sarcasm]\n`)).toEqual([
      {
        file: 'p/aloud.yaml',
        line: 8,
        path: 'adjudication.causes[1]',
        message: 'cause "a, b" contains a comma (causes are given as --cause a,b)',
      },
      { file: 'p/aloud.yaml', line: 8, path: 'adjudication.causes[2]', message: 'duplicate cause "Sarcasm" (also causes[0])' },
    ]);
  });
});
