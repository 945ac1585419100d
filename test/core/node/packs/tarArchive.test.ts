import { spawnSync } from 'node:child_process';
import { mkdtemp, open, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACK_TAR_LIMITS, readTar, TarFormatError, TarWriter } from '../../../../core/node/packs/tarArchive';

describe('tar archives of packs', () => {
  it('round-trips files (a name past the 100-byte ustar field included) and system tar extracts them alike', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-tar-'));
    const file = path.join(dir, 'a.tar');
    const long = `audio/${'%C3%A9'.repeat(30)}item.wav`;
    const entries: Array<[string, Buffer]> = [
      ['events.jsonl', Buffer.from('{"a":1}\n')],
      [long, Buffer.alloc(70_000, 7)],
      ['empty', Buffer.alloc(0)],
      ['manifest.json', Buffer.from('{}')],
    ];
    const handle = await open(file, 'wx');
    const tar = new TarWriter(handle);
    for (const [name, bytes] of entries) await tar.add(name, bytes.length, [bytes.subarray(0, 1000), bytes.subarray(1000)]);
    await tar.end();
    await handle.close();
    const read: Array<[string, Buffer]> = [];
    const input = await open(file, 'r');
    await readTar(input, {
      file: (name) => {
        const pieces: Buffer[] = [];
        return { piece: (b) => void pieces.push(Buffer.from(b)), end: () => void read.push([name, Buffer.concat(pieces)]) };
      },
    });
    await input.close();
    expect(read).toEqual(entries);
    expect(spawnSync('tar', ['xf', file, '-C', dir]).status).toBe(0);
    expect((await readFile(path.join(dir, long))).equals(entries[1]![1])).toBe(true);
  });

  it('refuses a damaged header and a file that is not a regular file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-tar-'));
    const file = path.join(dir, 'b.tar');
    const handle = await open(file, 'wx');
    const tar = new TarWriter(handle);
    await tar.add('events.jsonl', 3, [Buffer.from('abc')]);
    await tar.end();
    await handle.close();
    const bytes = await readFile(file);
    bytes[10] = 0x41;
    await writeFile(file, bytes);
    const reader = await open(file, 'r');
    await expect(readTar(reader, { file: () => ({ piece: () => undefined, end: () => undefined }) })).rejects.toThrow(
      /a header is damaged/,
    );
    await reader.close();
    spawnSync('ln', ['-s', 'x', path.join(dir, 'link')]);
    spawnSync('tar', ['cf', path.join(dir, 'c.tar'), '-C', dir, 'link']);
    const withLink = await open(path.join(dir, 'c.tar'), 'r');
    await expect(readTar(withLink, { file: () => ({ piece: () => undefined, end: () => undefined }) })).rejects.toThrow(
      /"link" is not a regular file \(tar type "2"\)/,
    );
    await withLink.close();
  });

  it('a file cut short inside a large entry is discarded (its target closed), never ended', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-tar-'));
    const file = path.join(dir, 'cut.tar');
    const handle = await open(file, 'wx');
    const tar = new TarWriter(handle);
    await tar.add('audio/long.wav', 3 << 20, [Buffer.alloc(3 << 20, 1)]);
    await tar.end();
    await handle.close();
    // past the declared size (headers take room too) yet short of the entry's end, so its reading has begun
    await writeFile(file, (await readFile(file)).subarray(0, (3 << 20) + 256));
    const seen: string[] = [];
    const reader = await open(file, 'r');
    const error = await readTar(
      reader,
      {
        file: () => ({ piece: () => void seen.push('piece'), end: () => void seen.push('end'), discard: () => void seen.push('discard') }),
      },
      undefined,
      { ...PACK_TAR_LIMITS, totalBytes: 8 << 20 },
    ).catch((e: unknown) => e as Error);
    await reader.close();
    expect(error).toBeInstanceOf(TarFormatError);
    expect(error!.message).toMatch(/cut short/);
    expect(seen).toContain('piece');
    expect(seen.at(-1)).toBe('discard');
    expect(seen).not.toContain('end');
  });
});
