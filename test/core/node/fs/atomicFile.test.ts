import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  moveAllIntoPlace,
  moveFolderIntoPlace,
  moveIntoPlace,
  placeWithoutReplacing,
  writeFileAtomic,
  writeFileAtomicStreamed,
} from '../../../../core/node/fs/atomicFile';

async function folder(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'aloud-atomic-'));
}

describe('atomic writes', () => {
  it('writeFileAtomic replaces the target whole and leaves no temporary file', async () => {
    const dir = await folder();
    const target = path.join(dir, 'a.json');
    await writeFile(target, 'old');
    await writeFileAtomic(target, 'new');
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('writeFileAtomicStreamed returns what the writer returns; a writer that throws leaves the old target and no temporary file', async () => {
    const dir = await folder();
    const target = path.join(dir, 'pack.tar');
    await writeFile(target, 'old');
    const written = await writeFileAtomicStreamed(target, async (handle) => {
      await handle.write('one ');
      await handle.write('two');
      return 7;
    });
    expect(written).toBe(7);
    expect(await readFile(target, 'utf8')).toBe('one two');
    await expect(
      writeFileAtomicStreamed(target, async (handle) => {
        await handle.write('half');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await readFile(target, 'utf8')).toBe('one two');
    expect(await readdir(dir)).toEqual(['pack.tar']);
  });

  it('moveAllIntoPlace and moveIntoPlace move finished files over their targets', async () => {
    const dir = await folder();
    await mkdir(path.join(dir, 'audio'));
    await writeFile(path.join(dir, '.a.part'), 'A');
    await writeFile(path.join(dir, '.b.part'), 'B');
    await writeFile(path.join(dir, 'audio', 'b.wav'), 'old B');
    await moveAllIntoPlace([
      { from: path.join(dir, '.a.part'), to: path.join(dir, 'a.wav') },
      { from: path.join(dir, '.b.part'), to: path.join(dir, 'audio', 'b.wav') },
    ]);
    expect(await readFile(path.join(dir, 'a.wav'), 'utf8')).toBe('A');
    expect(await readFile(path.join(dir, 'audio', 'b.wav'), 'utf8')).toBe('B');
    await writeFile(path.join(dir, '.c.part'), 'C');
    await moveIntoPlace(path.join(dir, '.c.part'), path.join(dir, 'a.wav'));
    expect(await readFile(path.join(dir, 'a.wav'), 'utf8')).toBe('C');
    expect((await readdir(dir)).sort()).toEqual(['a.wav', 'audio']);
  });

  it('placeWithoutReplacing never replaces an existing file', async () => {
    const dir = await folder();
    await writeFile(path.join(dir, 'tmp1'), 'first');
    expect(await placeWithoutReplacing(path.join(dir, 'tmp1'), path.join(dir, 'model.bin'))).toBe('placed');
    await writeFile(path.join(dir, 'tmp2'), 'second');
    expect(await placeWithoutReplacing(path.join(dir, 'tmp2'), path.join(dir, 'model.bin'))).toBe('exists');
    expect(await readFile(path.join(dir, 'model.bin'), 'utf8')).toBe('first');
    expect((await readdir(dir)).sort()).toEqual(['model.bin', 'tmp2']);
  });

  it('moveFolderIntoPlace moves a folder to a new name', async () => {
    const dir = await folder();
    await mkdir(path.join(dir, '.unpack', 'audio'), { recursive: true });
    await writeFile(path.join(dir, '.unpack', 'events.jsonl'), '{}\n');
    await moveFolderIntoPlace(path.join(dir, '.unpack'), path.join(dir, 'ana'));
    expect(await readFile(path.join(dir, 'ana', 'events.jsonl'), 'utf8')).toBe('{}\n');
    expect(await readdir(dir)).toEqual(['ana']);
  });
});
