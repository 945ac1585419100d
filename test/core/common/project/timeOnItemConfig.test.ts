import { describe, expect, it } from 'vitest';
import { ConfigError, formatConfigProblem, parseProjectConfig } from '../../../../core/common/project/projectConfig';

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
    return (e as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('aloud.yaml time_on_item', () => {
  it('has an idle gap bound of 2 minutes unless aloud.yaml gives one', () => {
    expect(parseProjectConfig(base).time_on_item).toEqual({ idle_gap_seconds: 120 });
    expect(parseProjectConfig(`${base}time_on_item:\n  idle_gap_seconds: 45.5\n`).time_on_item).toEqual({ idle_gap_seconds: 45.5 });
  });

  it('refuses a bound out of range or an unknown key in one line naming the field and its line', () => {
    const [tooShort] = problemsOf(`${base}time_on_item:\n  idle_gap_seconds: 0\n`);
    expect(formatConfigProblem(tooShort!)).toBe('p/aloud.yaml:8: time_on_item.idle_gap_seconds: must be >= 1');
    expect(problemsOf(`${base}time_on_item:\n  idle_gap_seconds: two\n`).map((p) => [p.path, p.line])).toEqual([
      ['time_on_item.idle_gap_seconds', 8],
    ]);
    expect(problemsOf(`${base}time_on_item:\n  idle_gap: 60\n`).map((p) => [p.path, p.line])).toEqual([['time_on_item.idle_gap', 8]]);
  });
});
