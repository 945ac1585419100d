import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle, cliBundleIsStale } from '../../scripts/build-cli.mjs';
import { DEFAULT_STUDY_SHAPE, writeScaleStudy } from '../../bench/scaleStudy';
import { cli } from '../helpers/cli';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');

let outDir: string;
let bundle: string;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'aloud-cli-build-'));
  ({ bundle } = await buildCliBundle({ outDir }));
});
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe('scripts/build-cli.mjs', () => {
  it('compiles a CLI that prints what the sources print, loading a command only when it runs', async () => {
    const compiled = await run(process.execPath, [bundle, '--help'], { cwd: REPO });
    expect(compiled.stdout).toBe((await cli('--help')).out);
    // --help parses the entry alone: the commands are chunks of their own
    const entry = await readFile(bundle, 'utf8');
    expect(entry).not.toContain('exportRecordJsonSchemas');
    const items = await run(process.execPath, [bundle, 'items', '--project', path.join(REPO, 'demo-project')], { cwd: tmpdir() });
    expect(items.stdout).toBe((await cli('items', '--project', path.join(REPO, 'demo-project'))).out);
  });

  it('finds the files core modules locate from their own source (demo project, package.json) from a command chunk', async () => {
    const demo = path.join(outDir, 'demo');
    await run(process.execPath, [bundle, 'init', '--project', demo, '--demo']);
    expect((await run(process.execPath, [bundle, 'items', '--project', demo])).stdout.split('\n')[0]).toMatch(/^demo-01\t/);
    const study = path.join(outDir, 'study');
    await writeScaleStudy(study, { ...DEFAULT_STUDY_SHAPE, items: 12, annotators: ['ana', 'ben'] });
    const out = path.join(outDir, 'study.jsonl');
    await run(process.execPath, [bundle, 'export', '--project', study, '--format', 'jsonl', '--out', out]);
    const version = (JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    const first = JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!) as { app_version: string };
    expect(first.app_version).toBe(version);
  });

  it('starts the whisper engine in its own process from the compiled entry beside the bundle', async () => {
    const doctor = await run(process.execPath, [bundle, 'doctor', '--models', outDir, '--json'], { cwd: tmpdir() }).catch(
      (e: { stdout: string }) => e,
    );
    const report = JSON.parse(doctor.stdout) as { engine_process: { pid: number | null; title: string | null; error: string | null } };
    expect(report.engine_process).toMatchObject({ title: 'aloud-engine', error: null });
    expect(report.engine_process.pid).toBeGreaterThan(0);
  });

  it('a bad command is refused as the sources refuse it, exit code included', async () => {
    const failure = await run(process.execPath, [bundle, 'export', '--project', path.join(REPO, 'demo-project')]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    const expected = await cli('export', '--project', path.join(REPO, 'demo-project'));
    expect(failure).toMatchObject({ code: expected.code, stderr: expected.err });
  });

  it('is stale as soon as a source it was built from changes, and fresh again once rebuilt', async () => {
    expect(cliBundleIsStale({ outDir })).toBe(false);
    const source = path.join(REPO, 'core/node/cli/commands/items.ts');
    const before = await stat(source);
    try {
      await utimes(source, before.atime, new Date(before.mtimeMs + 2000));
      expect(cliBundleIsStale({ outDir })).toBe(true);
    } finally {
      await utimes(source, before.atime, before.mtime);
    }
    await buildCliBundle({ outDir });
    expect(cliBundleIsStale({ outDir })).toBe(false);
    await rm(path.join(outDir, 'engineProcess.js'));
    expect(cliBundleIsStale({ outDir })).toBe(true);
  });
});
