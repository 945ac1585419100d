import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  EXPORT_SCHEMA_VERSION,
  exportRecordJsonSchemas,
  upcastExportRecordV3,
  type ExportRecord,
  type ExportRecordV3,
} from '../../../../core/common/export/exportRecord';
import { splitCsvList } from '../../../../core/common/export/exportCsvColumns';
import { validateExportText } from '../../../../core/common/export/exportValidation';
import { parseCsv } from '../../../../core/common/io/csv';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { cli } from '../../../helpers/cli';
import { recordSession } from './recordSession';

/** Python's `text[start:end]`: start and end count code points (what the schemas say), written here without Aloud's helpers. */
const pySlice = (text: string, start: number, end: number): string => Array.from(text).slice(start, end).join('');

// astral characters (two UTF-16 units each) before the commit phrase: a UTF-16 offset would be off by 3 here
const SAID = ' Wow 🎉, such 𝒻𝒶𝓃𝒸𝓎 words. I label this polite.';
const PHRASE = 'I label this polite';

let dir: string;
const out = (name: string): string => path.join(dir, '..', name);

beforeAll(async () => {
  dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-offsets-')), 'proj');
  expect((await cli('init', '--project', dir, '--demo')).code).toBe(0);
  await recordSession(await loadProjectConfig(dir), 'ana', [{ id: 'demo-01', said: [SAID], complete: true }]);
  for (const [format, target] of [
    ['jsonl', 'r.jsonl'],
    ['json', 'r.json'],
    ['csv', 'r.csv'],
    ['hf', 'hf'],
    ['qdpx', 'qdpx'],
  ] as const) {
    const run = await cli('export', '--project', dir, '--format', format, '--out', out(target));
    expect(run.code, `${format}: ${run.err}`).toBe(0);
  }
}, 120_000);

describe('one offset unit in every export: Unicode code points, as Python and REFI-QDA count', () => {
  it('every schema and the dataset card say so', async () => {
    const v4 = exportRecordJsonSchemas[EXPORT_SCHEMA_VERSION] as {
      description: string;
      properties: { commitments: { items: { properties: Record<string, { description: string }> } } };
    };
    expect(v4.description).toContain('Unicode code points');
    expect(v4.properties.commitments.items.properties.start!.description).toMatch(/code points.*transcript\[start:end\] == quote/);
    expect((exportRecordJsonSchemas[3] as { description: string }).description).toContain('UTF-16 code units');
    expect(await readFile(path.join(out('hf'), 'README.md'), 'utf8')).toContain(
      'Offsets (`start`, `end` of each commitment) count Unicode code points of `transcript`, as Python does',
    );
  });

  it('JSONL and JSON: transcript[start:end] is the committing phrase', async () => {
    const jsonl = (await readFile(out('r.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportRecord);
    const json = JSON.parse(await readFile(out('r.json'), 'utf8')) as ExportRecord[];
    for (const records of [jsonl, json]) {
      const r = records.find((x) => x.item_id === 'demo-01')!;
      expect(r.schema_version).toBe(EXPORT_SCHEMA_VERSION);
      expect(r.commitments).toHaveLength(1);
      const [c] = r.commitments;
      expect(pySlice(r.transcript!, c!.start, c!.end)).toBe(PHRASE);
      // the same offsets are wrong in UTF-16 units: the test tells the units apart
      expect(r.transcript!.slice(c!.start, c!.end)).not.toBe(PHRASE);
    }
  });

  it('CSV: commitment_spans slice the transcript column to commitment_quotes', async () => {
    const { header, rows } = parseCsv(await readFile(out('r.csv'), 'utf8'), 'r.csv', { rawControls: 'allow' });
    const row = rows.map((r) => r.fields).find((cells) => cells[header.indexOf('item_id')] === 'demo-01')!;
    const spans = splitCsvList(row[header.indexOf('commitment_spans')]!).map((s) => s.split(':').map(Number) as [number, number]);
    const quotes = splitCsvList(row[header.indexOf('commitment_quotes')]!);
    expect(spans.map(([start, end]) => pySlice(row[header.indexOf('transcript')]!, start, end))).toEqual(quotes);
    expect(quotes).toEqual([PHRASE]);
  });

  it('Hugging Face: the commitments column of metadata.jsonl and of the Parquet file (read by DuckDB) slice the transcript', async () => {
    const [row] = (await readFile(path.join(out('hf'), 'metadata.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      const [fromParquet] = (
        await connection.runAndReadAll(
          `SELECT transcript, commitments FROM read_parquet('${path.join(out('hf'), 'parquet', 'records.parquet')}')`,
        )
      ).getRowObjectsJson() as Array<Record<string, string>>;
      for (const r of [row!, fromParquet!]) {
        const [c] = JSON.parse(r.commitments!) as ExportRecord['commitments'];
        expect(pySlice(r.transcript!, c!.start, c!.end)).toBe(PHRASE);
      }
    } finally {
      connection.closeSync();
    }
  });

  it('REFI-QDA: the coded selection between its sync points is the committing phrase of the transcript file', async () => {
    const zip = unzipSync(await readFile(path.join(out('qdpx'), 'politeness-demo.qdpx')));
    const qde = new TextDecoder().decode(zip['project.qde']!);
    const transcript = /<Transcript guid="([^"]+)"/.exec(qde)![1]!;
    const text = new TextDecoder().decode(zip[`Sources/${transcript}.txt`]!);
    const position = new Map(
      [...qde.matchAll(/<SyncPoint guid="([^"]+)" timeStamp="\d+" position="(\d+)"\/>/g)].map((m) => [m[1]!, Number(m[2])]),
    );
    const selection = /<TranscriptSelection guid="[^"]+" name="([^"]+)" fromSyncPoint="([^"]+)" toSyncPoint="([^"]+)"/.exec(qde)!;
    expect(selection[1]).toBe(PHRASE);
    expect(pySlice(text, position.get(selection[2]!)!, position.get(selection[3]!)!)).toBe(PHRASE);
  });

  it('a v3 file (UTF-16 offsets) still validates, and read as v4 its offsets are counted again in code points', async () => {
    const [v4] = (await readFile(out('r.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportRecord)
      .filter((r) => r.item_id === 'demo-01');
    const at = v4!.transcript!.indexOf(PHRASE);
    // v3 had no deidentification field, nor the active time of v5
    const {
      deidentification: _d,
      time_on_item_active_ms: _a,
      time_on_item_wall_ms: _w,
      time_on_item_idle_gap_ms: _g,
      schema_version: _v,
      ...v4Fields
    } = v4!;
    const v3: ExportRecordV3 = {
      ...v4Fields,
      schema_version: 3,
      commitments: v4!.commitments.map((c) => ({ ...c, start: at, end: at + PHRASE.length })),
    };
    expect(validateExportText(`${JSON.stringify(v3)}\n`, 'v3.jsonl', 'jsonl', null).problems).toEqual([]);
    // the v4 offsets in a v3 record are caught: its quote is not the transcript's text there
    expect(
      validateExportText(`${JSON.stringify({ ...v3, commitments: v4!.commitments })}\n`, 'v3.jsonl', 'jsonl', null).problems.map(
        (p) => p.field,
      ),
    ).toEqual(['commitments[0].quote']);
    const upcast = upcastExportRecordV3(v3);
    expect(upcast.commitments).toEqual(v4!.commitments);
    expect(validateExportText(`${JSON.stringify(upcast)}\n`, 'v4.jsonl', 'jsonl', null).problems).toEqual([]);
  });
});

describe('the Hugging Face dataset card', () => {
  it("names the rows' schema version, has a configs: block for the Parquet file, and its features are the Parquet columns", async () => {
    const card = await readFile(path.join(out('hf'), 'README.md'), 'utf8');
    const header = parseYaml(card.slice(4, card.indexOf('\n---\n'))) as {
      configs: Array<{ config_name: string; data_files: Array<{ split: string; path: string }> }>;
      dataset_info: { config_name: string; features: Array<{ name: string; dtype: string }> };
    };
    expect(header.configs[0]).toEqual({ config_name: 'default', data_files: [{ split: 'train', path: 'parquet/records.parquet' }] });
    // the gold split (one row per item) is a config of its own, never mixed into the recordings' rows
    expect(header.configs.slice(1)).toEqual([{ config_name: 'gold', data_files: [{ split: 'train', path: 'gold/gold.jsonl' }] }]);
    expect(header.dataset_info.config_name).toBe('default');
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    try {
      const parquet = path.join(out('hf'), 'parquet', 'records.parquet');
      const columns = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${parquet}')`)).getRowObjectsJson() as Array<{
        column_name: string;
        column_type: string;
      }>;
      const duckdbType: Record<string, string> = { string: 'VARCHAR', int32: 'INTEGER', float64: 'DOUBLE', bool: 'BOOLEAN' };
      expect(header.dataset_info.features.map((f) => [f.name, duckdbType[f.dtype]])).toEqual(
        columns.map((c) => [c.column_name, c.column_type]),
      );
      const versions = (
        await connection.runAndReadAll(`SELECT DISTINCT schema_version FROM read_parquet('${parquet}')`)
      ).getRowObjectsJson() as Array<{ schema_version: number }>;
      expect(versions).toEqual([{ schema_version: EXPORT_SCHEMA_VERSION }]);
      expect(card).toContain(`(schema version ${EXPORT_SCHEMA_VERSION}, as \`schema_version\` in every row)`);
    } finally {
      connection.closeSync();
    }
  });
});
