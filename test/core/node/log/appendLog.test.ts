import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonlText } from '../../../../core/common/io/jsonlLog';
import { AppendLog, readJsonlLog } from '../../../../core/node/log/appendLog';
import { readRoomLog, RoomLogWriter } from '../../../../core/node/rooms/roomLogFile';

const anyRecord = (value: unknown): { seq: number } => value as { seq: number };
const lineReader = (raw: string): { seq: number } => JSON.parse(raw) as { seq: number };

async function logFile(text: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-appendlog-')), 'events.jsonl');
  await writeFile(file, text);
  return file;
}

describe('the one append-only JSONL log', () => {
  it('one torn-tail rule: after the last newline, not JSON is torn; JSON is a record that lacks its newline', () => {
    expect(readJsonlText('{"seq":1}\n{"seq":2', lineReader)).toEqual({
      records: [{ seq: 1 }],
      torn: { line: 2, text: '{"seq":2' },
      missingFinalNewline: false,
    });
    expect(readJsonlText('{"seq":1}\n{"seq":2}', lineReader)).toEqual({
      records: [{ seq: 1 }, { seq: 2 }],
      torn: null,
      missingFinalNewline: true,
    });
    // a character cut mid-way by a crash (bytes): torn, never a U+FFFD in a record
    const cut = Buffer.concat([Buffer.from('{"seq":1}\n{"q":"'), Buffer.from('é').subarray(0, 1)]);
    expect(readJsonlLog(cut, lineReader, (line, problem) => new Error(`${line}: ${problem}`)).torn).toMatchObject({ line: 2 });
  });

  it('a room log whose last event lacks its newline gets it on reopening: the next append is a line of its own', async () => {
    const file = await logFile('{"seq":1}\n{"seq":2}');
    const { writer, events } = await RoomLogWriter.reopen(file, anyRecord);
    expect(events).toEqual([{ seq: 1 }, { seq: 2 }]);
    await writer.append({ seq: 3 });
    await writer.close();
    expect((await readRoomLog(file, anyRecord)).events).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
  });

  it('a torn tail is cut on opening and kept under the one name, <log>.line-<n>.<ms>.torn, for sessions and rooms alike', async () => {
    const file = await logFile('{"seq":1}\n{"seq":2,"da');
    const { writer, repaired } = await RoomLogWriter.reopen(file, anyRecord);
    expect(repaired).toBe(true);
    await writer.close();
    const kept = (await readdir(path.dirname(file))).filter((f) => f.endsWith('.torn'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^events\.jsonl\.line-2\.\d+\.torn$/);
    expect(await readFile(path.join(path.dirname(file), kept[0]!), 'utf8')).toBe('{"seq":2,"da');
    expect(await readFile(file, 'utf8')).toBe('{"seq":1}\n');
  });

  it('one append is one write of whole lines; a closed log refuses to append', async () => {
    const file = await logFile('');
    const { log } = await AppendLog.open(file, (bytes) => readJsonlLog(bytes, lineReader, (l, p) => new Error(`${l}: ${p}`)));
    await log.append(['{"seq":1}', '{"seq":2}'], () => 'nothing');
    await log.close();
    expect(await readFile(file, 'utf8')).toBe('{"seq":1}\n{"seq":2}\n');
    await expect(log.append(['{"seq":3}'], () => 'nothing')).rejects.toThrow('the log is closed');
  });
});
