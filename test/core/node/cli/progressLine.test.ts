import { describe, expect, it } from 'vitest';
import { progressLine } from '../../../../core/node/cli/progressLine';

describe('progressLine', () => {
  it('draws on a terminal once the work has taken a second, at most four times a second, and erases itself', () => {
    let err = '';
    let t = 0;
    const line = progressLine({ out: () => undefined, err: (s) => (err += s), terminal: true }, 'aloud export', 'records', () => t);
    line.report(10, 30_000);
    expect(err).toBe('');
    t = 1200;
    line.report(12_400, 30_000);
    expect(err).toBe('\r\x1b[2Kaloud export: 12,400 / 30,000 records (41%)');
    t = 1300;
    line.report(13_000, 30_000);
    expect(err.split('\r\x1b[2K')).toHaveLength(2);
    t = 1500;
    line.report(30_000, 30_000);
    line.end();
    expect(err.endsWith('aloud export: 30,000 / 30,000 records (100%)\r\x1b[2K')).toBe(true);
  });

  it('says nothing where stderr is not a terminal (pipes, logs, tests)', () => {
    let err = '';
    let t = 0;
    const line = progressLine({ out: () => undefined, err: (s) => (err += s) }, 'aloud validate', 'bytes', () => t);
    t = 5000;
    line.report(1, 2);
    line.end();
    expect(err).toBe('');
  });
});
