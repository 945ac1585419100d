import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PARSER_VERSION } from '../../../../core/common/parser/parserVersion';
import type { ExportRecordV2 } from '../../../../core/common/export/exportRecord';
import { parseCsv } from '../../../../core/common/io/csv';
import { encodeWavPcm16 } from '../../../../core/node/audio/wavFile';
import { cli } from '../../../helpers/cli';

/**
 * A project recorded by the Aloud before the commit grammar (parser aloud-commit-parser/1, `session ingest
 * --engine-script` with fixtures/parser-v1-session/engine-script.json on ../shared's commit-polite.wav, then
 * `export` to JSON Lines and CSV): its log and exports are checked in; the WAVs are not (nothing here reads them).
 */
const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'parser-v1-session');

async function copyOfFixture(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-parser-upgrade-')), 'proj');
  await cp(fixture, dir, { recursive: true });
  return dir;
}

/** Stand-ins for the WAVs the log records (as many samples, silent), so that the session can be opened to append to. */
async function silentRecordings(dir: string): Promise<void> {
  const samples = new Map<string, number>();
  for (const line of (await readFile(path.join(dir, 'sessions/ana/events.jsonl'), 'utf8')).trimEnd().split('\n')) {
    const event = JSON.parse(line) as { type: string; data: { item_id: string; samples: number } };
    if (event.type === 'audio_appended') samples.set(event.data.item_id, (samples.get(event.data.item_id) ?? 0) + event.data.samples);
  }
  await mkdir(path.join(dir, 'sessions/ana/audio'), { recursive: true });
  for (const [item, count] of samples)
    await writeFile(path.join(dir, 'sessions/ana/audio', `${item}.wav`), encodeWavPcm16(new Float32Array(count), 16000));
}

const finalLabels = async (dir: string): Promise<Record<string, string | null>> => {
  const shown = await cli('session', 'show', '--project', dir, '--annotator', 'ana', '--json');
  expect(shown.code, shown.err).toBe(0);
  const items = (JSON.parse(shown.out) as { items: Array<{ item_id: string; final_label: string | null }> }).items;
  return Object.fromEntries(items.filter((i) => i.item_id <= 'demo-10').map((i) => [i.item_id, i.final_label]));
};

describe('a session recorded with the parser before the commit grammar', () => {
  it('was recorded with aloud-commit-parser/1, and the grammar bumped the version', async () => {
    const log = (await readFile(path.join(fixture, 'sessions/ana/events.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: { parser_version?: string } });
    const versions = new Set(log.filter((e) => e.type === 'label_committed').map((e) => e.data.parser_version));
    expect(versions).toEqual(new Set(['aloud-commit-parser/1']));
    expect(PARSER_VERSION).toBe('aloud-commit-parser/2');
  });

  it('reparse --dry-run lists exactly the items whose labels the grammar changes, and writes nothing; reparse then applies them', async () => {
    const dir = await copyOfFixture();
    const logFile = path.join(dir, 'sessions/ana/events.jsonl');
    const before = await readFile(logFile, 'utf8');
    const recorded = {
      'demo-01': 'Polite', // "I say polite things to my boss all the time."
      'demo-02': 'Polite', // "Someone might label this polite."
      'demo-03': 'Polite', // "I was going to label this polite, but no."
      'demo-04': null, // "I labeled this polite."
      'demo-05': null, // "My answer's impolite."
      'demo-06': null, // "I would not label this polite, final answer neutral."
      'demo-07': 'Polite', // "I label this polite." (unchanged)
      'demo-08': null, // "My answer is in polite."
      'demo-09': 'Polite', // "I'd label this polite if it didn't end so abruptly."
      'demo-10': 'Polite', // "I label this polite, no, impolite."
    };
    // nothing changes without reparse: the log, not today's parser, is the record
    expect(await finalLabels(dir)).toEqual(recorded);

    const dry = await cli('session', 'reparse', '--project', dir, '--dry-run', '--json');
    expect(dry.code, dry.err).toBe(0);
    const result = JSON.parse(dry.out) as {
      dry_run: boolean;
      parser_version: string;
      changed: number;
      sessions: Array<{
        items: Array<{
          item_id: string;
          from: string | null;
          to: string | null;
          voice_from: string[];
          voice_to: string[];
          changed: boolean;
        }>;
      }>;
    };
    expect(result).toMatchObject({ dry_run: true, parser_version: PARSER_VERSION, changed: 9 });
    expect(result.sessions[0]!.items.map(({ item_id, from, to }) => ({ item_id, from, to }))).toEqual([
      { item_id: 'demo-01', from: 'Polite', to: null },
      { item_id: 'demo-02', from: 'Polite', to: null },
      { item_id: 'demo-03', from: 'Polite', to: null },
      { item_id: 'demo-04', from: null, to: 'Polite' },
      { item_id: 'demo-05', from: null, to: 'Impolite' },
      { item_id: 'demo-06', from: null, to: 'Neutral' },
      { item_id: 'demo-08', from: null, to: 'Impolite' },
      { item_id: 'demo-09', from: 'Polite', to: null },
      { item_id: 'demo-10', from: 'Polite', to: 'Impolite' },
    ]);
    expect(await readFile(logFile, 'utf8')).toBe(before);
    expect(await finalLabels(dir)).toEqual(recorded);

    await silentRecordings(dir);
    const applied = await cli('session', 'reparse', '--project', dir, '--json');
    expect(applied.code, applied.err).toBe(0);
    expect(await finalLabels(dir)).toEqual({
      ...recorded,
      'demo-01': null,
      'demo-02': null,
      'demo-03': null,
      'demo-04': 'Polite',
      'demo-05': 'Impolite',
      'demo-06': 'Neutral',
      'demo-08': 'Impolite',
      'demo-09': null,
      'demo-10': 'Impolite',
    });
    const rederived = (await readFile(logFile, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: { item_id: string; parser_version: string } })
      .filter((e) => e.type === 'labels_rederived');
    expect(rederived.map((e) => [e.data.item_id, e.data.parser_version])).toHaveLength(9);
    expect(new Set(rederived.map((e) => e.data.parser_version))).toEqual(new Set([PARSER_VERSION]));
  });
});

describe('exports written before hesitation by category', () => {
  it('still validate, JSON Lines and CSV, receipts included', async () => {
    for (const file of ['before.jsonl', 'before.csv']) {
      const text = await readFile(path.join(fixture, 'exports', file), 'utf8');
      expect(text).not.toContain('filled_pause_count');
      const validated = await cli('validate', path.join(fixture, 'exports', file), '--require-receipt');
      expect(validated.code, `${file}: ${validated.out}`).toBe(0);
      expect(JSON.parse(validated.out)).toEqual([]);
    }
  });

  it('session show carries the four counts and the language in signals, for a log written before they existed', async () => {
    const shown = await cli('session', 'show', '--project', fixture, '--annotator', 'ana', '--item', 'demo-01', '--json');
    expect(shown.code, shown.err).toBe(0);
    expect((JSON.parse(shown.out) as { signals: Record<string, unknown> }).signals).toMatchObject({
      filler_count: 4,
      filled_pause_count: 2,
      hedge_count: 2,
      repetition_count: 0,
      editing_term_count: 0,
      hesitation_language: 'en',
    });
  });

  it('a new export carries the four counts and the language in signals and in CSV columns, and validates', async () => {
    const dir = await copyOfFixture();
    const jsonl = path.join(dir, 'exports', 'after.jsonl');
    const exported = await cli('export', '--project', dir, '--format', 'jsonl', '--out', jsonl);
    expect(exported.code, exported.err).toBe(0);
    const records = (await readFile(jsonl, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportRecordV2);
    // " Hmm, well. This reply is, um, kind of polite, I guess. I say polite things to my boss all the time."
    expect(records.find((r) => r.item_id === 'demo-01')!.signals).toMatchObject({
      filler_count: 4,
      filled_pause_count: 2,
      hedge_count: 2,
      repetition_count: 0,
      editing_term_count: 0,
      hesitation_language: 'en',
    });
    // " So. I label this polite, no, impolite."
    expect(records.find((r) => r.item_id === 'demo-10')!.signals).toMatchObject({ filled_pause_count: 0, editing_term_count: 0 });
    expect(records.find((r) => r.item_id === 'demo-11')!.signals).toBeNull();
    expect((await cli('validate', jsonl)).code).toBe(0);

    const csvFile = path.join(dir, 'exports', 'after.csv');
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csvFile)).code).toBe(0);
    const table = parseCsv(await readFile(csvFile, 'utf8'), csvFile);
    const header = table.header;
    // the five hesitation columns together, before the v3 columns (session_kind onwards)
    const hesitation = header.slice(header.indexOf('session_kind') - 5, header.indexOf('session_kind'));
    expect(hesitation).toEqual(['filled_pause_count', 'hedge_count', 'repetition_count', 'editing_term_count', 'hesitation_language']);
    const row = table.rows.find((r) => r.fields[header.indexOf('item_id')] === 'demo-01')!.fields;
    expect(hesitation.map((name) => row[header.indexOf(name)])).toEqual(['2', '2', '0', '0', 'en']);
    expect((await cli('validate', csvFile)).code).toBe(0);

    // the hesitation columns come all together: a file with some of them is refused, naming the missing ones
    const cut = path.join(dir, 'exports', 'cut.csv');
    const keep = header.map((name, i) => (name === 'hedge_count' ? -1 : i)).filter((i) => i >= 0);
    const lines = [header, ...table.rows.map((r) => r.fields)].map((fields) =>
      keep
        .map((i) => fields[i])
        .map((v) => (/[",\r\n]/.test(v ?? '') ? `"${v!.replace(/"/g, '""')}"` : v))
        .join(','),
    );
    await writeFile(cut, `${lines.join('\r\n')}\r\n`);
    const refused = await cli('validate', cut);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/hedge_count.*the hesitation columns come all together/);
  });
});
