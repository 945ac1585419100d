import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { AppService } from '../../../core/node/app/appService';
import { type ExportPairStep, writeExportWithReceipt } from '../../../core/node/exportFiles/exportTarget';
import type { OpenProject } from '../../../core/node/project/projectFolder';
import { cli } from '../../helpers/cli';
import { recordSession } from '../../core/node/export/recordSession';
import { recordedProject, rejection, unchanged } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

const cases: Array<HostileCase<null>> = [];
const add = (name: string, run: () => Promise<void> | void) => cases.push({ name, run });

/** A recorded project (ana: demo-01 with audio and a transcript) and an export of it with its receipt. */
async function exported(
  format: 'jsonl' | 'json' | 'csv' = 'jsonl',
): Promise<{ project: OpenProject; root: string; out: string; receipt: string }> {
  const { project, root } = await recordedProject();
  await recordSession(project, 'ben', [{ id: 'demo-02', said: ['that is polite'] }]);
  const out = path.join(root, `export.${format}`);
  const run = await cli('export', '--project', project.dir, '--format', format, '--out', out);
  expect(run.code, run.err).toBe(0);
  return { project, root, out, receipt: `${out}.receipt.json` };
}

/** `aloud validate FILE` must fail (exit 1) with a rule problem of the receipt naming `field`. */
async function receiptRefused(file: string, field: RegExp): Promise<void> {
  const run = await cli('validate', file);
  expect(run.code, run.out + run.err).toBe(1);
  const problems = JSON.parse(run.out) as Array<{ file: string; field: string | null; stage: string; message: string }>;
  expect(
    problems.some((p) => p.file.endsWith('.receipt.json') && p.stage === 'rule' && field.test(p.field ?? '')),
    JSON.stringify(problems),
  ).toBe(true);
}

async function editReceipt(
  receipt: string,
  edit: (r: Record<string, unknown> & { counts: Record<string, number>; gaps: Array<Record<string, string>> }) => void,
): Promise<void> {
  const value = JSON.parse(await readFile(receipt, 'utf8'));
  edit(value);
  await writeFile(receipt, `${JSON.stringify(value, null, 2)}\n`);
}

// 9. validate recomputes every summary field of a records receipt from the records (the file's sha256 still matching).
add('an unedited receipt validates (jsonl, json and csv): the recount agrees with what export wrote', async () => {
  for (const format of ['jsonl', 'json', 'csv'] as const) {
    const { out } = await exported(format);
    const run = await cli('validate', out);
    expect(run.code, `${format}: ${run.out}`).toBe(0);
  }
});
for (const key of ['annotators', 'items', 'with_audio', 'with_transcript', 'with_final_label'] as const) {
  add(`a receipt with counts.${key} edited (file untouched) fails validation`, async () => {
    const { out, receipt } = await exported();
    await editReceipt(receipt, (r) => (r.counts[key] = r.counts[key]! + 1));
    await receiptRefused(out, new RegExp(`^counts\\.${key}$`));
  });
}
add('a receipt with one gap removed and counts.gaps lowered to match fails validation', async () => {
  const { out, receipt } = await exported();
  await editReceipt(receipt, (r) => {
    r.gaps.pop();
    r.counts.gaps = r.counts.gaps! - 1;
  });
  await receiptRefused(out, /^(gaps|counts\.gaps)/);
});
add('a receipt whose gap says no_label where the records say no_audio fails validation, naming the gap', async () => {
  const { out, receipt } = await exported();
  await editReceipt(receipt, (r) => {
    const i = r.gaps.findIndex((g) => g.reason === 'no_audio');
    r.gaps[i]!.reason = 'no_label';
  });
  await receiptRefused(out, /^gaps\.\d+$/);
});
add('a receipt whose gap names another annotator fails validation', async () => {
  const { out, receipt } = await exported();
  await editReceipt(receipt, (r) => (r.gaps[0]!.annotator = 'mallory'));
  await receiptRefused(out, /^gaps/);
});
add('a receipt claiming another project fails validation', async () => {
  const { out, receipt } = await exported();
  await editReceipt(receipt, (r) => (r.project = 'another-study'));
  await receiptRefused(out, /^project$/);
});
add('a receipt claiming another schema version fails validation', async () => {
  const { out, receipt } = await exported();
  await editReceipt(receipt, (r) => (r.schema_version = 1));
  await receiptRefused(out, /^schema_version$/);
});
add('a CSV export whose receipt has counts.with_audio edited fails validation too', async () => {
  const { out, receipt } = await exported('csv');
  await editReceipt(receipt, (r) => (r.counts.with_audio = 0));
  await receiptRefused(out, /^counts\.with_audio$/);
});

// 10. No export writes inside the project's data, --force or not.
async function roomLog(project: OpenProject): Promise<string> {
  const room = path.join(project.dir, 'rooms', 'K7QX3M');
  await mkdir(room, { recursive: true });
  const log = path.join(room, 'events.jsonl');
  await writeFile(log, '{"v":1,"seq":1,"ts":"2026-01-01T00:00:00.000Z","type":"room_opened","data":{}}\n');
  return log;
}
for (const format of ['jsonl', 'csv', 'process-reward'] as const) {
  add(`export --format ${format} --force over rooms/<code>/events.jsonl is refused; the room log stays as it was`, async () => {
    const { project } = await recordedProject();
    const log = await roomLog(project);
    const before = await readFile(log);
    const run = await cli('export', '--project', project.dir, '--format', format, '--out', log, '--force');
    expect(run.code, run.out).toBe(2);
    expect(run.err).toMatch(/the project's own data/);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    await unchanged(log, before);
  });
}
for (const [what, target] of [
  ['a session log', 'sessions/ana/events.jsonl'],
  ["a session's WAV", 'sessions/ana/audio/demo-01.wav'],
  ['a new file in the audio folder', 'sessions/ana/audio/new.csv'],
  ['aloud.yaml', 'aloud.yaml'],
  ['the items file', 'items.jsonl'],
  ['an import record', 'imports/x-import.json'],
] as const) {
  add(`export --force into ${what} (${target}) is refused`, async () => {
    const { project } = await recordedProject();
    const out = path.join(project.dir, ...target.split('/'));
    const before = await readFile(out).catch(() => null);
    const run = await cli('export', '--project', project.dir, '--format', 'csv', '--out', out, '--force');
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/the project's own data/);
    if (before) await unchanged(out, before);
    else
      expect(
        await stat(out).then(
          () => true,
          () => false,
        ),
      ).toBe(false);
  });
}
add('an --out through a linked folder that lands in rooms/ is refused, --force or not', async () => {
  const { project, root } = await recordedProject();
  const log = await roomLog(project);
  const before = await readFile(log);
  await symlink(path.dirname(log), path.join(root, 'innocent'));
  const run = await cli(
    'export',
    '--project',
    project.dir,
    '--format',
    'jsonl',
    '--out',
    path.join(root, 'innocent', 'events.jsonl'),
    '--force',
  );
  expect(run.code).toBe(2);
  expect(run.err).toMatch(/leads to .*rooms.*the project's own data/);
  await unchanged(log, before);
});
add("the app's project export refuses an exports folder that is a link into a session's audio", async () => {
  const { project } = await recordedProject();
  const audio = path.join(project.dir, 'sessions', 'ana', 'audio');
  const before = await readdir(audio);
  await symlink(audio, path.join(project.dir, 'exports'));
  const app = await AppService.open({ projectDir: project.dir, mode: 'browser', openEngine: null });
  try {
    await app.openSession('ana');
    const error = await rejection(app.exportProject('csv', null));
    expect(error.message).toMatch(/project's own data/);
    expect(await readdir(audio)).toEqual(before);
  } finally {
    await app.close();
  }
});

// 11. Transcript exports follow the same path policy.
add('transcripts --out DIR, where DIR is a link to sessions/, are refused and nothing lands in the sessions', async () => {
  const { project, root } = await recordedProject();
  const link = path.join(root, 'transcripts');
  await symlink(path.join(project.dir, 'sessions'), link);
  const before = await readdir(path.join(project.dir, 'sessions'));
  const run = await cli('export', '--project', project.dir, '--format', 'txt', '--out', link);
  expect(run.code).toBe(2);
  expect(run.err).toMatch(/symbolic link/);
  expect(await readdir(path.join(project.dir, 'sessions'))).toEqual(before);
});
add(
  "transcripts into a folder where <annotator>/ is a planted link to the annotator's session: refused, the session untouched",
  async () => {
    const { project, root } = await recordedProject();
    const out = path.join(root, 'transcripts');
    await mkdir(out);
    await symlink(path.join(project.dir, 'sessions', 'ana'), path.join(out, 'ana'));
    const before = await readdir(path.join(project.dir, 'sessions', 'ana'));
    const run = await cli('export', '--project', project.dir, '--format', 'vtt', '--out', out);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/symbolic link/);
    expect(await readdir(path.join(project.dir, 'sessions', 'ana'))).toEqual(before);
  },
);
add(
  "transcripts into a folder where <annotator>/<item>.txt is a planted link to the annotator's log: refused, the log untouched",
  async () => {
    const { project, root } = await recordedProject();
    const out = path.join(root, 'transcripts');
    await mkdir(path.join(out, 'ana'), { recursive: true });
    const log = path.join(project.dir, 'sessions', 'ana', 'events.jsonl');
    const before = await readFile(log);
    const items = (await readdir(path.join(project.dir, 'sessions', 'ana', 'audio'))).map((f) => f.replace(/\.wav$/, ''));
    for (const item of items) await symlink(log, path.join(out, 'ana', `${item}.txt`));
    const run = await cli('export', '--project', project.dir, '--format', 'txt', '--out', out);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/symbolic link/);
    expect(await readFile(log)).toEqual(before);
  },
);
for (const [what, target] of [
  ['the rooms folder', 'rooms'],
  ['the project folder itself', '.'],
  ['a folder inside a session', 'sessions/ana/audio'],
] as const) {
  add(`transcripts --out ${what} are refused`, async () => {
    const { project } = await recordedProject();
    await mkdir(path.join(project.dir, 'rooms'), { recursive: true });
    const run = await cli('export', '--project', project.dir, '--format', 'srt', '--out', path.join(project.dir, target));
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/the project's own data/);
    expect(
      await stat(path.join(project.dir, target, 'ana')).then(
        () => true,
        () => false,
      ),
    ).toBe(false);
  });
}

// 12. Only a receipt that validates and names the file makes it an earlier export.
for (const [what, receipt] of [
  ['garbage', 'not json at all'],
  ['an empty object', '{}'],
  ['a receipt of another file', null],
  ['a receipt whose sha256 no longer matches (the file was edited)', 'edited'],
] as const) {
  add(`a file with ${what} as its receipt is not an earlier export: replacing it needs --force`, async () => {
    const { project, out, receipt: receiptFile } = await exported();
    if (receipt === null) await editReceipt(receiptFile, (r) => (r.file = 'other.jsonl'));
    else if (receipt === 'edited') await writeFile(out, `${await readFile(out, 'utf8')}\n`);
    else await writeFile(receiptFile, receipt);
    const before = await readFile(out);
    const run = await cli('export', '--project', project.dir, '--format', 'jsonl', '--out', out);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/not an earlier Aloud export/);
    await unchanged(out, before);
  });
}
add('a file of somebody else with any receipt-looking neighbour stays unless --force: a hand-made file', async () => {
  const { project, root } = await recordedProject();
  const out = path.join(root, 'notes.csv');
  await writeFile(out, 'my,own\nnotes,here\n');
  await writeFile(`${out}.receipt.json`, JSON.stringify({ receipt_version: 1, file: 'notes.csv' }));
  const run = await cli('export', '--project', project.dir, '--format', 'csv', '--out', out);
  expect(run.code).toBe(2);
  await unchanged(out, 'my,own\nnotes,here\n');
});
add('an earlier export with its valid receipt is replaced without --force, and the new pair validates', async () => {
  const { project, out } = await exported();
  const run = await cli('export', '--project', project.dir, '--format', 'jsonl', '--out', out);
  expect(run.code, run.err).toBe(0);
  expect((await cli('validate', out)).code).toBe(0);
});

// 13. A re-export is a swap: a crash leaves the old pair or the new pair.
add(
  'a re-export failing mid-write (a file-size limit: EFBIG) leaves the earlier pair whole: it validates, no hidden file stays',
  async () => {
    const { project, out, receipt } = await exported();
    const before = { file: await readFile(out), receipt: await readFile(receipt) };
    const bin = path.resolve('core/node/cli/bin.ts');
    const limited = spawnSync(
      'bash',
      [
        '-c',
        `ulimit -f 8; exec "${process.execPath}" --import tsx "${bin}" export --project "${project.dir}" --format jsonl --out "${out}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(limited.status, limited.stdout + limited.stderr).not.toBe(0);
    await unchanged(out, before.file);
    await unchanged(receipt, before.receipt);
    expect((await cli('validate', out)).code).toBe(0);
    expect((await readdir(path.dirname(out))).filter((f) => f.startsWith('.'))).toEqual([]);
    const again = await cli('export', '--project', project.dir, '--format', 'jsonl', '--out', out);
    expect(again.code, again.err).toBe(0);
  },
);

const STEPS: ReadonlyArray<[ExportPairStep, 'old' | 'new']> = [
  ['new-file-written', 'old'],
  ['new-receipt-written', 'new'],
  ['file-swapped', 'new'],
  ['receipt-swapped', 'new'],
];
for (const [step, outcome] of STEPS) {
  add(`a re-export killed at "${step}" leaves the ${outcome} pair once the next validate settles it; no hidden file stays`, async () => {
    const { project, root, out, receipt } = await exported();
    const old = { file: await readFile(out), receipt: await readFile(receipt) };
    // the new pair: another export of the same project, renamed for `out`
    const other = path.join(root, 'other.jsonl');
    expect((await cli('export', '--project', project.dir, '--format', 'jsonl', '--out', other)).code).toBe(0);
    const text = await readFile(other, 'utf8');
    const newReceipt = { ...JSON.parse(await readFile(`${other}.receipt.json`, 'utf8')), file: path.basename(out) };
    let reached!: () => void;
    const killed = new Promise<void>((resolve) => (reached = resolve));
    // the "kill": the write stops for good at this step, as a dead process would
    void writeExportWithReceipt(out, text, () => newReceipt, {
      project,
      force: false,
      crashPoint: (at) => (at === step ? (reached(), new Promise<void>(() => undefined)) : Promise.resolve()),
    });
    await killed;
    const run = await cli('validate', out);
    expect(run.code, run.out).toBe(0);
    if (outcome === 'old') {
      await unchanged(out, old.file);
      await unchanged(receipt, old.receipt);
    } else {
      await unchanged(out, text);
      expect(JSON.parse(await readFile(receipt, 'utf8'))).toEqual(newReceipt);
    }
    expect((await readdir(path.dirname(out))).filter((f) => f.startsWith('.'))).toEqual([]);
  });
}

export const exportsGroup = hostileGroup<null>({
  surface: 'exports',
  area: 'exports and receipts: recounts, the project data, links, earlier exports, interrupted swaps',
  setup: () => null,
  cases,
});
