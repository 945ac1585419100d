import { copyFile, mkdir, mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelFileError } from '../../../../core/common/models/modelFileError';
import { checkGgmlModelFile } from '../../../../core/node/models/ggmlHeader';
import { FOR_TESTS_MODEL, haveTestModels, testAssets } from '../engine/engineTestModels';

const haveShared = haveTestModels;

async function fileError(file: string): Promise<ModelFileError> {
  try {
    await checkGgmlModelFile(file);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelFileError);
    return e as ModelFileError;
  }
  throw new Error(`expected ${file} to be rejected`);
}

describe('checkGgmlModelFile on files that are not models', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'aloud-ggml-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names a missing file, a folder, an empty file and a foreign file', async () => {
    const missing = path.join(dir, 'missing.bin');
    expect((await fileError(missing)).message).toBe(`${missing}: not found`);
    const folder = path.join(dir, 'folder.bin');
    await mkdir(folder);
    expect((await fileError(folder)).message).toBe(`${folder}: is not a regular file`);
    const empty = path.join(dir, 'empty.bin');
    await writeFile(empty, '');
    expect((await fileError(empty)).message).toBe(`${empty}: is empty (0 bytes), not a whisper model`);
    const html = path.join(dir, 'page.bin');
    await writeFile(html, '<html><body>Rate limited</body></html>');
    expect((await fileError(html)).message).toContain(`${html}: is a text (HTML/JSON) document`);
  });
});

describe.skipIf(!haveShared)('checkGgmlModelFile on real model files', () => {
  let dir: string;
  let BENCH_MODEL: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'aloud-ggml-'));
    BENCH_MODEL = testAssets().benchModel;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts the vocab-only test model as weights "none"', async () => {
    const info = await checkGgmlModelFile(FOR_TESTS_MODEL);
    expect(info).toMatchObject({ file: FOR_TESTS_MODEL, size_class: 'tiny', weights: 'none', tensor_count: 0, weight_type: 'f16' });
  });

  it('accepts the random-weight model from make-bench-model.mjs; its size is exactly what the header implies', async () => {
    const info = await checkGgmlModelFile(BENCH_MODEL);
    expect(info).toMatchObject({ weights: 'complete', tensor_count: 167, size_class: 'tiny' });
    expect(info.expected_bytes).toBe((await stat(BENCH_MODEL)).size);
  });

  it.each([
    ['one byte short', (size: number) => size - 1, /truncated: tensor 'decoder\.[^']+' needs bytes/],
    ['cut in half', (size: number) => Math.floor(size / 2), /truncated: tensor '[^']+' needs bytes \d+–\d+ but the file ends at \d+/],
    ['cut just after the vocabulary', (_size: number, vocabEnd: number) => vocabEnd + 5, /truncated: the file ends inside the tensor record at byte \d+/],
  ])('rejects the random-weight model %s, naming the file', async (_label, cutAt, reason) => {
    const copy = path.join(dir, `cut-${Math.random().toString(36).slice(2)}.bin`);
    await copyFile(BENCH_MODEL, copy);
    const vocabEnd = (await checkGgmlModelFile(FOR_TESTS_MODEL)).header_bytes;
    await truncate(copy, cutAt((await stat(BENCH_MODEL)).size, vocabEnd));
    const err = await fileError(copy);
    expect(err.file).toBe(copy);
    expect(err.message.startsWith(`${copy}: `)).toBe(true);
    expect(err.reason).toMatch(reason);
  });
});
