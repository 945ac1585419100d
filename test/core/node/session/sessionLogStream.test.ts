import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../../core/common/session/sessionEvents';
import { readSessionLog } from '../../../../core/node/session/sessionLogFile';
import { streamSessionLog } from '../../../../core/node/session/sessionLogStream';

const FIXTURES = path.resolve(import.meta.dirname, '../../common/session/fixtures');
const dir = await mkdtemp(path.join(tmpdir(), 'aloud-log-stream-'));

const started =
  '{"v":2,"seq":1,"ts":"2024-05-01T10:00:00.000Z","type":"session_started","data":{"annotator":"ana","project_name":"demo","sample_rate":16000,"config_sha256":null,"parser_version":null}}';
const note = (seq: number, text: string) =>
  JSON.stringify({ v: 1, seq, ts: '2024-05-01T10:00:01.000Z', type: 'note', data: { item_id: null, text } });

/** Both readers on the same bytes: what the whole-file reader returns (or throws), the streaming reader must too. */
async function both(bytes: Buffer | string, chunkBytes: number): Promise<void> {
  const file = path.join(dir, `log-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, bytes);
  const whole = await readSessionLog(file).then(
    (r) => ({ events: r.events, torn: r.torn }),
    (e: Error) => ({ error: e.message }),
  );
  const events: SessionEvent[] = [];
  const lines: Buffer[] = [];
  const streamed = await streamSessionLog(file, (e) => events.push(e), {
    chunkBytes,
    onLine: ({ bytes: b }) => lines.push(Buffer.from(b)),
  }).then(
    (r) => ({ events, torn: r.torn }),
    (e: Error) => ({ error: e.message }),
  );
  expect(streamed).toEqual(whole);
  if (!('error' in whole))
    expect(Buffer.concat(lines.map((l) => Buffer.concat([l, Buffer.from('\n')]))).toString()).toBe(
      Buffer.from(bytes)
        .toString()
        .split('\n')
        .slice(0, whole.events.length)
        .map((l) => `${l}\n`)
        .join(''),
    );
}

describe('streamSessionLog reads what readSessionLog reads, a chunk at a time', () => {
  const cases: Record<string, Buffer | string> = {
    'a complete log': `${started}\n${note(2, 'one')}\n${note(3, 'zwei – drei 🎙')}\n`,
    'a torn last line': `${started}\n${note(2, 'one')}\n{"v":1,"seq":3,"ts":"2024`,
    'a last event without its newline': `${started}\n${note(2, 'one')}`,
    'an empty file': '',
    'a malformed byte in a complete line': Buffer.concat([
      Buffer.from(`${started}\n{"v":1,"seq":2,"ts":"2024-05-01T10:00:01.000Z","type":"note","data":{"item_id":null,"text":"a`),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}\n'),
    ]),
    'a last line cut mid-character': Buffer.concat([Buffer.from(`${started}\n${note(2, 'one').slice(0, -5)}`), Buffer.from([0xf0, 0x9f])]),
    'a gap in seq': `${started}\n${note(3, 'one')}\n`,
    'a blank line': `${started}\n\n${note(3, 'one')}\n`,
  };
  for (const [name, bytes] of Object.entries(cases)) {
    it(name, async () => {
      for (const chunkBytes of [1, 7, 64, 1 << 20]) await both(bytes, chunkBytes);
    });
  }

  it('the v1 fixtures, upcast alike', async () => {
    for (const fixture of ['session-v1.jsonl', 'label-committed-v0.jsonl']) await both(await readFile(path.join(FIXTURES, fixture)), 100);
  });

  it('a missing file is an empty log', async () => {
    expect(await streamSessionLog(path.join(dir, 'none.jsonl'), () => undefined)).toMatchObject({ events: 0, torn: null });
  });
});
