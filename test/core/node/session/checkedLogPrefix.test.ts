import { copyFile, mkdir, mkdtemp, readFile, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_STUDY_SHAPE, writeScaleStudy } from '../../../../bench/scaleStudy';
import { SessionFold } from '../../../../core/common/session/sessionFold';
import { parseSessionLogBytes, SessionLogError } from '../../../../core/common/session/sessionLog';
import type { SessionEvent } from '../../../../core/common/session/sessionEvents';
import { sha256Hex } from '../../../../core/node/fs/sha256';
import { strictUtf8 } from '../../../../core/node/log/appendLog';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { checkedPrefixFile, readCheckedPrefix, type CheckedLogPrefix } from '../../../../core/node/session/checkedLogPrefix';
import { SessionLogWriter } from '../../../../core/node/session/sessionLogFile';
import type * as EventSchema from '../../../../core/common/session/sessionEventSchema';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { foldOptionsOf } from '../../../../core/node/session/sessionStore';

/** How many event data the schema check looked at (the check itself is the real one). */
const schemaChecks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../../core/common/session/sessionEventSchema', async (importOriginal) => {
  const real = await importOriginal<typeof EventSchema>();
  return {
    ...real,
    checkEventData: (...args: Parameters<typeof real.checkEventData>) => {
      schemaChecks.count++;
      return real.checkEventData(...args);
    },
  };
});

const ITEMS = 40;

/** A fresh study (its own temporary folder: nothing an earlier run left) with one annotator's log of recorded items. */
async function study(): Promise<{ dir: string; file: string; lines: number }> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-checked-prefix-')), 'study');
  await writeScaleStudy(dir, { ...DEFAULT_STUDY_SHAPE, items: ITEMS, annotators: ['ana'], recordings: true });
  const file = sessionPaths(dir, 'ana').events;
  return { dir, file, lines: (await readFile(file, 'utf8')).split('\n').length - 1 };
}

/** Opens the log for writing as a session does, and says how many schema checks that took. */
async function openLog(file: string): Promise<{ events: SessionEvent[]; checks: number }> {
  schemaChecks.count = 0;
  const { writer, events } = await SessionLogWriter.open(file);
  await writer.close();
  return { events, checks: schemaChecks.count };
}

/** The fold of events, as a session opens it: the whole state and every item's line. */
async function foldOf(dir: string, file: string, events: SessionEvent[]) {
  const project = await loadProjectConfig(dir);
  const fold = new SessionFold(project.config, file, foldOptionsOf(project));
  for (const event of events) fold.apply(event);
  return { state: fold.state(), summaries: fold.summaries() };
}

/** The note as it must be for the log's bytes now (whole lines, their sha256). */
async function noteFits(file: string): Promise<boolean> {
  const note = await readCheckedPrefix(file);
  const bytes = await readFile(file);
  return note !== null && note.bytes === bytes.length && note.sha256 === sha256Hex(bytes);
}

beforeEach(() => {
  schemaChecks.count = 0;
});

describe('the checked prefix of a session log (a derived note beside events.jsonl)', () => {
  it('the first open checks every line and writes the note; the next skips only the schema checks it vouches for, with the same events and fold', async () => {
    const { dir, file, lines } = await study();
    const first = await openLog(file);
    expect(first.checks).toBe(lines);
    expect(await noteFits(file)).toBe(true);

    const second = await openLog(file);
    expect(second.checks).toBe(0);
    expect(second.events).toEqual(first.events);
    // every line checked, without any note
    const full = parseSessionLogBytes(await readFile(file), file, strictUtf8).events;
    expect(second.events).toEqual(full);
    expect(await foldOf(dir, file, second.events)).toEqual(await foldOf(dir, file, full));
  });

  it('a changed byte inside the prefix: the note is ignored, every line is checked (and a bad one refused as before)', async () => {
    const { file, lines } = await study();
    await openLog(file);
    const text = await readFile(file, 'utf8');
    // same length, still JSON, but a source no schema allows: only the schema check can see it
    const at = text.indexOf('"source":"key"');
    await writeFile(file, `${text.slice(0, at)}"source":"kez"${text.slice(at + '"source":"key"'.length)}`);
    await expect(SessionLogWriter.open(file)).rejects.toThrow(SessionLogError);
    await expect(SessionLogWriter.open(file)).rejects.toThrow(/label_committed: data.source must be one of/);

    // a changed byte that stays valid: every line checked again, and the note rebuilt for the new bytes
    await writeFile(file, text.replace('"device":null', '"device":"mic"'));
    const reopened = await openLog(file);
    expect(reopened.checks).toBe(lines);
    expect(await noteFits(file)).toBe(true);
    expect((await openLog(file)).checks).toBe(0);
  });

  it('a truncated log (the note covers more than there is): ignored, every line checked, the note rebuilt', async () => {
    const { file, lines } = await study();
    await openLog(file);
    const text = await readFile(file, 'utf8');
    const kept = text.split('\n').slice(0, 100);
    await writeFile(file, `${kept.join('\n')}\n`);
    const reopened = await openLog(file);
    expect(reopened.checks).toBe(100);
    expect(reopened.events).toHaveLength(100);
    expect(await noteFits(file)).toBe(true);
    expect(lines).toBeGreaterThan(100);
  });

  it('an extended log: the prefix it vouches for is skipped, every line after it is checked, and the note then covers them', async () => {
    const { dir, file, lines } = await study();
    await openLog(file);
    const before = (await readCheckedPrefix(file))!;
    // a line written by another hand after the note was made
    const note = { v: 1, seq: lines + 1, ts: '2025-01-01T00:00:00.000Z', type: 'note', data: { item_id: null, text: 'one more' } };
    await appendFile(file, `${JSON.stringify(note)}\n`);
    const extended = await openLog(file);
    expect(extended.checks).toBe(1);
    expect(extended.events).toHaveLength(lines + 1);
    expect((await readCheckedPrefix(file))!.bytes).toBeGreaterThan(before.bytes);
    expect(await noteFits(file)).toBe(true);
    const full = parseSessionLogBytes(await readFile(file), file, strictUtf8).events;
    expect(await foldOf(dir, file, extended.events)).toEqual(await foldOf(dir, file, full));

    // a bad line appended after the prefix is refused although the prefix is vouched for
    await appendFile(
      file,
      `${JSON.stringify({ v: 2, seq: lines + 2, ts: '2025-01-01T00:00:00.000Z', type: 'item_opened', data: { item_id: '' } })}\n`,
    );
    await expect(SessionLogWriter.open(file)).rejects.toThrow(new RegExp(`:${lines + 2}: item_opened: `));
  });

  it('what the writer appends (each event checked) extends the note when it closes; the next open checks nothing again', async () => {
    const { file } = await study();
    await openLog(file);
    const { writer } = await SessionLogWriter.open(file);
    await writer.append('note', { item_id: null, text: 'one more' });
    await writer.appendAll([
      { type: 'item_opened', data: { item_id: 'item-000001', text_sha256: null } },
      { type: 'note', data: { item_id: 'item-000001', text: 'and another' } },
    ]);
    await writer.close();
    expect(await noteFits(file)).toBe(true);
    expect((await openLog(file)).checks).toBe(0);
  });

  it('a note that does not fit (another hash, other schemas, another file, a torn or foreign note) is ignored and rebuilt', async () => {
    const { file, lines } = await study();
    await openLog(file);
    const good = (await readCheckedPrefix(file))!;
    const cases: Array<[string, string]> = [
      ['another hash', JSON.stringify({ ...good, sha256: '0'.repeat(64) })],
      ['other schemas', JSON.stringify({ ...good, checks: '1'.repeat(64) })],
      ['another file', JSON.stringify({ ...good, file: '1:2' })],
      ['not at a line end', JSON.stringify({ ...good, bytes: good.bytes - 1 })],
      ['torn', JSON.stringify(good).slice(0, 40)],
      ['not a note', '[1,2,3]'],
    ];
    for (const [why, note] of cases) {
      await writeFile(checkedPrefixFile(file), note);
      expect([why, (await openLog(file)).checks]).toEqual([why, lines]);
      expect([why, await noteFits(file)]).toEqual([why, true]);
    }
  });

  it('a log copied with its note elsewhere (another file) is checked in full there', async () => {
    const { file, lines } = await study();
    await openLog(file);
    const elsewhere = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-checked-copy-')), 'ana');
    await mkdir(elsewhere);
    const copy = path.join(elsewhere, 'events.jsonl');
    await copyFile(file, copy);
    await copyFile(checkedPrefixFile(file), checkedPrefixFile(copy));
    const note: CheckedLogPrefix = JSON.parse(await readFile(checkedPrefixFile(copy), 'utf8')) as CheckedLogPrefix;
    expect(note.sha256).toBe(sha256Hex(await readFile(copy)));
    expect((await openLog(copy)).checks).toBe(lines);
  });
});
