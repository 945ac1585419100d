import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { foldCodings } from '../../../../core/common/coding/codingFold';
import { parseSessionLog } from '../../../../core/common/session/sessionLog';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../session/fixtures');

describe('coding events in a session log', () => {
  it("a coder's log as written (fixture, v1 of every coding event) reads and folds: codes standing, memo, undo, finishing, proposal", () => {
    const { events } = parseSessionLog(readFileSync(path.join(fixtures, 'coding-v1.jsonl'), 'utf8'), 'coding-v1.jsonl');
    const codings = foldCodings(events);
    expect(codings.coder).toBe('bob');
    expect(codings.protocols).toHaveLength(1);
    const [protocol] = codings.protocols;
    expect(protocol!.finished).toEqual({ at: '2025-12-01T10:00:07.000Z', units: ['u0', 'u1', 'u2'], codebook_version: '1fe8f3ab54ec' });
    expect(protocol!.units.map((u) => [u.unit, u.codes.map((c) => [c.code, c.memo, c.after_finished])])).toEqual([
      ['u0', [['Doubts', 'hedges', false]]],
      ['u1', []],
      ['u2', [['Doubts', null, true]]],
    ]);
    expect(codings.proposals).toMatchObject([{ name: 'thanks the user', unit: 'u1', coder: 'bob' }]);
  });

  it('logs written before coding existed fold to no codings; a damaged coding event is refused at its line', () => {
    const { events } = parseSessionLog(readFileSync(path.join(fixtures, 'session-v1.jsonl'), 'utf8'), 'session-v1.jsonl');
    expect(foldCodings(events)).toEqual({ coder: 'ana', protocols: [], proposals: [] });
    const lines = readFileSync(path.join(fixtures, 'coding-v1.jsonl'), 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"unit":"u0"', '"unit":"unit zero"');
    expect(() => parseSessionLog(lines.join('\n'), 'events.jsonl')).toThrow(/events\.jsonl:2: code_applied: data\.unit must match pattern/);
    lines[1] = lines[1]!.replace('"unit":"unit zero"', '"unit":"u0","extra":1');
    expect(() => parseSessionLog(lines.join('\n'), 'events.jsonl')).toThrow(/events\.jsonl:2: code_applied: data: unknown field "extra"/);
  });
});
