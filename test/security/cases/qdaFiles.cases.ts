import type { InputError } from '../../../core/common/io/inputProblem';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { expect } from 'vitest';
import { MAX_CODINGS_CODERS, MAX_CODINGS_ROWS, parseCodingsCsv } from '../../../core/common/coding/codingImport';
import { cli } from '../../helpers/cli';
import { freshProject, recordedProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';
import { zeroBomb, zipOf } from '../hostileArchives';

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void> | void) => cases.push({ name, run });

const GUID = (n: number): string => `${n.toString(16).padStart(8, '0')}-4e5f-4061-8273-94a5b6c7d8e9`;
const codebookXml = (codes: string, prolog = ''): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n${prolog}<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="test"><Codes>${codes}</Codes></CodeBook>\n`;
const code = (n: number, name: string, inner = ''): string => `<Code guid="${GUID(n)}" name="${name}" isCodable="true">${inner}</Code>`;

/** A one-line refusal (exit 2, no stack trace) matching `message`; the project gets no codebook. */
async function refusedInOneLine(run: { code: number; out: string; err: string }, message: RegExp): Promise<void> {
  expect(run.code, run.out + run.err).toBe(2);
  expect(run.err.trimEnd().split('\n'), run.err).toHaveLength(1);
  expect(run.err).toMatch(message);
  expect(run.err).not.toMatch(/\n\s+at /);
}

async function importCodebookFile(name: string, bytes: string | Buffer) {
  const { project, root } = await freshProject();
  const file = path.join(root, name);
  await writeFile(file, bytes);
  const run = await cli('import', '--project', project.dir, '--codebook', file);
  const written = await readFile(path.join(project.dir, 'codebook.yaml'), 'utf8').catch(() => null);
  return { run, written, project, root, file };
}

async function codebookRefused(name: string, bytes: string | Buffer, message: RegExp, existing?: string): Promise<void> {
  const { run, written } = await importCodebookFile(name, bytes);
  await refusedInOneLine(run, message);
  expect(written).toBe(existing ?? null);
}

/** A .qdpx (zip) holding `entries` named project.qde etc., deflated. */
const qdpx = (...entries: Array<[string, string]>): Buffer =>
  zipOf(entries.map(([name, text]) => ({ name, data: deflateRawSync(Buffer.from(text)), deflated: true, size: Buffer.byteLength(text) })));
const projectQde = (codes: string): string =>
  `<?xml version="1.0" encoding="utf-8"?>\n<Project xmlns="urn:QDA-XML:project:1.0" name="p" origin="test"><CodeBook><Codes>${codes}</Codes></CodeBook></Project>\n`;

// Zip bombs and a second project.qde
add(
  'a 3 MB .qdpx whose project.qde inflates to 3 GiB is refused in one line after about a MiB (it ran 81 s to 3.1 GB before)',
  async () => {
    const bomb = zipOf([{ name: 'project.qde', data: zeroBomb(3072), deflated: true, size: 3 * 1024 ** 3 }]);
    expect(bomb.length).toBeLessThan(4_000_000);
    await codebookRefused(
      'bomb.qdpx',
      bomb,
      /^aloud import: .*bomb\.qdpx: refused: "project\.qde" inflates more than 200 times its compressed size \(a zip bomb\)/,
    );
  },
);
add('the same bomb given to validate is a problem found, not a crash', async () => {
  const { root } = await freshProject();
  const file = path.join(root, 'bomb.qdpx');
  await writeFile(file, zipOf([{ name: 'project.qde', data: zeroBomb(3072), deflated: true, size: 3 * 1024 ** 3 }]));
  const run = await cli('validate', file);
  expect(run.code).not.toBe(0);
  expect(run.out + run.err).toMatch(/inflates more than 200 times/);
  expect(run.err).not.toMatch(/\n\s+at /);
});
add('a .qdpx with two project.qde entries is refused naming it (the last one was imported silently)', () =>
  codebookRefused(
    'two.qdpx',
    qdpx(['project.qde', projectQde(code(1, 'Doubts'))], ['project.qde', projectQde(code(2, 'Other'))]),
    /holds "project\.qde" twice/,
  ),
);

// XML: declarations, depth, character references
add('a codebook with a DOCTYPE and an external entity (file:///etc/passwd) is refused in one line', () =>
  codebookRefused(
    'ext.qdc',
    codebookXml(code(1, '&x;'), '<!DOCTYPE CodeBook [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'),
    /ext\.qdc:2: a <!DOCTYPE> declaration is refused/,
  ),
);
add('a codebook with a parameter entity is refused in one line', () =>
  codebookRefused(
    'param.qdc',
    codebookXml(code(1, 'A'), '<!DOCTYPE CodeBook [<!ENTITY % p SYSTEM "http://example.invalid/x.dtd"> %p;]>\n'),
    /a <!DOCTYPE> declaration is refused/,
  ),
);
add('a codebook with a large (billion laughs) entity is refused in one line', () =>
  codebookRefused(
    'laughs.qdc',
    codebookXml(
      code(1, '&l9;'),
      `<!DOCTYPE CodeBook [<!ENTITY l0 "ha">${Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('')}]>\n`,
    ),
    /a <!DOCTYPE> declaration is refused/,
  ),
);
add('a .qdpx whose project.qde declares a DOCTYPE is refused the same way', () =>
  codebookRefused(
    'doctype.qdpx',
    qdpx(['project.qde', projectQde(code(1, 'A')).replace('<Project', '<!DOCTYPE Project [<!ENTITY x "y">]>\n<Project')]),
    /a <!DOCTYPE> declaration is refused/,
  ),
);
add('codes nested 100 deep are refused in one line (a stack trace past 99 before)', () => {
  let nested = '';
  for (let i = 100; i >= 1; i--) nested = code(i, `c${i}`, nested);
  return codebookRefused('deep.qdc', codebookXml(nested), /elements nest more than 64 deep/);
});
add('A&#0;B in a code name is refused, not silently "AB"', () =>
  codebookRefused('nul.qdc', codebookXml(code(1, 'A&#0;B')), /the character reference &#0; names no character XML allows/),
);
add('a control character by reference (&#x1B;) is refused too', () =>
  codebookRefused('esc.qdc', codebookXml(code(1, 'A&#x1B;B')), /&#x1B; names no character/),
);

// codebook.yaml: a deep parent chain, a huge file
add('a 5,000-deep parent chain in codebook.yaml on export --format qdc is one line, not a stack overflow', async () => {
  const { project, root } = await freshProject();
  const codes = Array.from(
    { length: 5000 },
    (_, i) => `  - name: c${i}\n    definition: d\n${i > 0 ? `    parent: c${i - 1}\n` : ''}`,
  ).join('');
  await writeFile(path.join(project.dir, 'codebook.yaml'), `codes:\n${codes}`);
  const run = await cli('export', '--project', project.dir, '--format', 'qdc', '--out', path.join(root, 'out.qdc'));
  await refusedInOneLine(run, /codebook.yaml:\d+: codes\[64\].parent: code "c64" is nested more than 64 levels deep under its parents/);
});
add('a 20 MB codebook.yaml is refused with a size limit before it is parsed', async () => {
  const { project, root } = await freshProject();
  await writeFile(path.join(project.dir, 'codebook.yaml'), `codes:\n${'  - name: c\n    definition: d\n'.repeat(700_000)}`);
  const run = await cli('export', '--project', project.dir, '--format', 'qdc', '--out', path.join(root, 'out.qdc'));
  await refusedInOneLine(run, /characters is too large for a codebook \(at most 4194304/);
});

// codings import through a link
add('import --codings refuses a session log that is a link outside the project and never quotes its content', async () => {
  const { project, root } = await recordedProject();
  const secret = path.join(root, 'secret.txt');
  await writeFile(secret, 'root:x:0:0:SECRET-CONTENT:/root:/bin/bash\n');
  await mkdir(path.join(project.dir, 'sessions', 'bob'), { recursive: true });
  await symlink(secret, path.join(project.dir, 'sessions', 'bob', 'events.jsonl'));
  const csv = path.join(root, 'codings.csv');
  await writeFile(csv, 'item,annotator,unit,coder,code\ndemo-01,bob,u0,carla,Doubts\n');
  const run = await cli('import', '--project', project.dir, '--codings', csv);
  await refusedInOneLine(run, /sessions\/bob\/events\.jsonl: is a link that leads outside the project/);
  expect(run.err + run.out).not.toContain('SECRET');
});

add('a codings table past the row limit is refused in one line before any row is checked', () => {
  const rows = Array.from({ length: 11 }, (_, i) => `demo-01,ana,u0,coder-${i},Doubts`);
  expect(() => parseCodingsCsv(`item,annotator,unit,coder,code\n${rows.join('\n')}\n`, 'big.csv', 10)).toThrow(
    /11 rows are more than one codings import takes \(at most 10\); split the table/,
  );
  expect(MAX_CODINGS_ROWS).toBe(1_000_000);
});

add('a codings table of more coders than one import takes (200,000 "coders", a session each) is refused in one line naming the row', () => {
  const rows = Array.from({ length: MAX_CODINGS_CODERS + 5 }, (_, i) => `demo-01,ana,u0,coder-${i},Doubts`);
  const error = (() => {
    try {
      parseCodingsCsv(`item,annotator,unit,coder,code\n${rows.join('\n')}\n`, 'coders.csv');
    } catch (e) {
      return e as InputError;
    }
    throw new Error('expected a refusal');
  })();
  expect(error.problems).toHaveLength(1);
  expect(error.problems[0]).toMatchObject({ file: 'coders.csv', line: MAX_CODINGS_CODERS + 2, field: 'coder' });
  expect(error.problems[0]!.message).toMatch(/^1005 coders are more than one codings import takes \(at most 1000,/);
  // a team's table of many rows by few coders is not touched by it
  const many = Array.from({ length: 5_000 }, (_, i) => `demo-01,ana,u0,coder-${i % 7},Doubts`);
  expect(parseCodingsCsv(`item,annotator,unit,coder,code\n${many.join('\n')}\n`, 'team.csv')).toHaveLength(5_000);
});

export const qdaFilesGroup = hostileGroup<null>({
  surface: 'imports',
  area: 'REFI-QDA files, XML and codebooks',
  setup: () => null,
  cases,
});
