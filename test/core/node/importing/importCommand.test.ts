import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ImportSummary } from '../../../../core/node/importing/itemsImport';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession } from '../export/recordSession';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/io');

async function newProject(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-import-')), 'proj');
  expect((await cli('init', '--project', dir)).code).toBe(0);
  return dir;
}

async function source(dir: string, name: string, content: string | Buffer): Promise<string> {
  const file = path.join(path.dirname(dir), name);
  await writeFile(file, content);
  return file;
}

async function importJson(...args: string[]): Promise<ImportSummary> {
  const run = await cli('import', ...args, '--json');
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out) as ImportSummary;
}

const listed = async (dir: string): Promise<Array<{ id: string; text: string; context?: string; meta?: unknown }>> =>
  JSON.parse((await cli('items', '--project', dir, '--json')).out) as Array<{ id: string; text: string }>;

describe('aloud import --kind conversations', () => {
  it('prints the fields the issue names, writes the items and a gap register, and invents nothing', async () => {
    const dir = await newProject();
    const file = path.join(fixtures, 'conversations.jsonl');
    const summary = await importJson('--project', dir, '--items', file, '--kind', 'conversations');
    for (const key of [
      'messages',
      'conversations',
      'candidate_replies',
      'included_pairs',
      'gaps',
      'distinct_user_contexts',
      'words_all_messages',
      'words_eligible_messages',
      'words_pairs',
      'source_sha256',
    ]) {
      expect(summary, key).toHaveProperty(key);
    }
    expect(summary).toMatchObject({
      messages: 12,
      conversations: 3,
      candidate_replies: 7,
      included_pairs: ['a1', 'a2', 'a5'],
      distinct_user_contexts: 2,
      messages_without_text: 1,
      // all: 6+7+4+1+3+3+6+1+4+2+2 (a7 has no text: no estimate); eligible: u1 6, a1 7, a2 4, u4 4, a5 2;
      // pairs: (6+7)+(6+4)+(4+2), the shared context counted with each sibling
      words_all_messages: 39,
      words_eligible_messages: 23,
      words_pairs: 29,
      source_sha256: createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
      items_added: 3,
      items_total: 3,
    });
    expect(summary.gaps.map((g) => [g.reply_id, g.reason, g.reference])).toEqual([
      ['a3', 'multi_turn_context', 'a1'],
      ['a4', 'system_or_tool_in_context', 's1'],
      ['a6', 'parent_not_found', 'u9'],
      ['a7', 'reply_text_missing', null],
    ]);
    const register = (await readFile(summary.gap_register!, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(register).toEqual(summary.gaps);
    expect(path.dirname(summary.gap_register!)).toBe(path.join(dir, 'imports'));
    expect(JSON.parse(await readFile(summary.import_record!, 'utf8'))).toEqual(summary);
    const items = await listed(dir);
    expect(items.map((i) => i.id)).toEqual(['a1', 'a2', 'a5']);
    expect(items[2]).toEqual({
      id: 'a5',
      text: 'Natürlich, gern.',
      context: 'Können Sie mir helfen?',
      meta: { conversation_id: 'c3', context_id: 'u4' },
    });
    expect(items[1]!.context).toBe(items[0]!.context);
  });

  it('a conversation CSV works too (empty cells are absent references)', async () => {
    const dir = await newProject();
    const file = await source(
      dir,
      'conv.csv',
      'message_id,parent_id,role,text,session_id\r\nu1,,user,"Hi, there?",c1\r\na1,u1,assistant,"Hello ""friend"".",c1\r\na2,,assistant,Lost,c1\r\n',
    );
    const summary = await importJson('--project', dir, '--items', file, '--kind', 'conversations');
    expect(summary.included_pairs).toEqual(['a1']);
    expect(summary.gaps.map((g) => g.reason)).toEqual(['missing_parent_id']);
    expect((await listed(dir))[0]).toMatchObject({ text: 'Hello "friend".', context: 'Hi, there?' });
  });
});

describe('aloud import --kind items', () => {
  it('imports JSONL, a JSON array and CSV; appends new ids; an identical re-import is a no-op', async () => {
    const dir = await newProject();
    const jsonl = await source(
      dir,
      'a.jsonl',
      '{"id":"i1","text":"Thanks a lot!","lang":"en"}\n{"id":"i2","text":"Go away.","context":"Can you help?"}\n',
    );
    let summary = await importJson('--project', dir, '--items', jsonl);
    expect(summary).toMatchObject({
      kind: 'items',
      format: 'jsonl',
      messages: null,
      included_pairs: ['i1', 'i2'],
      items_added: 2,
      items_total: 2,
      gap_register: null,
      words_pairs: 3 + 2 + 3,
    });
    const json = await source(dir, 'b.json', '[{"id":"i3","text":"Sure."}]');
    summary = await importJson('--project', dir, '--items', json);
    expect(summary).toMatchObject({ format: 'json', items_added: 1, items_total: 3 });
    const csv = await source(dir, 'c.csv', '\ufeffid,text,source\r\ni4,"Fine, ""thanks"".",survey\r\ni1,Thanks a lot!,\r\n');
    const before = await readFile(path.join(dir, 'items.jsonl'), 'utf8');
    const refused = await cli('import', '--project', dir, '--items', csv);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('c.csv:3: item "i1" already exists');
    expect(await readFile(path.join(dir, 'items.jsonl'), 'utf8')).toBe(before);
    await writeFile(csv, 'id,text,lang\r\ni4,"Fine, ""thanks"".",de\r\ni1,Thanks a lot!,en\r\n');
    const ok = await cli('import', '--project', dir, '--items', csv, '--json');
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ format: 'csv', items_added: 1, items_unchanged: 1, items_changed: [], items_total: 4 });
    expect((await listed(dir)).map((i) => i.id)).toEqual(['i1', 'i2', 'i3', 'i4']);
  });

  it('applies completely or not at all: one bad line anywhere leaves the items file byte-identical and writes nothing', async () => {
    const dir = await newProject();
    await importJson('--project', dir, '--items', await source(dir, 'ok.jsonl', '{"id":"keep","text":"kept"}\n'));
    const itemsFile = path.join(dir, 'items.jsonl');
    const before = await readFile(itemsFile);
    const importsBefore = await readdir(path.join(dir, 'imports'));
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `n${i}`, text: `text ${i}` }));
    lines[41] = '{"id":"n41","text":"dup key","text":"again"}';
    const bad = await source(dir, 'bad.jsonl', `${lines.join('\n')}\n`);
    const run = await cli('import', '--project', dir, '--items', bad, '--json');
    expect(run.code).toBe(2);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toContain('bad.jsonl:42: duplicate key "text"');
    expect(run.err).toContain('stage parse');
    expect((JSON.parse(run.out) as { problems: unknown[] }).problems).toEqual([
      expect.objectContaining({ line: 42, field: 'text', stage: 'parse' }),
    ]);
    expect(await readFile(itemsFile)).toEqual(before);
    expect(await readdir(path.join(dir, 'imports'))).toEqual(importsBefore);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it.each([
    [
      'invalid UTF-8',
      'u.jsonl',
      Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d, 0x0a]),
      [],
      'u.jsonl:1: not valid UTF-8',
      'input',
    ],
    [
      'a line over --max-line-bytes',
      'l.jsonl',
      `{"id":"a","text":"${'x'.repeat(200)}"}\n`,
      ['--max-line-bytes', '100'],
      'l.jsonl:1: line is 220 bytes, over the limit of 100',
      'input',
    ],
    [
      'a file over --max-file-bytes',
      'f.jsonl',
      '{"id":"a","text":"x"}\n'.repeat(10),
      ['--max-file-bytes', '64'],
      'f.jsonl: file is 220 bytes, over the limit of 64',
      'input',
    ],
    ['an unknown extension', 'items.txt', 'id,text\n', [], 'unknown file type', 'input'],
    ['a Markdown fence', 'm.json', '```json\n[{"id":"a","text":"x"}]\n```\n', [], 'm.json:1: a Markdown code fence', 'parse'],
    ['NaN', 'n.jsonl', '{"id":"a","text":"x","score":NaN}\n', [], 'n.jsonl:1: NaN is not allowed', 'parse'],
    ['a ragged CSV row', 'r.csv', 'id,text\na,b,c\n', [], 'r.csv:2: row has 3 fields, the header has 2', 'parse'],
    ['a CSV without a text column', 'h.csv', 'id,body\na,b\n', [], 'the header must have a column "text"', 'schema'],
    ['a missing text', 't.jsonl', '{"id":"a"}\n', [], 't.jsonl:1: required field is missing (field "text"', 'schema'],
    [
      'a duplicate id',
      'd.jsonl',
      '{"id":"a","text":"x"}\n{"id":"a","text":"y"}\n',
      [],
      'd.jsonl:2: duplicate item id "a" (first on line 1)',
      'rule',
    ],
    ['an empty file', 'e.jsonl', '\n', [], 'the file has no items', 'rule'],
  ])('rejects %s with exit 2 and one line naming file, line, field and stage', async (_name, name, content, args, fragment, stage) => {
    const dir = await newProject();
    const file = await source(dir, name, content);
    const run = await cli('import', '--project', dir, '--items', file, ...args);
    expect(run.code).toBe(2);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toContain(fragment);
    expect(run.err).toContain(`stage ${stage}`);
    expect(await readFile(path.join(dir, 'items.jsonl'), 'utf8')).toBe('');
    expect(existsSync(path.join(dir, 'imports'))).toBe(false);
  });

  it('--dry-run reports without writing', async () => {
    const dir = await newProject();
    const summary = await importJson('--project', dir, '--items', await source(dir, 'x.jsonl', '{"id":"a","text":"x"}\n'), '--dry-run');
    expect(summary).toMatchObject({ dry_run: true, items_added: 1, import_record: null });
    expect(await readFile(path.join(dir, 'items.jsonl'), 'utf8')).toBe('');
  });
});

describe('aloud import --replace', () => {
  it('refuses to remove or change items that hold session data unless --force, and says whose', async () => {
    const dir = await newProject();
    await importJson(
      '--project',
      dir,
      '--items',
      await source(dir, 'v1.jsonl', '{"id":"a","text":"A"}\n{"id":"b","text":"B"}\n{"id":"c","text":"C"}\n{"id":"d","text":"D"}\n'),
    );
    await recordSession(await loadProjectConfig(dir), 'ann', [{ id: 'a', click: 'Polite' }, { id: 'b', said: [' hmm'] }, { id: 'd' }]);
    const v2 = await source(dir, 'v2.jsonl', '{"id":"b","text":"B changed"}\n{"id":"e","text":"E"}\n');
    const before = await readFile(path.join(dir, 'items.jsonl'));
    const refused = await cli('import', '--project', dir, '--items', v2, '--replace', '--json');
    expect(refused.code).toBe(2);
    const problems = (JSON.parse(refused.out) as { problems: Array<{ line: number | null; message: string; stage: string }> }).problems;
    expect(problems.map((p) => [p.line, p.stage])).toEqual([
      [1, 'rule'],
      [null, 'rule'],
    ]);
    expect(problems[0]!.message).toContain('item "b" would change but has session data (ann)');
    expect(problems[1]!.message).toContain('item "a" would be removed but has session data (ann)');
    expect(await readFile(path.join(dir, 'items.jsonl'))).toEqual(before);

    // c and d hold no recorded work (d was only opened): replacing them alone is allowed
    const v3 = await source(dir, 'v3.jsonl', '{"id":"a","text":"A"}\n{"id":"b","text":"B"}\n{"id":"e","text":"E"}\n');
    expect(await importJson('--project', dir, '--items', v3, '--replace')).toMatchObject({
      items_removed: ['c', 'd'],
      items_added: 1,
      items_total: 3,
    });

    const forced = await importJson('--project', dir, '--items', v2, '--replace', '--force');
    expect(forced).toMatchObject({ mode: 'replace', items_changed: ['b'], items_removed: ['a'], items_total: 2 });
    expect((await listed(dir)).map((i) => [i.id, i.text])).toEqual([
      ['b', 'B changed'],
      ['e', 'E'],
    ]);
  });

  it('--force without --replace and a bad --kind are usage errors', async () => {
    const dir = await newProject();
    expect((await cli('import', '--project', dir, '--items', 'x.jsonl', '--force')).code).toBe(2);
    expect((await cli('import', '--project', dir, '--items', 'x.jsonl', '--kind', 'chats')).code).toBe(2);
    expect((await cli('import', '--project', dir)).err).toContain('missing required option --items');
  });
});
