import { mkdtemp, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../core/common/io/inputProblem';
import { readInputFile } from '../../../../core/node/fs/inputFile';
import { streamInputFile } from '../../../../core/node/importing/inputStream';

const dir = await mkdtemp(path.join(tmpdir(), 'aloud-input-stream-'));
let n = 0;

/** The whole-file input stage and the streamed one on the same bytes: the same text, or the same problems. */
async function both(bytes: Buffer, lineBased: boolean, maxLineBytes: number): Promise<void> {
  const file = path.join(dir, `in-${n++}.txt`);
  await writeFile(file, bytes);
  const whole = await readInputFile(file, { lineBased, limits: { maxFileBytes: 1 << 30, maxLineBytes } }).then(
    (r) => ({ text: r.text }),
    (e: unknown) => {
      if (e instanceof InputError) return { problems: e.problems };
      throw e;
    },
  );
  for (const chunkBytes of [1, 2, 3, 5, 64, 1 << 20]) {
    let text = '';
    const streamed = await streamInputFile(
      file,
      { lineBased, limits: { maxFileBytes: null, maxLineBytes, maxRecordBytes: 1 << 30 }, chunkBytes },
      (t) => (text += t),
    );
    expect(streamed.bytes).toBe(bytes.length);
    expect(streamed.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(streamed.problems.length > 0 ? { problems: streamed.problems } : { text }, `chunks of ${chunkBytes}`).toEqual(whole);
  }
}

const b = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('streamInputFile is the input stage of readInputFile, a chunk at a time', () => {
  const cases: Record<string, Buffer> = {
    'plain text with CRLF and multi-byte characters': b('a,b\r\nGrüße 🎙\r\n€uro\n'),
    'a byte order mark': b([0xef, 0xbb, 0xbf], 'x\ny\n'),
    'a malformed sequence on line 3': b('one\ntwo\nth', [0xe2, 0x28, 0xa1], 'ree\n'),
    'a malformed sequence after a BOM': b([0xef, 0xbb, 0xbf], 'ok\n', [0xff], '\n'),
    'a cut sequence at the end': b('ok\n', [0xf0, 0x9f, 0x8e]),
    'a lone continuation byte': b('a', [0x80]),
    'overlong lines (BOM and CR counted as the whole-file stage counts them)': b([0xef, 0xbb, 0xbf], '12345\n123456\r\n1234567\n12345678'),
    'an overlong line and malformed bytes: the lines win': b('12345678\n', [0xc3, 0x28], '\n'),
    empty: b(''),
  };
  for (const [name, bytes] of Object.entries(cases)) {
    it(name, async () => {
      await both(bytes, true, 6);
      await both(bytes, false, 6);
      await both(bytes, true, 1 << 20);
    });
  }

  it('refuses a file over an explicit size limit before reading it', async () => {
    const file = path.join(dir, 'big.txt');
    await writeFile(file, 'x'.repeat(100));
    const streamed = await streamInputFile(
      file,
      { lineBased: true, limits: { maxFileBytes: 10, maxLineBytes: 1000, maxRecordBytes: 1000 } },
      () => {
        throw new Error('no text expected');
      },
    );
    expect(streamed.problems).toEqual([
      { file, line: null, field: null, stage: 'input', message: 'file is 100 bytes, over the limit of 10 bytes' },
    ]);
  });
});
