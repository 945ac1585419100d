import { appendFile, cp, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../../../../../core/node/project/projectFolder';
import { cli } from '../../../../helpers/cli';
import { recordSession } from '../recordSession';
import { exportInterop } from '../../../../../core/node/export/interop/interopExport';
import { projectSessionSource } from '../../../../../core/node/session/projectSessions';
import { sha256Hex } from '../../../../../core/node/fs/sha256';

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

/** Every file under a folder (hidden ones too) with its bytes, to compare a folder before and after. */
async function folderBytes(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile())
      files.set(
        path.relative(dir, path.join(entry.parentPath, entry.name)),
        sha256Hex(await readFile(path.join(entry.parentPath, entry.name))),
      );
  return files;
}

describe('interop exports stream per batch of recordings and still write nothing on a late refusal', () => {
  it('a recording that fails after earlier batches were made: the folder is never made, an earlier export stays byte for byte', async () => {
    const dir = await demoCopy();
    const project = await loadProjectConfig(dir);
    const ids = ['demo-01', 'demo-02', 'demo-03', 'demo-04'];
    await recordSession(
      project,
      'ann',
      ids.map((id) => ({ id, said: [' Hmm, well.', ' I label this polite.'], complete: true })),
    );
    const options = { project, format: 'maxqda' as const, sessions: projectSessionSource, recordingsPerBatch: 1 };
    const earlier = path.join(dir, '..', 'out-earlier');
    await exportInterop({ ...options, outDir: earlier });
    const before = await folderBytes(earlier);
    expect([...before.keys()].filter((f) => f.endsWith('.txt'))).toHaveLength(ids.length);

    // a failure once two documents are made (staged) and before the last: what the caller's progress throws stands
    // for any late refusal (a document's XSD, a leak, a WAV that changed, a full disk)
    const failingLate = (out: string) => () => {
      const staged = existsSync(out) ? readdirSync(out, { recursive: true }).map(String) : [];
      if (staged.filter((f) => f.startsWith('.aloud-export-staging-') && f.endsWith('.txt')).length >= 2)
        throw new Error('stopped with two documents made');
    };
    const fresh = path.join(dir, '..', 'out-fresh');
    await expect(exportInterop({ ...options, outDir: fresh, onProgress: failingLate(fresh) })).rejects.toThrow(/two documents made/);
    expect(existsSync(fresh)).toBe(false);
    await expect(exportInterop({ ...options, outDir: earlier, onProgress: failingLate(earlier) })).rejects.toThrow(/two documents made/);
    expect(await folderBytes(earlier)).toEqual(before);
  });
});
