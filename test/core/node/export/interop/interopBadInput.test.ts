import { appendFile, cp, mkdtemp, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../../core/node/project/projectFolder';
import { cli } from '../../../../helpers/cli';
import { recordSession } from '../recordSession';

async function demoCopy(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-interop-bad-')), 'proj');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  return dir;
}

/** The export refused in one line, and nothing at all was written (the folder was never made). */
async function expectRefused(dir: string, format: string, pattern: RegExp, code = 2): Promise<void> {
  const out = path.join(dir, '..', `out-${format}`);
  const run = await cli('export', '--project', dir, '--format', format, '--out', out);
  expect(run.code, run.err).toBe(code);
  const lines = run.err.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(existsSync(out)).toBe(false);
  expect(await readdir(path.dirname(out))).not.toContain(`out-${format}`);
}

describe('interop exports refuse bad input in one line and write nothing', () => {
  it('a project with no recordings (labels by click only)', async () => {
    const dir = await demoCopy();
    await recordSession(await loadProjectConfig(dir), 'ann', [{ id: 'demo-01', click: 'Polite' }]);
    for (const format of ['eaf', 'textgrid', 'qdpx', 'hf', 'maxqda'])
      await expectRefused(dir, format, /no recordings to export \(20 records, none with its WAV in the project\)/);
  });

  it('a transcript holding a character XML cannot carry, for the XML formats, located by annotator, item and field', async () => {
    const dir = await demoCopy();
    await recordSession(await loadProjectConfig(dir), 'ann', [{ id: 'demo-02', said: [' I label this polite.\u000b'] }]);
    for (const format of ['eaf', 'qdpx']) {
      await expectRefused(
        dir,
        format,
        /^aloud export: nothing written: ann \/ demo-02: holds U\+000B at position 22, a character XML 1\.0 cannot carry.*field "transcript"/,
        1,
      );
    }
    // the formats that are not XML carry it as it is
    const run = await cli('export', '--project', dir, '--format', 'textgrid', '--out', path.join(dir, '..', 'tg'));
    expect(run.code, run.err).toBe(0);
  });

  it('an item id that is not a valid file name, named with the items file', async () => {
    const dir = await demoCopy();
    const long = 'é'.repeat(70);
    await appendFile(path.join(dir, 'items.jsonl'), `${JSON.stringify({ id: long, text: 'A reply.' })}\n`);
    await recordSession(await loadProjectConfig(dir), 'ann', [{ id: 'demo-01', said: [' I label this polite.'] }]);
    for (const format of ['eaf', 'textgrid', 'hf', 'maxqda']) {
      await expectRefused(
        dir,
        format,
        new RegExp(
          `^aloud ${'export'}: items\\.jsonl: item "${'é'.repeat(60)}…": item id .* is too long for a file name .*; ${format} files are named by it, so nothing was written`,
        ),
      );
    }
  });
});
