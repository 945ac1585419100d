import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendReviewDecision, readReviewLog, reviewLogPath } from '../../../../core/node/deidentify/reviewLog';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../core/node/project/projectFolder';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'deidentify-v1.jsonl');

async function project() {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-review-log-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return loadProjectConfig(dir);
}

describe('the review log (sessions/<annotator>/deidentify.jsonl)', () => {
  it('reads a v1 log as written, and appends after it with the next seq', async () => {
    const p = await project();
    const file = reviewLogPath(p, 'bob');
    await mkdir(path.dirname(file), { recursive: true });
    await cp(FIXTURE, file);
    const decisions = await readReviewLog(p, 'bob');
    expect(decisions.map((d) => [d.decision, d.class, d.span.layer, d.reviewer])).toEqual([
      ['reject', 'PLACE', 'verbatim', 'lead'],
      ['add', 'ORG', 'corrected', 'lead'],
    ]);
    await appendReviewDecision(p, 'bob', { ...decisions[0]!, decision: 'accept' }, new Date('2026-12-01T20:00:00.000Z'));
    const last = JSON.parse((await readFile(file, 'utf8')).trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ v: 1, seq: 3, ts: '2026-12-01T20:00:00.000Z', type: 'deidentify_decided', data: { decision: 'accept' } });
    expect(await readReviewLog(p, 'nobody')).toEqual([]);
  });

  it('names the file, line and field of a bad line; a last line a crash cut is left out', async () => {
    const p = await project();
    const file = reviewLogPath(p, 'bob');
    await mkdir(path.dirname(file), { recursive: true });
    const lines = (await readFile(FIXTURE, 'utf8')).trim().split('\n');
    await writeFile(file, `${lines[0]}\n${lines[1]!.replace('"ORG"', '"org"')}\n`);
    await expect(readReviewLog(p, 'bob')).rejects.toThrow(`${file}:2: data.class: must be a class like PERSON`);
    await writeFile(file, `${lines[0]}\n${lines[1]!.replace('"v":1', '"v":2')}\n`);
    await expect(readReviewLog(p, 'bob')).rejects.toThrow(`${file}:2: v: version 2 is not one this Aloud reads (1)`);
    await writeFile(file, `${lines[0]}\n${lines[1]!.slice(0, 40)}`);
    expect(await readReviewLog(p, 'bob')).toHaveLength(1);
    await appendReviewDecision(p, 'bob', (await readReviewLog(p, 'bob'))[0]!);
    expect((await readReviewLog(p, 'bob')).map((d) => d.decision)).toEqual(['reject', 'reject']);
  });
});
