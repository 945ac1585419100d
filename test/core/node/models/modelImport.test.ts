import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelFileError } from '../../../../core/common/models/modelFileError';
import { parseModelIndex } from '../../../../core/common/models/modelIndex';
import { listInstalledModels, modelNameFromFile } from '../../../../core/node/models/installedModels';
import { ModelStoreError } from '../../../../core/node/models/modelErrors';
import { importModelFile } from '../../../../core/node/models/modelImport';
import { entryFor, manifestOf, sha1Hex, sha256Hex, syntheticVocabOnlyModel } from './localModelServer';

const payload = syntheticVocabOnlyModel();
/** The same model with one token renamed: a valid ggml file whose checksum matches nothing. */
const otherPayload = Buffer.from(payload);
otherPayload.write('TOK', otherPayload.length - 8);
const manifest = manifestOf(entryFor('https://example.org/ggml-test-tiny.en.bin', payload));

let dir: string;
let work: string;
const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((d) => rm(d, { recursive: true, force: true })));
});
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'aloud-models-'));
  created.push(dir);
  work = await mkdtemp(path.join(tmpdir(), 'aloud-import-src-'));
  created.push(work);
});

async function sourceFile(name: string, bytes: Buffer | string): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, bytes);
  return file;
}

async function indexOf(folder: string) {
  return parseModelIndex(await readFile(path.join(folder, 'models.json'), 'utf8'), 'models.json');
}

describe('importModelFile', () => {
  it('recognises a file matching a manifest checksum as that model, whatever its name', async () => {
    const source = await sourceFile('downloaded-by-hand.bin', payload);
    const result = await importModelFile(source, { dir, manifest });
    expect(result).toMatchObject({ name: 'test-tiny.en', file: 'ggml-test-tiny.en.bin', manifest_name: 'test-tiny.en', verified: true, status: 'imported', sha256: sha256Hex(payload), sha1: sha1Hex(payload) });
    expect(await readFile(path.join(dir, 'ggml-test-tiny.en.bin'))).toEqual(payload);
    expect(await readFile(source)).toEqual(payload);
    const index = await indexOf(dir);
    expect(index.models).toEqual([expect.objectContaining({ name: 'test-tiny.en', source: 'import', origin: source, sha256: sha256Hex(payload), bytes: payload.length })]);
    expect(Date.parse(index.models[0]!.imported_at!)).not.toBeNaN();
  });

  it('imports an unknown model under --name or a name from its file, unverified', async () => {
    const named = await importModelFile(await sourceFile('x.bin', otherPayload), { dir, manifest, name: 'my-finetune' });
    expect(named).toMatchObject({ name: 'my-finetune', file: 'ggml-my-finetune.bin', manifest_name: null, verified: false, header: { weights: 'none', size_class: 'tiny' } });
    expect(modelNameFromFile('/a/ggml-medium.en-q5_0.bin')).toBe('medium.en-q5_0');
    expect(modelNameFromFile('My Model (v2).bin')).toBe('My-Model-v2');
  });

  it('leaves nothing behind when the file is not a whisper model', async () => {
    const source = await sourceFile('notes.bin', 'just some notes');
    await expect(importModelFile(source, { dir, manifest })).rejects.toBeInstanceOf(ModelFileError);
    const truncated = await sourceFile('cut.bin', payload.subarray(0, 100_000));
    await expect(importModelFile(truncated, { dir, manifest })).rejects.toThrow(`${truncated}: truncated: the file ends at byte 100000 inside vocabulary token`);
    expect(existsSync(dir) ? await readdir(dir) : []).toEqual([]);
  });

  it('never takes a manifest name for a file that does not match its checksum', async () => {
    const source = await sourceFile('fake.bin', otherPayload);
    await expect(importModelFile(source, { dir, manifest, name: 'test-tiny.en' })).rejects.toThrow(ModelStoreError);
    await expect(importModelFile(source, { dir, manifest, name: 'test-tiny.en' })).rejects.toThrow(/"test-tiny.en" is a manifest model, but this file does not match its sha1 checksum/);
    await expect(importModelFile(source, { dir, manifest, name: '../escape' })).rejects.toThrow(/letters, digits, dots, dashes and underscores only/);
  });

  it('never overwrites a different model already under that name; re-importing the same file is harmless', async () => {
    await importModelFile(await sourceFile('a.bin', otherPayload), { dir, manifest, name: 'custom' });
    const differentSource = await sourceFile('b.bin', payload.subarray(0, payload.length));
    // payload matches the manifest, so use yet another valid variant for the clash
    const clash = Buffer.from(payload);
    clash.write('XYZ', clash.length - 8);
    await writeFile(differentSource, clash);
    await expect(importModelFile(differentSource, { dir, manifest, name: 'custom' })).rejects.toThrow(/already holds a different model .*nothing was changed/);
    expect(await readFile(path.join(dir, 'ggml-custom.bin'))).toEqual(otherPayload);
    const again = await importModelFile(path.join(work, 'a.bin'), { dir, manifest, name: 'custom' });
    expect(again.status).toBe('already-present');
    expect((await readdir(dir)).sort()).toEqual(['ggml-custom.bin', 'models.json']);
  });
});

describe('listInstalledModels', () => {
  it('reports each file with its digests, whether it is verified, and its header or problem', async () => {
    await importModelFile(await sourceFile('m.bin', payload), { dir, manifest });
    await importModelFile(await sourceFile('o.bin', otherPayload), { dir, manifest, name: 'other' });
    await writeFile(path.join(dir, 'ggml-broken.bin'), payload.subarray(0, 1000));
    await writeFile(path.join(dir, 'ggml-test-tiny.en.bin.part'), 'partial download');
    const listed = await listInstalledModels(dir, { manifest });
    expect(listed.map((m) => [m.name, m.verified, m.source, m.header?.weights ?? null])).toEqual([
      ['broken', false, 'unrecorded', null],
      ['other', false, 'import', 'none'],
      ['test-tiny.en', true, 'import', 'none'],
    ]);
    const broken = listed[0]!;
    expect(broken.problem).toMatch(/^truncated: the file ends at byte 1000 inside the mel filters/);
    expect(listed[2]).toMatchObject({ path: path.join(dir, 'ggml-test-tiny.en.bin'), sha256: sha256Hex(payload), expected_checksum: manifest.models[0]!.checksum });
  });

  it('reuses recorded digests of unchanged files and re-hashes on request', async () => {
    await importModelFile(await sourceFile('m.bin', payload), { dir, manifest });
    const file = path.join(dir, 'ggml-test-tiny.en.bin');
    const { mtime } = await stat(file);
    // same size and mtime, different bytes: only a re-hash can notice
    const tampered = Buffer.from(payload);
    tampered[100] = 0x7f;
    await writeFile(file, tampered);
    await utimes(file, mtime, mtime);
    expect((await listInstalledModels(dir, { manifest }))[0]!.verified).toBe(true);
    const rehashed = (await listInstalledModels(dir, { manifest, rehash: true }))[0]!;
    expect(rehashed).toMatchObject({ verified: false, manifest_name: null, expected_checksum: manifest.models[0]!.checksum, sha1: sha1Hex(tampered) });
  });

  it('is empty for a folder that does not exist yet', async () => {
    expect(await listInstalledModels(path.join(dir, 'nothing-here'), { manifest })).toEqual([]);
  });
});
