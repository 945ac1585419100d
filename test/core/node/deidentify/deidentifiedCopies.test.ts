/**
 * A de-identified records export (jsonl, json, csv) and a .qdpx say inside that they are de-identified, so
 * `aloud validate FILE --project DIR` checks a copy whose receipt was left behind: a look-alike of a listed name put
 * back in place of its placeholder is caught, the untouched copy is valid.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEIDENTIFY_METHOD } from '../../../../core/common/deidentified/deidentifyReceipt';
import { hfColumns } from '../../../../core/common/export/interop/hfDataset';
import { sha256Hex } from '../../../../core/node/fs/sha256';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession } from '../export/recordSession';

const LIST = `version: copies
terms:
  - {text: Sarah Miller, class: PERSON}
  - {text: Sarah, class: PERSON}
`;

/** What is put back where the placeholder was: Cyrillic а in "Sаrah", and full-width "Ｓａｒａｈ". */
const LOOK_ALIKES = [
  ['Cyrillic', 'S\u0430rah'],
  ['full-width', '\uff33\uff41\uff52\uff41\uff48'],
] as const;

describe('a de-identified copy without its receipt says so inside, and validate checks it', () => {
  let root: string;
  let dir: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'aloud-deid-copies-'));
    dir = path.join(root, 'proj');
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
    await writeFile(path.join(dir, 'deidentify.yaml'), LIST);
    const project = await loadProjectConfig(dir);
    const items = (await loadProjectItems(project)).slice(0, 2);
    await recordSession(project, 'bob', [
      {
        id: items[0]!.id,
        said: ['I spoke with Sarah about it.', 'Sarah Miller agreed.'],
        click: project.config.schema.labels[0]!.name,
        complete: true,
      },
      { id: items[1]!.id, said: ['Nothing to hide here.'], click: project.config.schema.labels[0]!.name, complete: true },
    ]);
  }, 120_000);

  /** The export, de-identified, with its receipt (and the receipt's folder for an interop export) then deleted. */
  let exports = 0;
  async function receiptlessCopy(format: 'jsonl' | 'json' | 'csv' | 'qdpx' | 'txt' | 'srt' | 'vtt'): Promise<string> {
    const n = ++exports;
    if (format === 'txt' || format === 'srt' || format === 'vtt') {
      const out = path.join(root, `out-${format}-${n}`);
      expect((await cli('export', '--project', dir, '--format', format, '--out', out, '--deidentify')).code).toBe(0);
      const copy = path.join(root, `copies-${n}`, `demo-01.${format}`);
      await cp(path.join(out, 'bob', `demo-01.${format}`), copy);
      return copy;
    }
    if (format === 'qdpx') {
      const out = path.join(root, `out-qdpx-${n}`);
      expect((await cli('export', '--project', dir, '--format', 'qdpx', '--out', out, '--deidentify')).code).toBe(0);
      const name = (await readdir(out)).find((f) => f.endsWith('.qdpx'))!;
      const copy = path.join(root, `copies-${n}`, name);
      await cp(path.join(out, name), copy);
      return copy;
    }
    const out = path.join(root, `out-${n}.${format}`);
    const run = await cli('export', '--project', dir, '--format', format, '--out', out, '--deidentify');
    expect(run.code, run.err).toBe(0);
    await rm(`${out}.receipt.json`);
    return out;
  }

  it('jsonl and json records name the method, the list and the classes of their placeholders; csv rows in columns', async () => {
    const listSha256 = sha256Hex(await readFile(path.join(dir, 'deidentify.yaml')));
    const jsonl = (await readFile(await receiptlessCopy('jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { transcript: string | null; deidentification: unknown });
    const spoken = jsonl.find((r) => r.transcript?.includes('[PERSON-1]'))!;
    expect(spoken.deidentification).toEqual({ method: DEIDENTIFY_METHOD, list_sha256: listSha256, classes: ['PERSON'] });
    // every record of the export says so, the ones with nothing hidden too
    for (const r of jsonl) expect(r.deidentification).toMatchObject({ method: DEIDENTIFY_METHOD, list_sha256: listSha256 });
    const csv = await readFile(await receiptlessCopy('csv'), 'utf8');
    const [header, ...rows] = csv.trim().split('\r\n');
    const cols = header!.split(',');
    expect(cols).toEqual(expect.arrayContaining(['deidentified', 'deidentify_method', 'deidentify_list_sha256', 'deidentified_classes']));
    for (const row of rows) expect(row).toContain(`,true,${DEIDENTIFY_METHOD},${listSha256},`);
  });

  it('a plain export says it is not de-identified (json null, csv false)', async () => {
    const out = path.join(root, 'plain.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    for (const line of (await readFile(out, 'utf8')).trim().split('\n'))
      expect((JSON.parse(line) as { deidentification: unknown }).deidentification).toBeNull();
    // and, not de-identified, it holds the name and validates: the list is not applied to it
    expect(await readFile(out, 'utf8')).toContain('Sarah');
    await rm(`${out}.receipt.json`);
    expect((await cli('validate', out, '--project', dir)).out).toBe('[]\n');
  });

  it('srt: the marker is a cue 0 that lasts no time; the numbered cues keep their numbers', async () => {
    const srt = await readFile(await receiptlessCopy('srt'), 'utf8');
    const cues = srt.trim().split('\n\n');
    expect(cues[0]).toMatch(/^0\n00:00:00,000 --> 00:00:00,000\nde-identified by Aloud/u);
    expect(cues.slice(1).map((c) => c.split('\n')[0])).toEqual(cues.slice(1).map((_, i) => String(i + 1)));
  });

  for (const format of ['jsonl', 'json', 'csv', 'qdpx', 'txt', 'srt', 'vtt'] as const) {
    it(`${format}: without its receipt, valid as written; a look-alike put back in place of the placeholder is caught`, async () => {
      const copy = await receiptlessCopy(format);
      const ok = await cli('validate', copy, '--project', dir);
      expect(ok.out, ok.err).toBe('[]\n');
      expect(ok.code).toBe(0);
      for (const [kind, lookAlike] of LOOK_ALIKES) {
        const tampered = path.join(path.dirname(copy), `tampered-${kind}-${path.basename(copy)}`);
        if (format === 'qdpx') {
          const zip = unzipSync(new Uint8Array(await readFile(copy)));
          let replaced = 0;
          for (const [name, content] of Object.entries(zip)) {
            if (name.endsWith('.wav')) continue;
            const text = Buffer.from(content).toString('utf8');
            replaced += text.split('[PERSON-1]').length - 1;
            zip[name] = new Uint8Array(Buffer.from(text.replaceAll('[PERSON-1]', lookAlike)));
          }
          expect(replaced).toBeGreaterThan(0);
          await writeFile(tampered, zipSync(zip));
        } else {
          const text = await readFile(copy, 'utf8');
          expect(text).toContain('[PERSON-1]');
          await writeFile(tampered, text.replaceAll('[PERSON-1]', lookAlike));
        }
        const run = await cli('validate', tampered, '--project', dir);
        expect(run.code, `${format} ${kind}: ${run.out}`).toBe(1);
        const problems = JSON.parse(run.out) as Array<{ message: string }>;
        expect(
          problems.some((p) => /holds a PERSON/u.test(p.message)),
          `${format} ${kind}: ${run.out}`,
        ).toBe(true);
        // the problem never repeats what it found
        expect(run.out).not.toContain(lookAlike);
      }
    }, 60_000);
  }

  it('hf: the rows (metadata.jsonl) and the Parquet file, copied alone (no card, no receipt), are checked by their own deidentification columns', async () => {
    const out = path.join(root, 'out-hf');
    expect((await cli('export', '--project', dir, '--format', 'hf', '--out', out, '--deidentify')).code).toBe(0);
    const parquetName = (await readdir(out, { recursive: true })).find((f) => f.endsWith('.parquet'))!;
    const alone = path.join(root, 'hf-alone');
    await cp(path.join(out, 'metadata.jsonl'), path.join(alone, 'metadata.jsonl'));
    await cp(path.join(out, parquetName), path.join(alone, 'rows.parquet'));
    for (const file of ['metadata.jsonl', 'rows.parquet'])
      expect((await cli('validate', path.join(alone, file), '--project', dir)).out, file).toBe('[]\n');
    const [, lookAlike] = LOOK_ALIKES[0];
    const rowsText = await readFile(path.join(alone, 'metadata.jsonl'), 'utf8');
    expect(rowsText).toContain('[PERSON-1]');
    await writeFile(path.join(alone, 'metadata.jsonl'), rowsText.replaceAll('[PERSON-1]', lookAlike));
    const { parquetReadObjects } = await import('hyparquet');
    const bytes = await readFile(path.join(alone, 'rows.parquet'));
    const rows = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as Array<
      Record<string, unknown>
    >;
    const columns = hfColumns();
    const PARQUET = { string: 'STRING', json: 'STRING', int32: 'INT32', float64: 'DOUBLE', bool: 'BOOLEAN' } as const;
    const put = (v: unknown): unknown =>
      typeof v === 'string' ? v.replaceAll('[PERSON-1]', lookAlike) : typeof v === 'bigint' ? Number(v) : v;
    await writeFile(
      path.join(alone, 'rows.parquet'),
      new Uint8Array(
        parquetWriteBuffer({
          columnData: columns.map((c) => ({ name: c.name, data: rows.map((r) => put(r[c.name] ?? null)), type: PARQUET[c.type] })),
        }),
      ),
    );
    for (const file of ['metadata.jsonl', 'rows.parquet']) {
      const run = await cli('validate', path.join(alone, file), '--project', dir);
      expect(run.code, `${file}: ${run.out}`).toBe(1);
      expect(run.out, file).toMatch(/holds a PERSON/u);
    }
  }, 60_000);

  it('a records copy whose marker was taken off one record is put together by hand: validate says so', async () => {
    const copy = await receiptlessCopy('jsonl');
    const lines = (await readFile(copy, 'utf8')).trim().split('\n');
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    first.deidentification = null;
    const mixed = path.join(root, 'mixed.jsonl');
    await writeFile(mixed, `${[JSON.stringify(first), ...lines.slice(1)].join('\n')}\n`);
    const run = await cli('validate', mixed, '--project', dir);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/record 1 does not say it is de-identified while record 2 does/u);
  });
});
