import { describe, expect, it } from 'vitest';
import { ConfigError, parseProjectConfig } from '../../../../core/common/project/projectConfig';

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

describe('aloud.yaml reasoning', () => {
  it('defaults to split auto and reveal after_blind', () => {
    expect(parseProjectConfig(base).reasoning).toEqual({ split: 'auto', reveal: 'after_blind' });
  });

  it('reads every split rule and reveal mode', () => {
    expect(parseProjectConfig(`${base}reasoning:\n  split: sentences\n  reveal: always\n`).reasoning).toEqual({
      split: 'sentences',
      reveal: 'always',
    });
    expect(parseProjectConfig(`${base}reasoning: {reveal: never}\n`).reasoning).toEqual({ split: 'auto', reveal: 'never' });
  });

  it('names the key, the line and the allowed values of a bad setting; unknown keys are errors', () => {
    expect(problemsOf(`${base}reasoning:\n  split: words\n  reveal: later\n  show: yes\n`)).toEqual([
      { file: 'p/aloud.yaml', line: 10, path: 'reasoning.show', message: 'unknown key (not allowed here)' },
      {
        file: 'p/aloud.yaml',
        line: 8,
        path: 'reasoning.split',
        message: 'must be one of "auto", "numbered", "paragraphs", "sentences", "lines", "none"',
      },
      { file: 'p/aloud.yaml', line: 9, path: 'reasoning.reveal', message: 'must be one of "after_blind", "always", "never"' },
    ]);
  });
});
