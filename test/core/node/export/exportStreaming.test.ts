import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STUDY_SHAPE, writeScaleStudy } from '../../../../bench/scaleStudy';
import { CSV_COLUMNS } from '../../../../core/common/export/exportCsvColumns';
import { csvRowCells, type ExportFormat } from '../../../../core/common/export/exportFormats';
import { buildExportReceipt } from '../../../../core/common/export/exportReceipt';
import { EXPORT_FIELDS_V5, type ExportRecord } from '../../../../core/common/export/exportRecord';
import { validateExportText } from '../../../../core/common/export/exportValidation';
import { formatCsv } from '../../../../core/common/io/csv';
import { InputError } from '../../../../core/common/io/inputProblem';
import { fixedSessionSource } from '../../../../core/node/session/sessionSource';
import { buildExportRecords, exportInputs, exportSessions, projectFacts } from '../../../../core/node/export/exportSessions';
import { projectSessionSource } from '../../../../core/node/session/projectSessions';
import { validateExportFile } from '../../../../core/node/export/validateExport';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession } from './recordSession';

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
const EXPORTED_AT = new Date('2026-02-03T04:05:06.000Z');

/** The export texts as they were written before exports streamed: the whole record list, serialized at once. */
function wholeText(records: readonly ExportRecord[], format: ExportFormat): string {
  const ordered = records.map((r) => Object.fromEntries(EXPORT_FIELDS_V5.map((k) => [k, r[k]])));
  if (format === 'jsonl') return ordered.map((r) => `${JSON.stringify(r)}\n`).join('');
  if (format === 'json') return `${JSON.stringify(ordered, null, 2)}\n`;
  return formatCsv(
    CSV_COLUMNS.map((c) => c.name),
    records.map((r) => csvRowCells(r)),
  );
}

let root: string;
let study: OpenProject;
let spoken: OpenProject;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'aloud-export-stream-'));
  // a study big enough to cross the 1 MiB pieces the writer and the readers work in
  await writeScaleStudy(path.join(root, 'study'), { ...DEFAULT_STUDY_SHAPE, items: 1000, annotators: ['ana', 'ben', 'cleo'] });
  study = await loadProjectConfig(path.join(root, 'study'));
  // and one with audio, voice labels, clicks and an item never opened
  expect((await cli('init', '--project', path.join(root, 'spoken'), '--demo')).code).toBe(0);
  spoken = await loadProjectConfig(path.join(root, 'spoken'));
  await recordSession(spoken, 'Ann Example', [
    { id: 'demo-01', said: [' Hmm, this is kind of polite.', ' I label this polite.'], complete: true },
    { id: 'demo-02', said: [' My answer is impolite.', ' Final answer: neutral.'] },
    { id: 'demo-03', click: 'Impolite' },
  ]);
  await recordSession(spoken, 'bob', [{ id: 'demo-01', said: [' Uh, I label this rude.'], complete: true }]);
});

describe('exports written record by record', () => {
  for (const format of ['jsonl', 'json', 'csv'] as const) {
    it(
      `${format}: byte for byte the text of the whole record list, and the receipt built from all records`,
      { timeout: 120_000 },
      async () => {
        for (const project of [study, spoken]) {
          const out = path.join(root, `${path.basename(project.dir)}.${format}`);
          const result = await exportSessions({ project, format, out, sessions: projectSessionSource, now: () => EXPORTED_AT });
          const { items, sessions } = await exportInputs(project, out, projectSessionSource);
          const { records } = await buildExportRecords(project, items, sessions, EXPORTED_AT.toISOString());
          const bytes = await readFile(out);
          expect(bytes.toString('utf8')).toBe(wholeText(records, format));
          expect(result.receipt).toEqual(
            buildExportReceipt({
              file: path.basename(out),
              format,
              sha256: sha256(bytes),
              bytes: bytes.length,
              records,
              project: project.config.name,
              appVersion: result.receipt.app_version,
              createdAt: result.receipt.created_at,
              config: result.receipt.config,
            }),
          );
          expect(JSON.parse(await readFile(`${out}.receipt.json`, 'utf8'))).toEqual(result.receipt);
        }
      },
    );
  }

  it('refuses as the whole-text validation refuses: the same problems at the same lines, nothing written', async () => {
    const states = (await projectSessionSource.load(spoken, 'Ann Example')).items;
    const demo01 = states.find((s) => s.item_id === 'demo-01')!;
    // a quote moved off its offsets, and a note with a lone surrogate (JSON escapes it; the strict reader refuses it)
    const bad = { ...demo01, commitments: demo01.commitments.map((c) => ({ ...c, start: c.start + 1, end: c.end + 1 })) };
    const sessions = fixedSessionSource([
      {
        annotator: 'x',
        items: [bad, ...states.filter((s) => s !== demo01)],
        notes: [{ seq: 9, item_id: 'demo-03', text: 'cut \ud800 here', ts: '2026-01-01T00:00:00.000Z' }],
        warnings: [],
      },
    ]);
    const facts = projectFacts(spoken, await loadProjectItems(spoken));
    for (const format of ['jsonl', 'json', 'csv'] as const) {
      const out = path.join(root, `refused.${format}`);
      const error = await exportSessions({ project: spoken, format, out, sessions, now: () => EXPORTED_AT }).then(
        () => null,
        (e: unknown) => e,
      );
      const { items, sessions: loaded } = await exportInputs(spoken, out, sessions);
      const { records } = await buildExportRecords(spoken, items, loaded, EXPORTED_AT.toISOString());
      const expected = validateExportText(wholeText(records, format), out, format, facts).problems;
      if (format === 'csv') {
        // its flat columns keep no offsets and a CSV cell holds any text: nothing to refuse, as validate finds nothing
        expect([error, expected], format).toEqual([null, []]);
        continue;
      }
      expect(expected.length, format).toBeGreaterThan(0);
      expect(error, format).toBeInstanceOf(InputError);
      expect((error as InputError).problems, format).toEqual(expected);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.receipt.json`)).toBe(false);
    }
  });

  it('reports progress record by record, then once when written', async () => {
    const seen: Array<[number, number]> = [];
    await exportSessions({
      project: spoken,
      format: 'jsonl',
      out: path.join(root, 'progress.jsonl'),
      sessions: projectSessionSource,
      onProgress: ({ done, total }) => seen.push([done, total]),
    });
    const items = (await loadProjectItems(spoken)).length;
    expect(seen.slice(0, 3)).toEqual([
      [0, 2 * items],
      [1, 2 * items],
      [2, 2 * items],
    ]);
    expect(seen.at(-1)).toEqual([2 * items, 2 * items]);
  });
});

describe('validate reads exports as streams', () => {
  it(
    'says of every export what the whole-text validation says (records, problems, receipt), a file past 1 MiB included',
    { timeout: 120_000 },
    async () => {
      const facts = projectFacts(study, await loadProjectItems(study));
      for (const format of ['jsonl', 'json', 'csv'] as const) {
        const out = path.join(root, `study.${format}`);
        await exportSessions({ project: study, format, out, sessions: projectSessionSource, force: true });
        const text = await readFile(out, 'utf8');
        expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 20);
        const streamed = await validateExportFile(out, { project: study });
        const whole = validateExportText(text, out, format, facts);
        expect(streamed).toMatchObject({ records: whole.parsedRecords, receipt: 'ok', problems: [] });
        expect(whole.problems).toEqual([]);
      }
    },
  );

  it(
    'finds what the whole-text validation finds in a damaged export (past the first MiB), with the same lines',
    { timeout: 120_000 },
    async () => {
      const facts = projectFacts(study, await loadProjectItems(study));
      for (const format of ['jsonl', 'json', 'csv'] as const) {
        const text = await readFile(path.join(root, `study.${format}`), 'utf8');
        const at = text.indexOf('Polite', Math.floor(text.length * 0.8));
        const damaged = [
          `${text.slice(0, at)}Rude${text.slice(at + 'Polite'.length)}`,
          `${text.slice(0, at)}"${text.slice(at)}`,
          text.slice(0, Math.floor(text.length * 0.9)),
        ];
        for (const [i, body] of damaged.entries()) {
          const file = path.join(root, `damaged-${i}.${format}`);
          await writeFile(file, body);
          const streamed = await validateExportFile(file, { project: study });
          const whole = validateExportText(body, file, format, facts);
          expect(streamed.problems.length, `${format} #${i}`).toBeGreaterThan(0);
          expect(streamed.problems, `${format} #${i}`).toEqual(whole.problems);
          expect(streamed.records, `${format} #${i}`).toBe(whole.parsedRecords);
        }
      }
    },
  );

  it(
    'reads an export over the old 64 MiB file limit (limits are per line and record), and refuses it only when asked',
    { timeout: 180_000 },
    async () => {
      const out = path.join(root, 'study.jsonl');
      const first = JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!) as ExportRecord;
      // long records: 1,100 lines of 62 KB (a transcript-like note), 68 MB in all
      const note = 'x'.repeat(62_000);
      const lines: string[] = [];
      for (let i = 0; i < 1_100; i++)
        lines.push(JSON.stringify({ ...first, item_id: `big-${i}`, notes: [{ text: note, at: first.exported_at }] }));
      const big = path.join(root, 'big.jsonl');
      await writeFile(big, `${lines.join('\n')}\n`);
      const run = await cli('validate', big);
      expect(run.code, run.out).toBe(0);
      const agreement = await cli('agreement', '--export', big, '--json');
      expect(agreement.code, agreement.err).toBe(0);
      expect(JSON.parse(agreement.out)).toMatchObject({ items: 1_100 });
      const limited = await cli('validate', big, '--max-file-bytes', '64MiB');
      expect(limited.code).toBe(1);
      expect(JSON.parse(limited.out)[0].message).toMatch(/over the limit of 67108864 bytes/);
      const shortLines = await cli('validate', big, '--max-line-bytes', '60KiB');
      expect(JSON.parse(shortLines.out)[0].message).toMatch(/^line is \d+ bytes, over the limit of 61440 bytes$/);
    },
  );
});
