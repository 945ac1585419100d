import { mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { parseProjectConfig } from '../../../core/common/project/projectConfig';
import { encodeWavPcm16 } from '../../../core/node/audio/wavFile';
import { SessionNameError, sessionPaths } from '../../../core/node/session/sessionPaths';
import { recordSession } from '../../core/node/export/recordSession';
import { syntheticVocabOnlyModel } from '../../core/node/models/localModelServer';
import { cli } from '../../helpers/cli';
import { freshProject, recordedProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void> | void) => cases.push({ name, run });

/** The demo aloud.yaml with `edit` applied to its text. */
async function configWith(edit: (text: string) => string | Uint8Array): Promise<{ dir: string; file: string }> {
  const { project } = await freshProject();
  const file = path.join(project.dir, 'aloud.yaml');
  await writeFile(file, edit(await readFile(file, 'utf8')));
  return { dir: project.dir, file };
}

/** `aloud items --project DIR` must refuse the config in one line naming it, with a line number when given. */
async function expectConfigRefused(dir: string, message: RegExp, line?: number): Promise<void> {
  const result = await cli('items', '--project', dir);
  expect(result.code, result.err).toBe(2);
  expect(result.err.trim().split('\n'), result.err).toHaveLength(1);
  expect(result.err).toMatch(message);
  expect(result.err).toContain(`aloud.yaml${line === undefined ? '' : `:${line}`}`);
  expect(result.err).not.toMatch(/\n\s+at |ReferenceError|TypeError/);
}

// aloud.yaml
const bomb = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...'bcdefgh'.split('').map((n, i) => `${n}: &${n} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
].join('\n');
add('a YAML alias bomb (billion laughs) in aloud.yaml is refused with a located one-line error, not a stack trace', async () => {
  const { dir } = await configWith((t) => `${t}\n${bomb}\n`);
  await expectConfigRefused(dir, /too many aliases/);
});
add('an alias bomb is refused quickly by the pure parser too (no exponential expansion)', () => {
  const started = performance.now();
  expect(() => parseProjectConfig(`name: x\n${bomb}\n`, 'aloud.yaml')).toThrow(/too many aliases/);
  expect(performance.now() - started).toBeLessThan(5000);
});
for (const tag of ['!foo', '!!js/function', '!<tag:evil.example,2024:x>', '!!binary']) {
  add(`an unknown YAML tag ${tag} is refused with its line, not read as a string`, async () => {
    const { dir } = await configWith((t) => t.replace('name: politeness-demo', `name: ${tag} politeness-demo`));
    await expectConfigRefused(dir, /YAML: .*tag/i, 2);
  });
}
add('aloud.yaml in Latin-1 (not UTF-8) is refused with the line and byte, not read with replacement characters', async () => {
  const { dir } = await configWith((t) =>
    Buffer.concat([
      Buffer.from(t.replace('name: politeness-demo', 'name: politeness-demo')),
      Buffer.from('\n# caf'),
      Buffer.from([0xe9]),
      Buffer.from('\n'),
    ]),
  );
  await expectConfigRefused(dir, /not valid UTF-8: malformed byte sequence at byte \d+/);
});
add('aloud.yaml in UTF-16 is refused as not UTF-8', async () => {
  const { dir } = await configWith((t) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]));
  await expectConfigRefused(dir, /not valid UTF-8/);
});
add('an aloud.yaml over 1 MiB is refused before parsing', async () => {
  const { dir } = await configWith((t) => `${t}\n# ${'x'.repeat(1024 * 1024)}\n`);
  await expectConfigRefused(dir, /over the limit/);
});
for (const [what, name] of [
  ['NUL', 'Pol\\0ite'],
  ['a bell', 'Pol\\aite'],
  ['an escape sequence', '\\e[31mPolite'],
  ['a C1 control', 'Pol\\x85ite'],
] as const) {
  add(`a label name with ${what} is refused with its key path and line`, async () => {
    const { dir } = await configWith((t) => t.replace('{name: Polite,', `{name: "${name}",`));
    await expectConfigRefused(dir, /schema\.labels\[0\]\.name: label name .* contains a control character/, 7);
  });
}

// Annotator names: one name, one look.
for (const [what, name] of [
  ['a right-to-left override (U+202E)', 'ana\u202Efdp.exe'],
  ['a left-to-right override (U+202D)', '\u202Dana'],
  ['a right-to-left isolate (U+2067)', 'ana\u2067x\u2069'],
  ['a right-to-left mark (U+200F)', 'ana\u200F'],
  ['an Arabic letter mark (U+061C)', 'ana\u061C'],
  ['a zero-width space (U+200B)', 'an\u200Ba'],
  ['a zero-width joiner (U+200D)', 'an\u200Da'],
  ['a word joiner (U+2060)', 'an\u2060a'],
  ['a byte order mark inside (U+FEFF)', 'an\uFEFFa'],
  ['a soft hyphen (U+00AD)', 'an\u00ADa'],
] as const) {
  add(`an annotator name with ${what} is refused, naming the character`, () => {
    expect(() => sessionPaths('/p', name)).toThrow(SessionNameError);
    expect(() => sessionPaths('/p', name)).toThrow(/invisible or text-direction character \(U\+[0-9A-F]{4} at position \d+\)/);
  });
}
add('names in other scripts and with accents stay accepted (Zoë, 李雷, Ana-María, محمد)', () => {
  for (const name of ['Zoë', '李雷', 'Ana-María', 'محمد']) expect(sessionPaths('/p', name).dir).toContain('sessions');
});
add('session ingest with a bidi annotator name exits 2 in one line', async () => {
  const { project } = await freshProject();
  const result = await cli(
    'session',
    'ingest',
    '--project',
    project.dir,
    '--annotator',
    'ana\u202E',
    '--item',
    'demo-01',
    '--wav',
    'x.wav',
  );
  expect(result.code).toBe(2);
  expect(result.err.trim().split('\n')).toHaveLength(1);
  expect(result.err).toContain('U+202E');
});

// Session logs.
add('session show when events.jsonl is a folder: exit 2, one line naming it', async () => {
  const { project } = await freshProject();
  await mkdir(path.join(project.dir, 'sessions', 'ana', 'events.jsonl'), { recursive: true });
  const result = await cli('session', 'show', '--project', project.dir, '--annotator', 'ana');
  expect(result.code, result.err).toBe(2);
  expect(result.err.trim().split('\n')).toHaveLength(1);
  expect(result.err).toMatch(/events\.jsonl: is a folder, not a session log/);
});
add('export when events.jsonl is a folder: exit 2 naming it, never silently skipped', async () => {
  const { project, root } = await freshProject();
  await recordSession(project, 'ana', [{ id: 'demo-01', click: 'Polite' }]);
  await mkdir(path.join(project.dir, 'sessions', 'ben', 'events.jsonl'), { recursive: true });
  const result = await cli('export', '--project', project.dir, '--format', 'jsonl', '--out', path.join(root, 'out.jsonl'));
  expect(result.code, result.err).toBe(2);
  expect(result.err).toMatch(/ben.events\.jsonl: is not a file/);
  await expect(stat(path.join(root, 'out.jsonl'))).rejects.toThrow();
});
add('export of an empty events.jsonl: exit 2 naming it, not an annotator who did nothing', async () => {
  const { project, root } = await freshProject();
  await mkdir(path.join(project.dir, 'sessions', 'ben'), { recursive: true });
  await writeFile(path.join(project.dir, 'sessions', 'ben', 'events.jsonl'), '');
  const result = await cli('export', '--project', project.dir, '--format', 'csv', '--out', path.join(root, 'out.csv'));
  expect(result.code, result.err).toBe(2);
  expect(result.err).toMatch(/events\.jsonl: the session log is empty/);
});

// Referenced WAVs at export and validate.
async function exportedProject(format: 'jsonl' | 'csv' = 'jsonl') {
  const recorded = await recordedProject();
  const out = path.join(recorded.root, `out.${format}`);
  const exported = await cli('export', '--project', recorded.project.dir, '--format', format, '--out', out, '--json');
  expect(exported.code, exported.err).toBe(0);
  return { ...recorded, out };
}
const wavDamage: Array<[string, (wav: string) => Promise<void>, RegExp]> = [
  [
    'cut to half its length',
    async (wav) => writeFile(wav, (await readFile(wav)).subarray(0, 44 + 16_000)),
    /data size does not match|holds \d+ ms of audio, the session log 1000 ms/,
  ],
  ['replaced by garbage', (wav) => writeFile(wav, Buffer.alloc(32_044, 0x41)), /not a WAV file/],
  [
    'replaced by a valid WAV of another length',
    (wav) => writeFile(wav, encodeWavPcm16(new Float32Array(8000), 16_000)),
    /holds 500 ms of audio, the session log 1000 ms/,
  ],
  ['replaced by a 44.1 kHz WAV', (wav) => writeFile(wav, encodeWavPcm16(new Float32Array(44_100), 44_100)), /not a session recording/],
  [
    'given a header claiming more data than the file has',
    async (wav) => {
      const bytes = await readFile(wav);
      bytes.writeUInt32LE(bytes.length * 4, 40);
      await writeFile(wav, bytes);
    },
    /data size does not match/,
  ],
];
for (const [what, damage, problem] of wavDamage) {
  add(`export with the item's WAV ${what}: the record gets a gap and a warning says what disagrees`, async () => {
    const { project, root, wav } = await recordedProject();
    await damage(wav);
    const out = path.join(root, 'out.jsonl');
    const exported = await cli('export', '--project', project.dir, '--format', 'jsonl', '--out', out, '--json');
    expect(exported.code, exported.err).toBe(0);
    const record = (await readFile(out, 'utf8'))
      .split('\n')
      .map((l) => (l ? JSON.parse(l) : null))
      .find((r) => r?.item_id === 'demo-01');
    expect(record.audio.sha256).toBeNull();
    expect(exported.out + exported.err).toMatch(problem);
  });
  add(`validate --project after the WAV was ${what} since the export: exit 1 naming the item`, async () => {
    const { project, wav, out } = await exportedProject();
    await damage(wav);
    const result = await cli('validate', out, '--project', project.dir);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/ana \/ demo-01: sessions\/ana\/audio\/demo-01\.wav/);
  });
}
add('validate --project after the WAV was replaced by different audio of the same length: the sha256 disagrees', async () => {
  const { project, wav, out } = await exportedProject();
  const bytes = await readFile(wav);
  bytes[100] = bytes[100]! ^ 0xff;
  await writeFile(wav, bytes);
  const result = await cli('validate', out, '--project', project.dir);
  expect(result.code).toBe(1);
  expect(result.out).toMatch(/sha256 is [0-9a-f]{64}, the export recorded [0-9a-f]{64}/);
});
add('validate --project after the WAV was deleted: exit 1, missing from the project', async () => {
  const { project, wav, out } = await exportedProject();
  await rm(wav);
  const result = await cli('validate', out, '--project', project.dir);
  expect(result.code).toBe(1);
  expect(result.out).toMatch(/is missing from the project/);
});
add('validate --project of an untouched CSV export with recordings passes (the check is not a false alarm)', async () => {
  const { project, out } = await exportedProject('csv');
  const result = await cli('validate', out, '--project', project.dir);
  expect(result.code, result.out).toBe(0);
});

// Imported models.
add('models verify fails for an imported model whose bytes changed since import (same size, same mtime)', async () => {
  const { root } = await freshProject();
  const dir = path.join(root, 'models');
  await mkdir(dir);
  const source = path.join(root, 'ggml-custom.bin');
  await writeFile(source, syntheticVocabOnlyModel());
  const imported = await cli('models', 'import', source, '--dir', dir, '--json');
  expect(imported.code, imported.err).toBe(0);
  const file = path.join(dir, JSON.parse(imported.out).file as string);
  const before = await stat(file);
  const bytes = await readFile(file);
  bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0x01;
  await writeFile(file, bytes);
  await utimes(file, before.atime, before.mtime);
  expect((await cli('models', 'verify', '--dir', dir)).code).toBe(1);
  expect((await cli('models', 'verify', '--dir', dir)).out).toMatch(/changed since it was imported/);
});

export const projectInputsGroup = hostileGroup<null>({
  surface: 'files',
  area: 'aloud.yaml, annotator names, session logs, referenced WAVs, imported models',
  setup: () => null,
  cases,
});
