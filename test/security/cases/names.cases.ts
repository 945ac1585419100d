import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { AppService } from '../../../core/node/app/appService';
import { packSession, unpackSession } from '../../../core/node/packs/sessionPack';
import { SessionStore } from '../../../core/node/session/sessionStore';
import { cli } from '../../helpers/cli';
import { recordSession } from '../../core/node/export/recordSession';
import { freshProject, recordedProject, rejection } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void> | void) => cases.push({ name, run });

/** codebook.yaml with these code names, checked by `export --format qdc` (which reads it as every command does). */
async function codebookRefused(names: string[], message: RegExp): Promise<void> {
  const { project, root } = await freshProject();
  await writeFile(
    path.join(project.dir, 'codebook.yaml'),
    `codes:\n${names.map((n) => `  - name: ${JSON.stringify(n)}\n    definition: d\n`).join('')}`,
  );
  const run = await cli('export', '--project', project.dir, '--format', 'qdc', '--out', path.join(root, 'out.qdc'));
  expect(run.code, run.err).toBe(2);
  expect(run.err.trimEnd().split('\n')).toHaveLength(1);
  expect(run.err).toMatch(message);
}

add('a Cyrillic "bоb" in a codings file beside the coder bob is refused naming bob (it made a second coder)', async () => {
  const { project, root } = await recordedProject();
  await recordSession(project, 'bob', [{ id: 'demo-02', click: 'Polite' }]);
  await writeFile(path.join(project.dir, 'codebook.yaml'), 'codes:\n  - name: Doubts\n    definition: d\n');
  const csv = path.join(root, 'codings.csv');
  await writeFile(csv, 'item,annotator,unit,coder,code\ndemo-01,ana,u0,b\u043eb,Doubts\n');
  const run = await cli('import', '--project', project.dir, '--codings', csv);
  expect(run.code).toBe(2);
  expect(run.err).toMatch(/codings\.csv:2: .*"b\u043eb" looks like the existing coder "bob"/);
  expect((await cli('session', 'show', '--project', project.dir, '--annotator', 'b\u043eb')).code).not.toBe(0);
});
add('two new coders that look alike in one codings file: the second is refused naming the first', async () => {
  const { project, root } = await freshProject();
  await recordSession(project, 'ana', [{ id: 'demo-01', said: [' I label this polite.'], complete: true }]);
  await writeFile(path.join(project.dir, 'codebook.yaml'), 'codes:\n  - name: Doubts\n    definition: d\n');
  const csv = path.join(root, 'codings.csv');
  await writeFile(csv, 'item,annotator,unit,coder,code\ndemo-01,ana,u0,carla,Doubts\ndemo-01,ana,u0,c\u0430rla,Doubts\n');
  const run = await cli('import', '--project', project.dir, '--codings', csv);
  expect(run.code).toBe(2);
  expect(run.err).toMatch(/:3: .*"c\u0430rla" looks like the existing coder "carla"/);
});
add('a pack of a Cyrillic "аlice" is refused beside the lead\'s alice (it made a second alice)', async () => {
  const lead = await freshProject();
  await recordSession(lead.project, 'alice', [{ id: 'demo-01', click: 'Polite' }]);
  const laptop = await freshProject();
  await recordSession(laptop.project, '\u0430lice', [{ id: 'demo-01', click: 'Polite' }]);
  const pack = path.join(laptop.root, 'a.aloudpack');
  await packSession({ project: laptop.project, annotator: '\u0430lice', out: pack });
  const error = await rejection(unpackSession({ project: lead.project, file: pack }));
  expect(error.message).toMatch(/it is the session of "\u0430lice", which looks like the existing annotator "alice"/);
});
add('a new session "bоb" beside bob is refused wherever a session is opened (the store itself)', async () => {
  const { project } = await recordedProject();
  await recordSession(project, 'bob', [{ id: 'demo-02', click: 'Polite' }]);
  const error = await rejection(SessionStore.open({ project, annotator: 'b\u043eb' }));
  expect(error.message).toMatch(/"b\u043eb" looks like the existing annotator "bob"/);
  // the same name in another case is the same person, not a look-alike: it opens
  await (await SessionStore.open({ project, annotator: 'ana' })).close();
});
add('a new session "Ana" beside ana is refused at the store: one person, one session', async () => {
  const { project } = await recordedProject();
  for (const spelled of ['Ana', 'ANA', 'ａｎａ'])
    expect((await rejection(SessionStore.open({ project, annotator: spelled }))).message).toMatch(
      /looks like the existing annotator "ana"/,
    );
  // a pack of the same person spelled another way would be a second session too
  const laptop = await freshProject();
  await recordSession(laptop.project, 'Ana', [{ id: 'demo-01', click: 'Polite' }]);
  const pack = path.join(laptop.root, 'b.aloudpack');
  await packSession({ project: laptop.project, annotator: 'Ana', out: pack });
  expect((await rejection(unpackSession({ project, file: pack }))).message).toMatch(/"Ana", which looks like the existing annotator "ana"/);
});
add("a reviewer whose name looks like an annotator's is refused naming the annotator", async () => {
  const { project } = await recordedProject();
  await recordSession(project, 'bob', [{ id: 'demo-02', click: 'Polite' }]);
  const app = await AppService.open({ projectDir: project.dir, mode: 'browser', openEngine: null });
  try {
    const error = await rejection(app.reviewSession('ana', 'b\u043eb'));
    expect(error.message).toMatch(/the reviewer "b\u043eb" looks like the existing annotator "bob"/);
  } finally {
    await app.close();
  }
});
add('a code name with an RTL override is refused', () => codebookRefused(['Doubts\u202e'], /U\+202E at position 7/));
add('a code name with a bidi isolate is refused', () => codebookRefused(['\u2067Doubts\u2069'], /U\+2067 at position 1/));
add('a code name with a zero-width space is refused', () => codebookRefused(['Dou\u200bbts'], /U\+200B at position 4/));
add('a 1 MB code name is refused as too long', () =>
  codebookRefused(['x'.repeat(1_000_000)], /too long \(1000000 characters, at most 200\)/),
);
add('"Doubts" and a Cyrillic "Dоubts" are refused as look-alike codes (they were two codes)', () =>
  codebookRefused(['Doubts', 'D\u043eubts'], /code name "D\u043eubts" looks like the code "Doubts" \(codes\[0\]\)/),
);

export const namesGroup = hostileGroup<null>({
  surface: 'imports',
  area: 'one rule for names of people and codes',
  setup: () => null,
  cases,
});
