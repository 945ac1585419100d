import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../../../helpers/cli';
import { entryFor, LocalModelServer, manifestOf, sha256Hex, syntheticVocabOnlyModel } from './localModelServer';

const payload = syntheticVocabOnlyModel();
const server = new LocalModelServer(payload);
let root: string;
let dir: string;
let manifestFile: string;

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((d) => rm(d, { recursive: true, force: true })));
});
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'aloud-cli-models-'));
  created.push(root);
  dir = path.join(root, 'models');
  manifestFile = path.join(root, 'manifest.json');
  const manifest = manifestOf(entryFor(server.url('/range/ggml-test-tiny.en.bin'), payload), entryFor(server.url('/not-found/ggml-gone.bin'), payload, { name: 'gone', file: 'ggml-gone.bin' }));
  await writeFile(manifestFile, JSON.stringify(manifest));
});

const oneLine = (text: string): void => {
  expect(text.trim().split('\n')).toHaveLength(1);
};

describe('aloud models', () => {
  it('list --json shows the repository manifest with nothing installed in an empty folder', async () => {
    const { code, out } = await cli('models', 'list', '--dir', dir, '--json');
    expect(code).toBe(0);
    const listed = JSON.parse(out) as { dir: string; default: string; models: Array<{ name: string; present: boolean; verified: boolean; checksum: { algo: string }; partial_bytes: number | null }>; other_installed: unknown[] };
    expect(listed.dir).toBe(dir);
    expect(listed.default).toBe('tiny.en');
    expect(listed.models.map((m) => m.name)).toEqual(['tiny.en', 'tiny', 'base.en', 'base', 'small.en', 'small']);
    expect(listed.models.every((m) => !m.present && !m.verified && m.checksum.algo === 'sha1')).toBe(true);
    expect(listed.models.every((m) => m.partial_bytes === null)).toBe(true);
    expect(listed.other_installed).toEqual([]);
  });

  it('download --json prints the result and progress lines on stderr; list then shows it verified', async () => {
    const { code, out, err } = await cli('models', 'download', 'test-tiny.en', '--dir', dir, '--manifest', manifestFile, '--allow-loopback-http', '--json');
    expect(code).toBe(0);
    const result = JSON.parse(out) as Record<string, unknown>;
    expect(result).toMatchObject({ name: 'test-tiny.en', status: 'downloaded', verified: true, bytes: payload.length, sha256: sha256Hex(payload), path: path.join(dir, 'ggml-test-tiny.en.bin') });
    const events = err.trim().split('\n').map((l) => JSON.parse(l) as { event: string; percent: number });
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.event === 'progress')).toBe(true);
    expect(events.at(-1)!.percent).toBe(100);

    const listed = JSON.parse((await cli('models', 'list', '--dir', dir, '--manifest', manifestFile, '--json')).out) as { models: Array<{ name: string; present: boolean; verified: boolean }> };
    expect(listed.models.find((m) => m.name === 'test-tiny.en')).toMatchObject({ present: true, verified: true });

    const human = await cli('models', 'download', 'test-tiny.en', '--dir', dir, '--manifest', manifestFile, '--allow-loopback-http');
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/^test-tiny\.en: already present and verified \(sha1 [0-9a-f]{40}\) → /);
  });

  it('download draws a progress bar for people', async () => {
    const { code, err } = await cli('models', 'download', 'test-tiny.en', '--dir', dir, '--manifest', manifestFile, '--allow-loopback-http');
    expect(code).toBe(0);
    expect(err).toMatch(/\rtest-tiny\.en \[#{30}\] 100% 0\.\d MiB \/ 0\.\d MiB/);
  });

  it('download errors: plain http without the option (2), unknown name (2), 404 (1), each on one line', async () => {
    const refused = await cli('models', 'download', 'test-tiny.en', '--dir', dir, '--manifest', manifestFile);
    expect(refused.code).toBe(2);
    oneLine(refused.err);
    expect(refused.err).toContain('only https URLs');
    const unknown = await cli('models', 'download', 'huge', '--dir', dir, '--manifest', manifestFile);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe('aloud models: unknown model "huge"; known: test-tiny.en, gone\n');
    const missing = await cli('models', 'download', 'gone', '--dir', dir, '--manifest', manifestFile, '--allow-loopback-http', '--json');
    expect(missing.code).toBe(1);
    oneLine(missing.err);
    expect(missing.err).toContain('HTTP 404 Not Found');
    expect(await readdir(dir)).toEqual([]);

    await writeFile(path.join(dir, 'ggml-test-tiny.en.bin.part'), Buffer.alloc(4096));
    const listed = JSON.parse((await cli('models', 'list', '--dir', dir, '--manifest', manifestFile, '--json')).out) as { models: Array<{ name: string; partial_bytes: number | null }> };
    expect(listed.models.find((m) => m.name === 'test-tiny.en')?.partial_bytes).toBe(4096);
  });

  it('import --json recognises a manifest model; verify --json re-hashes and flags a damaged file', async () => {
    const source = path.join(root, 'source.bin');
    await writeFile(source, payload);
    const imported = await cli('models', 'import', source, '--dir', dir, '--manifest', manifestFile, '--json');
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.out)).toMatchObject({ name: 'test-tiny.en', verified: true, status: 'imported' });

    const ok = await cli('models', 'verify', 'test-tiny.en', '--dir', dir, '--manifest', manifestFile, '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ ok: true, models: [{ name: 'test-tiny.en', verified: true, ok: true }] });

    const damaged = Buffer.from(payload);
    damaged.write('ZZZ', damaged.length - 8);
    await writeFile(path.join(dir, 'ggml-test-tiny.en.bin'), damaged);
    const bad = await cli('models', 'verify', '--dir', dir, '--manifest', manifestFile, '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ ok: false, models: [{ file: 'ggml-test-tiny.en.bin', verified: false, ok: false, problem: null }] });
    const human = await cli('models', 'verify', '--dir', dir, '--manifest', manifestFile);
    expect(human.out).toMatch(/^FAIL test-tiny\.en checksum mismatch: expected sha1 [0-9a-f]{40}, got [0-9a-f]{40} \//);
  });

  it('bad files and arguments exit 2 with one line naming the file or field', async () => {
    const foreign = path.join(root, 'notes.bin');
    await writeFile(foreign, 'GGUF\x03\x00\x00\x00');
    const notModel = await cli('models', 'import', foreign, '--dir', dir, '--json');
    expect(notModel.code).toBe(2);
    expect(notModel.err).toBe(`aloud models: ${foreign}: is a GGUF file (llama.cpp-style container), not a whisper.cpp ggml model\n`);

    const badManifest = path.join(root, 'bad.json');
    await writeFile(badManifest, JSON.stringify({ manifest_version: 1, default: 'x', models: [{ name: 'x' }] }));
    const manifestErr = await cli('models', 'list', '--dir', dir, '--manifest', badManifest);
    expect(manifestErr.code).toBe(2);
    oneLine(manifestErr.err);
    expect(manifestErr.err).toContain(`${badManifest}: models[0]: missing required key "file"`);

    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'models.json'), '{"index_version": 1, "models": [{"name": 1}]}');
    const indexErr = await cli('models', 'list', '--dir', dir);
    expect(indexErr.code).toBe(2);
    expect(indexErr.err).toMatch(/models\.json: models\[0\]\.\w+: /);

    for (const argv of [['models'], ['models', 'fly'], ['models', 'download'], ['models', 'list', '--bogus'], ['models', 'verify', 'not-installed', '--dir', path.join(dir, 'empty')]]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      oneLine(r.err);
    }
  });
});
