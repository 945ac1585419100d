import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { projectConfigJsonSchema } from '../../../core/common/project/projectConfig';
import { itemsFromRecords } from '../../../core/common/items/itemsSource';
import type { LocatedValue } from '../../../core/common/io/jsonInput';
import { loadProjectConfig, loadProjectItems } from '../../../core/node/project/projectFolder';
import { SessionStore } from '../../../core/node/session/sessionStore';
import { itemAudioRelativePath, sessionPaths } from '../../../core/node/session/sessionPaths';
import { cli } from '../../helpers/cli';
import { freshProject, recordedProject, rejection, unchanged } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void> | void) => cases.push({ name, run });

/** Writes `name` beside a fresh project and imports it; returns the CLI's answer and the project. */
async function importFile(name: string, content: string | Buffer, ...extra: string[]) {
  const { project, root } = await freshProject();
  const file = path.join(root, name);
  await writeFile(file, content);
  const itemsBefore = await readFile(path.join(project.dir, 'items.jsonl'));
  const run = await cli('import', '--project', project.dir, '--items', file, ...extra);
  return { run, project, file, itemsBefore };
}

/** The import must refuse in one line naming the file and `line`, and leave the project's items as they were. */
async function refusedAt(name: string, content: string | Buffer, line: number, message: RegExp, ...extra: string[]): Promise<void> {
  const { run, project, itemsBefore } = await importFile(name, content, ...extra);
  expect(run.code, run.out + run.err).toBe(2);
  expect(run.err).toContain(`${name}:${line}:`);
  expect(run.err).toMatch(message);
  expect(run.err).not.toMatch(/\n\s+at /);
  await unchanged(path.join(project.dir, 'items.jsonl'), itemsBefore);
}

const jsonl = (...items: Array<Record<string, unknown>>) => items.map((i) => `${JSON.stringify(i)}\n`).join('');

// 14. Limits are checked at import, in the units recording uses (characters of the encoded file name).
add('an item id of 200 emoji (800 bytes, 2,400 characters once encoded) is refused at import, not at its first recording', () =>
  refusedAt(
    'long.jsonl',
    jsonl({ id: 'new-1', text: 'ok' }, { id: '😀'.repeat(200), text: 'hi' }),
    2,
    /too long for a file name \(2400 characters once encoded, at most 200\)/,
  ),
);
add('the same id in a CSV is refused the same way', () =>
  refusedAt('long.csv', `id,text\r\nnew-1,ok\r\n${'😀'.repeat(200)},hi\r\n`, 3, /too long for a file name/),
);
add('67 capital letters (201 characters once encoded: a capital is %XX) are refused; the limit counts what recording counts', () =>
  refusedAt('caps.jsonl', jsonl({ id: 'A'.repeat(67), text: 'hi' }), 1, /201 characters once encoded, at most 200/),
);
add('an id at the limit (22 CJK characters, 198 once encoded) imports and can be recorded; 23 are refused', async () => {
  const ok = '\u6f22'.repeat(22);
  const { run, project } = await importFile('cjk.jsonl', jsonl({ id: ok, text: 'hi' }));
  expect(run.code, run.err).toBe(0);
  const store = await SessionStore.open({ project: await loadProjectConfig(project.dir), annotator: 'ana' });
  try {
    await store.append('item_opened', { item_id: ok, text_sha256: null });
    const writer = await store.audioWriter(ok);
    writer.append(new Float32Array(160));
  } finally {
    await store.close();
  }
  await refusedAt('cjk23.jsonl', jsonl({ id: '\u6f22'.repeat(23), text: 'hi' }), 1, /207 characters once encoded/);
});
add('an id that is a lone surrogate (escaped in JSON) is refused: it is not text and cannot be a file name', () =>
  refusedAt('surrogate.jsonl', '{"id":"a\\ud800b","text":"hi"}\n', 1, /not valid Unicode/),
);
add('an id with a C1 control character (U+0085) is refused', () =>
  refusedAt('c1.jsonl', jsonl({ id: 'a\u0085b', text: 'hi' }), 1, /control character/),
);
add('every id an import accepts can be recorded (2,000 seeded random ids of letters, marks, emoji, invisibles and controls)', () => {
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const alphabet = [
    'a',
    'Z',
    '0',
    '-',
    '.',
    ' ',
    'é',
    'e\u0301',
    '\u6f22',
    '😀',
    '\u200b',
    '\u202e',
    '\u0085',
    '%',
    '/',
    '\\',
    '\ud800',
    'con',
    'x'.repeat(40),
  ];
  let accepted = 0;
  for (let i = 0; i < 2000; i++) {
    const id = Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    const record: LocatedValue = { line: 1, pointer: '', value: { id, text: 't' }, locate: () => 1 };
    let items;
    try {
      items = itemsFromRecords([record], 'x.jsonl', undefined, 'import');
    } catch {
      continue;
    }
    accepted++;
    expect(() => itemAudioRelativePath(sessionPaths('/p', 'ana'), items[0]!.id), JSON.stringify(id)).not.toThrow();
  }
  expect(accepted).toBeGreaterThan(100);
});
add('a conversation reply whose id is 200 emoji becomes a gap (invalid_reply_id), not an item that can never be recorded', async () => {
  const messages = jsonl(
    { message_id: 'u1', role: 'user', text: 'hello?', session_id: 's1' },
    { message_id: '😀'.repeat(200), parent_id: 'u1', role: 'assistant', text: 'hi!', session_id: 's1' },
    { message_id: 'u2', role: 'user', text: 'hey?', session_id: 's2' },
    { message_id: 'r2', parent_id: 'u2', role: 'assistant', text: 'yo', session_id: 's2' },
  );
  const { run } = await importFile('conv.jsonl', messages, '--kind', 'conversations', '--json');
  expect(run.code, run.err).toBe(0);
  const summary = JSON.parse(run.out) as { included_pairs: string[]; gaps: Array<{ reason: string; line: number; message: string }> };
  expect(summary.included_pairs).toEqual(['r2']);
  expect(summary.gaps).toEqual([
    expect.objectContaining({ reason: 'invalid_reply_id', line: 2, message: expect.stringMatching(/too long for a file name/) }),
  ]);
});

// 15. Ids are normalised and compared as they read: one id in two forms is refused, naming both lines.
add('"café" precomposed and decomposed in one file are one id: refused, naming both lines', () =>
  refusedAt(
    'cafe.jsonl',
    jsonl({ id: 'caf\u00e9', text: 'a' }, { id: 'other', text: 'b' }, { id: 'cafe\u0301', text: 'c' }),
    3,
    /item id of line 1 in another form|"caf\u00e9" of line 1 in another form/,
  ),
);
add('"d1" and "d1" with a zero-width space are one id: refused, naming both lines', () =>
  refusedAt('zw.jsonl', jsonl({ id: 'd1', text: 'a' }, { id: 'd1\u200b', text: 'b' }), 2, /"d1" of line 1 in another form/),
);
add('the same rule in CSV rows', () => refusedAt('cafe.csv', `id,text\r\ncaf\u00e9,a\r\ncafe\u0301,b\r\n`, 3, /of line 2 in another form/));
add('an id with a right-to-left override is refused', () =>
  refusedAt('bidi.jsonl', jsonl({ id: 'item\u202e1', text: 'a' }), 1, /invisible or text-direction character \(U\+202E/),
);
add('an id typed decomposed is stored precomposed (NFC)', async () => {
  const { run, project } = await importFile('nfd.jsonl', jsonl({ id: 'ne\u0301e', text: 'a' }));
  expect(run.code, run.err).toBe(0);
  const ids = (await loadProjectItems(await loadProjectConfig(project.dir))).map((i) => i.id);
  expect(ids).toContain('n\u00e9e');
  expect(ids).not.toContain('ne\u0301e');
});
add("an imported id that is a project item's id in another Unicode form is refused, naming the project's item", async () => {
  const { project, root } = await freshProject();
  const items = path.join(project.dir, 'items.jsonl');
  await writeFile(items, `${await readFile(items, 'utf8')}${JSON.stringify({ id: 'cafe\u0301', text: 'old' })}\n`);
  const before = await readFile(items);
  const file = path.join(root, 'more.jsonl');
  await writeFile(file, jsonl({ id: 'caf\u00e9', text: 'new' }));
  const run = await cli('import', '--project', project.dir, '--items', file);
  expect(run.code).toBe(2);
  expect(run.err).toMatch(/more\.jsonl:1: .*is the project's item "cafe\u0301"/);
  await unchanged(items, before);
});
add('a conversation with one reply id in two Unicode forms makes both replies gaps (duplicate_message_id), not two items', async () => {
  const messages = jsonl(
    { message_id: 'u1', role: 'user', text: 'hello?', session_id: 's1' },
    { message_id: 'r-caf\u00e9', parent_id: 'u1', role: 'assistant', text: 'hi!', session_id: 's1' },
    { message_id: 'u2', role: 'user', text: 'hey?', session_id: 's2' },
    { message_id: 'r-cafe\u0301', parent_id: 'u2', role: 'assistant', text: 'yo', session_id: 's2' },
    { message_id: 'u3', role: 'user', text: 'and?', session_id: 's3' },
    { message_id: 'r3', parent_id: 'u3', role: 'assistant', text: 'fine', session_id: 's3' },
  );
  const { run } = await importFile('conv.jsonl', messages, '--kind', 'conversations', '--json');
  expect(run.code, run.err).toBe(0);
  const summary = JSON.parse(run.out) as { included_pairs: string[]; gaps: Array<{ reason: string; line: number }> };
  expect(summary.included_pairs).toEqual(['r3']);
  expect(summary.gaps.map((g) => [g.reason, g.line])).toEqual([
    ['duplicate_message_id', 2],
    ['duplicate_message_id', 4],
  ]);
});

// 16. A raw control character in a CSV field is refused, as JSON refuses one in a string.
for (const [what, csv, line] of [
  ['a raw NUL in a text field', 'id,text\r\nn1,hel\u0000lo\r\n', 2],
  ['a raw ESC in a quoted field', 'id,text\r\nn1,"red \u001b[31m"\r\n', 2],
  ['a raw BEL in the header', 'id,te\u0007xt\r\nn1,hi\r\n', 1],
  ['a raw NUL in the id', 'id,text\r\nok,fine\r\nn\u00002,hi\r\n', 3],
  ['a raw form feed on the second line of a quoted field', 'id,text\r\nn1,"line one\nline\u000c two"\r\n', 3],
] as const) {
  add(`${what} of a CSV is refused at its line, like raw controls in JSONL`, () =>
    refusedAt('ctl.csv', csv, line, /raw control character \(U\+00(00|1B|07|0C)\)/),
  );
}
add('tabs and line breaks inside quoted CSV fields are kept (they are text)', async () => {
  const { run, project } = await importFile('ok.csv', 'id,text\r\nn1,"a\ttab and\r\na line break"\r\n');
  expect(run.code, run.err).toBe(0);
  const item = (await loadProjectItems(await loadProjectConfig(project.dir))).find((i) => i.id === 'n1')!;
  expect(item.text).toBe('a\ttab and\r\na line break');
});
add('a raw NUL in a conversations CSV is refused too', () =>
  refusedAt(
    'conv.csv',
    'message_id,parent_id,role,text,session_id\r\nu1,,user,hi\u0000,s1\r\n',
    2,
    /raw control character/,
    '--kind',
    'conversations',
  ),
);
add('a raw NUL inside a JSONL string is refused (the rule CSV now shares)', () =>
  refusedAt('nul.jsonl', '{"id":"n1","text":"a\u0000b"}\n', 1, /control character|not valid JSON|JSON/),
);

// 17. Every number in aloud.yaml is bounded.
async function configRefused(edit: (text: string) => string, key: string): Promise<void> {
  const { project } = await freshProject();
  const file = path.join(project.dir, 'aloud.yaml');
  await writeFile(file, edit(await readFile(file, 'utf8')));
  const run = await cli('items', '--project', project.dir);
  expect(run.code, run.out).toBe(2);
  expect(run.err.trim().split('\n')).toHaveLength(1);
  expect(run.err).toMatch(new RegExp(`aloud\\.yaml:\\d+: thinkaloud\\.${key}: must be`));
}
const withThinkaloud = (lines: string) => (text: string) =>
  /^thinkaloud:/m.test(text) ? text.replace(/^thinkaloud:\n/m, `thinkaloud:\n${lines}\n`) : `${text}\nthinkaloud:\n${lines}\n`;
for (const [key, value] of [
  ['min_pause_ms', '1e26'],
  ['long_pause_ms', '1e26'],
  ['min_pause_ms', '60001'],
  ['chunk_seconds', '1e-300'],
  ['chunk_seconds', '0.001'],
  ['complete_wait_seconds', '1e9'],
  ['silence_threshold_dbfs', '-1e300'],
] as const) {
  add(`thinkaloud.${key}: ${value} in aloud.yaml is refused, located`, () => configRefused(withThinkaloud(`  ${key}: ${value}`), key));
}
add('every number aloud.yaml holds has a lower and an upper bound in its schema', () => {
  const unbounded: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.type === 'number' || n.type === 'integer') {
      const low = n.minimum !== undefined || n.exclusiveMinimum !== undefined;
      const high = n.maximum !== undefined || n.exclusiveMaximum !== undefined;
      if (!low || !high) unbounded.push(at);
    }
    for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
  };
  walk(projectConfigJsonSchema, '');
  expect(unbounded).toEqual([]);
});

// 18. An invalid UTF-8 line of a session log is reported at its own line.
async function damagedLog(edit: (lines: Buffer[]) => void): Promise<{ dir: string; events: string; before: Buffer }> {
  const { project } = await recordedProject();
  const { events } = sessionPaths(project.dir, 'ana');
  const lines = (await readFile(events))
    .toString('utf8')
    .split('\n')
    .map((l) => Buffer.from(l));
  edit(lines);
  await writeFile(events, Buffer.concat(lines.flatMap((l, i) => (i ? [Buffer.from('\n'), l] : [l]))));
  return { dir: project.dir, events, before: await readFile(events) };
}
const insertByte = (line: Buffer, after: string, bytes: number[]) => {
  const at = line.indexOf(after) + Buffer.byteLength(after);
  return Buffer.concat([line.subarray(0, at), Buffer.from(bytes), line.subarray(at)]);
};
add('a malformed UTF-8 byte inside a transcript on line 6 is reported at line 6, not read as U+FFFD', async () => {
  const { dir, events } = await damagedLog((lines) => {
    const i = lines.findIndex((l) => l.includes('"utterance_transcribed"'));
    expect(i).toBe(5);
    lines[i] = insertByte(lines[i]!, '"text":"', [0xff]);
  });
  const run = await cli('session', 'show', '--project', dir, '--annotator', 'ana');
  expect(run.code).toBe(2);
  expect(run.err).toContain(`${events}:6: not valid UTF-8`);
});
add('a malformed byte in the time of line 3 is named as bad UTF-8 at line 3 (not as a bad time)', async () => {
  const { dir, events } = await damagedLog((lines) => (lines[2] = insertByte(lines[2]!, '"ts":"', [0xc3, 0x28])));
  const run = await cli('session', 'show', '--project', dir, '--annotator', 'ana');
  expect(run.err).toContain(`${events}:3: not valid UTF-8: malformed byte 0xc3 at byte`);
});
add('opening a session whose log has a malformed byte on line 4 refuses at line 4 and leaves the log as it was', async () => {
  const { dir, events, before } = await damagedLog((lines) => (lines[3] = Buffer.concat([lines[3]!, Buffer.from([0xe2, 0x82])]))); // a cut euro sign
  const error = await rejection(SessionStore.open({ project: await loadProjectConfig(dir), annotator: 'ana' }));
  expect(error.message).toContain(`${events}:4: not valid UTF-8`);
  await unchanged(events, before);
});
add('a final line cut mid-character by a crash (no newline) is a torn line: cut and kept, the session opens', async () => {
  const { dir } = await damagedLog((lines) => (lines[lines.length - 1] = Buffer.from([0x7b, 0x22, 0x76, 0xe2, 0x82])));
  const store = await SessionStore.open({ project: await loadProjectConfig(dir), annotator: 'ana' });
  expect(store.report.torn).toMatchObject({ line: 8, bytes: 5 });
  await store.close();
});

export const importsGroup = hostileGroup<null>({
  surface: 'imports',
  area: 'items, conversations, CSV cells, aloud.yaml numbers, session-log bytes',
  setup: () => null,
  cases,
});
