import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionLogError } from '../../../../core/common/session/sessionLog';
import { DurableWriteError } from '../../../../core/node/fs/durableFile';
import { readSessionLog, SessionLogWriter } from '../../../../core/node/session/sessionLogFile';
import { faultyFs } from './faultyFs';

const clock = () => new Date('2024-05-01T10:00:00.000Z');

async function tempLog(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), 'aloud-log-')), 'events.jsonl');
}

async function startedLog(file: string): Promise<SessionLogWriter> {
  const { writer } = await SessionLogWriter.open(file, { now: clock });
  await writer.append('session_started', {
    annotator: 'ana',
    project_name: 'demo',
    sample_rate: 16000,
    config_sha256: null,
    parser_version: null,
    parser_inputs_sha256: null,
    kind: 'annotator',
    room: null,
  });
  return writer;
}

describe('SessionLogWriter', () => {
  it('appends one line per event with seq counting from 1, every append on disk when it resolves', async () => {
    const file = await tempLog();
    const writer = await startedLog(file);
    const opened = await writer.append('item_opened', { item_id: 'demo-01', text_sha256: null });
    expect(opened).toEqual({
      v: 2,
      seq: 2,
      ts: '2024-05-01T10:00:00.000Z',
      type: 'item_opened',
      data: { item_id: 'demo-01', text_sha256: null },
    });
    const [a, b] = await writer.appendAll([
      { type: 'note', data: { item_id: null, text: 'one' } },
      { type: 'note', data: { item_id: 'demo-01', text: 'two' } },
    ]);
    expect([a!.seq, b!.seq]).toEqual([3, 4]);
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('');
    await writer.close();
    expect((await readSessionLog(file)).events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('cuts a torn last line on opening, keeps its bytes in a .torn file, and goes on after the good part', async () => {
    const file = await tempLog();
    const writer = await startedLog(file);
    await writer.append('item_opened', { item_id: 'demo-01', text_sha256: null });
    await writer.close();
    const good = await readFile(file, 'utf8');
    const tornText = '{"v":1,"seq":3,"ts":"2024-05-01T10:00:01.000Z","type":"audio_app';
    await writeFile(file, good + tornText);

    expect((await readSessionLog(file)).torn).toEqual({ line: 3, text: tornText });
    const reopened = await SessionLogWriter.open(file, { now: clock });
    expect(reopened.events).toHaveLength(2);
    expect(reopened.torn).toEqual({ line: 3, bytes: tornText.length, tornFile: `${file}.line-3.${clock().getTime()}.torn` });
    expect(await readFile(reopened.torn!.tornFile, 'utf8')).toBe(tornText);
    expect(await readFile(file, 'utf8')).toBe(good);
    expect((await reopened.writer.append('item_opened', { item_id: 'demo-02', text_sha256: null })).seq).toBe(3);
    await reopened.writer.close();
    expect((await readSessionLog(file)).events).toHaveLength(3);
  });

  it('adds the newline a complete last event is missing', async () => {
    const file = await tempLog();
    const writer = await startedLog(file);
    await writer.close();
    await writeFile(file, (await readFile(file, 'utf8')).trimEnd());
    const reopened = await SessionLogWriter.open(file, { now: clock });
    expect(reopened.torn).toBeNull();
    await reopened.writer.append('item_opened', { item_id: 'x', text_sha256: null });
    await reopened.writer.close();
    expect((await readSessionLog(file)).events).toHaveLength(2);
  });

  it('refuses a log corrupted in the middle, naming the line, and leaves it untouched', async () => {
    const file = await tempLog();
    const writer = await startedLog(file);
    await writer.append('item_opened', { item_id: 'demo-01', text_sha256: null });
    await writer.append('item_opened', { item_id: 'demo-02', text_sha256: null });
    await writer.close();
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[1] = lines[1]!.replace('item_opened', 'item_opend');
    const corrupt = lines.join('\n');
    await writeFile(file, corrupt);
    const error = await SessionLogWriter.open(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SessionLogError);
    expect((error as Error).message).toBe(`${file}:2: unknown event type "item_opend"`);
    expect(await readFile(file, 'utf8')).toBe(corrupt);
    expect((await readdir(path.dirname(file))).filter((f) => f.endsWith('.torn'))).toEqual([]);
  });

  it('on a full disk an append fails clearly and leaves no partial line; earlier events are intact', async () => {
    const file = await tempLog();
    const fs = faultyFs({});
    const { writer } = await SessionLogWriter.open(file, { fs, now: clock });
    await writer.append('session_started', {
      annotator: 'ana',
      project_name: 'demo',
      sample_rate: 16000,
      config_sha256: null,
      parser_version: null,
      parser_inputs_sha256: null,
      kind: 'annotator',
      room: null,
    });
    const before = await readFile(file, 'utf8');
    fs.setBudget(20);
    const error = await writer.append('note', { item_id: null, text: 'x'.repeat(200) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DurableWriteError);
    expect((error as Error).message).toBe(`cannot write to ${file}: no space left on the disk (ENOSPC); events up to seq 1 are kept`);
    expect(await readFile(file, 'utf8')).toBe(before);
    fs.setBudget(Infinity);
    expect((await writer.append('note', { item_id: null, text: 'after' })).seq).toBe(2);
    await writer.close();
    expect((await readSessionLog(file)).events.map((e) => e.type)).toEqual(['session_started', 'note']);
  });

  it('a read-only folder: opening for writing fails with a clear error', async () => {
    const file = await tempLog();
    const error = await SessionLogWriter.open(file, { fs: faultyFs({ failOpen: 'EROFS' }) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(`cannot open ${file} for writing: the folder is on a read-only file system (EROFS)`);
  });
});
