import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FIELDS_V3, EXPORT_SCHEMA_VERSION, type ExportRecord } from '../../../../../core/common/export/exportRecord';
import { hfColumns, hfRow } from '../../../../../core/common/export/interop/hfDataset';
import type { InteropReceipt } from '../../../../../core/common/export/interop/interopFormats';
import { TIER_NAMES } from '../../../../../core/common/export/interop/itemTimeline';
import { VAD_MODEL_ENV } from '../../../../../core/node/engine/sessionEngine';
import { encodeFileName } from '../../../../../core/node/session/sessionPaths';
import { cli } from '../../../../helpers/cli';
import { EAF_XSD, haveFixtures, interopStudy, QDE_XSD, VAD_MODEL } from './interopSessions';

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');
const haveTool = (tool: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

let dir: string;
let records: ExportRecord[];
const out = (format: string): string => path.join(dir, '..', `out-${format}`);
const recorded = (): ExportRecord[] => records.filter((r) => r.audio !== null);
const stem = (r: ExportRecord): string => `${encodeFileName(r.annotator, 'annotator name')}/${encodeFileName(r.item_id, 'item id')}`;
const readReceipt = async (format: string): Promise<InteropReceipt> =>
  JSON.parse(await readFile(path.join(out(format), `${format}.receipt.json`), 'utf8')) as InteropReceipt;

async function filesUnder(root: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await filesUnder(root, relative)));
    else found.push(relative);
  }
  return found.sort();
}

/** Every file of the folder but the receipt is in the receipt with its sha256 and size, and nothing else is. */
async function expectReceiptCoversFolder(format: string): Promise<InteropReceipt> {
  const receipt = await readReceipt(format);
  const files = (await filesUnder(out(format))).filter((f) => f !== `${format}.receipt.json`);
  expect(receipt.files.map((f) => f.path).sort()).toEqual(files);
  for (const f of receipt.files) {
    const bytes = await readFile(path.join(out(format), ...f.path.split('/')));
    expect({ path: f.path, sha256: sha256(bytes), bytes: bytes.length }).toEqual(f);
  }
  expect(receipt).toMatchObject({
    kind: 'interop',
    format,
    schema_version: EXPORT_SCHEMA_VERSION,
    records: records.length,
    recordings: recorded().length,
    annotators: ['Zoë Example', 'bob'],
  });
  return receipt;
}

beforeAll(async () => {
  ({ dir } = await interopStudy());
  const jsonl = path.join(dir, '..', 'records.jsonl');
  expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', jsonl)).code).toBe(0);
  records = (await readFile(jsonl, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as ExportRecord);
  const previous = process.env[VAD_MODEL_ENV];
  if (existsSync(VAD_MODEL)) process.env[VAD_MODEL_ENV] = VAD_MODEL;
  try {
    for (const format of ['eaf', 'textgrid', 'qdpx', 'hf', 'maxqda']) {
      const run = await cli('export', '--project', dir, '--format', format, '--out', out(format), '--json');
      expect(run.code, run.err).toBe(0);
    }
  } finally {
    if (previous === undefined) delete process.env[VAD_MODEL_ENV];
    else process.env[VAD_MODEL_ENV] = previous;
  }
}, 240_000);

describe.skipIf(!haveFixtures)(
  'interop exports of a study with two annotators, corrections, reasoning and recordings transcribed later',
  () => {
    it('the study has what the formats must carry', () => {
      expect(
        recorded()
          .map((r) => `${r.annotator}/${r.item_id}`)
          .sort(),
      ).toEqual(['Zoë Example/demo-01', 'Zoë Example/demo-03', 'bob/demo-01', 'bob/demo-08']);
      const zoe01 = records.find((r) => r.annotator === 'Zoë Example' && r.item_id === 'demo-01')!;
      expect(zoe01.corrections).toHaveLength(1);
      expect(zoe01.keep_talking_cues).toHaveLength(1);
      expect(zoe01.label_source).toBe('correction');
      const zoe03 = records.find((r) => r.annotator === 'Zoë Example' && r.item_id === 'demo-03')!;
      expect(zoe03.step_judgments.map((j) => `${j.index}:${j.source}`)).toEqual(['1:key', '2:click', '2:voice']);
      const bob01 = records.find((r) => r.annotator === 'bob' && r.item_id === 'demo-01')!;
      expect(bob01).toMatchObject({ final_label: 'Impolite', label_source: 'voice' });
    });

    it('ELAN: one .eaf per annotator and item with a recording, the WAV beside it, valid against EAF 3.0 (xmllint) and the tiers filled from the record', async () => {
      const receipt = await expectReceiptCoversFolder('eaf');
      expect(receipt.files.filter((f) => f.path.endsWith('.eaf'))).toHaveLength(4);
      const eafs = recorded().map((r) => path.join(out('eaf'), ...`${stem(r)}.eaf`.split('/')));
      if (haveTool('xmllint')) execFileSync('xmllint', ['--noout', '--schema', EAF_XSD, ...eafs], { stdio: 'pipe' });
      for (const r of recorded()) {
        const xml = await readFile(path.join(out('eaf'), ...`${stem(r)}.eaf`.split('/')), 'utf8');
        const wav = await readFile(path.join(out('eaf'), ...`${stem(r)}.wav`.split('/')));
        expect(sha256(wav)).toBe(r.audio!.sha256);
        expect(xml).toContain(`RELATIVE_MEDIA_URL="./${encodeFileName(r.item_id, 'item id')}.wav"`);
        expect([...xml.matchAll(/TIER_ID="([^"]+)"/g)].map((m) => m[1])).toEqual([...TIER_NAMES]);
        const tier = (name: string): string =>
          xml.slice(xml.indexOf(`TIER_ID="${name}"`), xml.indexOf('</TIER>', xml.indexOf(`TIER_ID="${name}"`)));
        const values = (name: string): string[] =>
          [...tier(name).matchAll(/<ANNOTATION_VALUE>([^<]*)<\/ANNOTATION_VALUE>/g)].map((m) => m[1]!);
        expect(values('label acts')).toEqual(r.label_history.map((a) => a.label));
        expect(values('label act sources').map((v) => v.split(' at ')[0])).toEqual(r.label_history.map((a) => a.source));
        expect(values('commit phrases')).toHaveLength(r.commitments.length);
        expect(values('utterances')).toHaveLength(new Set(r.segments.map((s) => s.utterance)).size);
        expect(values('keep-talking cues')).toHaveLength(r.keep_talking_cues.length);
        expect(values('pauses (energy)')).toHaveLength(r.signals!.pauses!.count);
        if (r.signals?.vad_pauses && existsSync(VAD_MODEL)) expect(values('pauses (VAD)')).toHaveLength(r.signals.vad_pauses.count);
        expect(values('model steps')).toHaveLength(r.model_reasoning?.steps.length ?? 0);
        // hesitation by category: a tier each, holding what the record's counts count
        expect(values('filled pauses')).toHaveLength(r.signals!.filled_pause_count!);
        expect(values('hedges')).toHaveLength(r.signals!.hedge_count!);
        expect(values('repetitions')).toHaveLength(r.signals!.repetition_count!);
        expect(values('editing terms')).toHaveLength(r.signals!.editing_term_count!);
        // every label act is under the controlled vocabulary of the project's labels
        expect(tier('label acts').match(/CVE_REF="cve_label_\d+"/g) ?? []).toHaveLength(r.label_history.length);
      }
      const zoe = recorded().find((r) => r.annotator === 'Zoë Example' && r.item_id === 'demo-01')!;
      const xml = await readFile(path.join(out('eaf'), ...`${stem(zoe)}.eaf`.split('/')), 'utf8');
      expect(xml).toContain('<CVE_VALUE LANG_REF="und">Polite</CVE_VALUE>');
      expect(xml.slice(xml.indexOf('TIER_ID="corrected"'))).toMatch(/<ANNOTATION_VALUE> I label this polite\.<\/ANNOTATION_VALUE>/);
      expect(xml.slice(xml.indexOf('TIER_ID="hesitations"'))).toMatch(/<ANNOTATION_VALUE>um<\/ANNOTATION_VALUE>/);
      const zoeTier = (name: string): string[] =>
        [
          ...xml
            .slice(xml.indexOf(`TIER_ID="${name}"`), xml.indexOf('</TIER>', xml.indexOf(`TIER_ID="${name}"`)))
            .matchAll(/<ANNOTATION_VALUE>([^<]*)<\/ANNOTATION_VALUE>/g),
        ].map((m) => m[1]!);
      expect([zoeTier('filled pauses'), zoeTier('hedges')]).toEqual([
        ['Hmm', 'um'],
        ['kind of', 'I guess'],
      ]);
      expect(zoe.signals).toMatchObject({
        filled_pause_count: 2,
        hedge_count: 2,
        repetition_count: 0,
        editing_term_count: 0,
        hesitation_language: 'en',
      });
      const judged = recorded().find((r) => r.annotator === 'Zoë Example' && r.item_id === 'demo-03')!;
      const judgedXml = await readFile(path.join(out('eaf'), ...`${stem(judged)}.eaf`.split('/')), 'utf8');
      expect(judgedXml.slice(judgedXml.indexOf('TIER_ID="step judgments"'))).toMatch(
        /<ANNOTATION_VALUE>-1 wrong, click at [^<]+<\/ANNOTATION_VALUE>/,
      );

      const validated = await cli('validate', eafs[0]!, '--require-receipt');
      expect(validated.code, validated.out).toBe(0);
      expect(JSON.parse(validated.out)).toEqual([]);
    });

    it.skipIf(!haveTool('praat'))('Praat reads every TextGrid with the tiers, counts and times of the export', async () => {
      await expectReceiptCoversFolder('textgrid');
      const script = path.join(dir, '..', 'tiers.praat');
      await writeFile(
        script,
        [
          'form Tiers',
          '  sentence file',
          'endform',
          'Read from file: file$',
          'n = Get number of tiers',
          'for t to n',
          '  name$ = Get tier name: t',
          '  interval = Is interval tier: t',
          '  if interval',
          '    k = Get number of intervals: t',
          '    for i to k',
          '      lab$ = Get label of interval: t, i',
          '      a = Get start time of interval: t, i',
          '      b = Get end time of interval: t, i',
          '      if lab$ <> ""',
          '        appendInfoLine: name$, tab$, fixed$(a, 3), tab$, fixed$(b, 3), tab$, lab$',
          '      endif',
          '    endfor',
          '  else',
          '    k = Get number of points: t',
          '    for i to k',
          '      a = Get time of point: t, i',
          '      lab$ = Get label of point: t, i',
          '      appendInfoLine: name$, tab$, fixed$(a, 3), tab$, "", tab$, lab$',
          '    endfor',
          '  endif',
          '  appendInfoLine: "#tier", tab$, name$, tab$, interval',
          'endfor',
        ].join('\n'),
      );
      for (const r of recorded()) {
        const file = path.join(out('textgrid'), ...`${stem(r)}.TextGrid`.split('/'));
        const lines = execFileSync('praat', ['--run', script, file], { encoding: 'utf8' })
          .trimEnd()
          .split('\n')
          .filter((l) => !l.includes('\n'));
        const tiers = lines.filter((l) => l.startsWith('#tier\t')).map((l) => l.split('\t'));
        expect(tiers.map((t) => t[1])).toEqual([...TIER_NAMES]);
        expect(tiers.filter((t) => t[2] === '0').map((t) => t[1])).toEqual(['label acts', 'label act sources', 'keep-talking cues']);
        const rows = (tier: string): string[][] => lines.filter((l) => l.startsWith(`${tier}\t`)).map((l) => l.split('\t'));
        expect(rows('label acts').map((row) => row[3])).toEqual(r.label_history.map((a) => a.label));
        // voice acts stand at their audio time (to the millisecond; acts in one millisecond 1 ms apart)
        r.label_history.forEach((a, i) => {
          if (a.audio_ms !== null)
            expect(Math.abs(Number(rows('label acts')[i]![1]) * 1000 - a.audio_ms)).toBeLessThanOrEqual(r.label_history.length);
        });
        expect(rows('utterances').map((row) => row[3])).toEqual(
          [...new Set(r.segments.map((s) => s.utterance))].map((u) =>
            r.segments
              .filter((s) => s.utterance === u)
              .map((s) => s.text)
              .join(''),
          ),
        );
        const firstUtterance = r.segments.filter((s) => s.utterance === r.segments[0]!.utterance);
        expect(Number(rows('utterances')[0]![1])).toBeCloseTo(firstUtterance[0]!.t0_ms / 1000, 3);
        expect(rows('commit phrases').map((row) => row[3])).toEqual(r.commitments.map((c) => c.quote));
        r.commitments.forEach((c, i) => expect(Number(rows('commit phrases')[i]![2]) * 1000).toBeCloseTo(c.t_ms!, 0));
        expect(rows('keep-talking cues').map((row) => Math.round(Number(row[1]) * 1000))).toEqual(
          r.keep_talking_cues.map((c) => c.audio_ms),
        );
        expect(rows('pauses (energy)')).toHaveLength(r.signals!.pauses!.count);
        expect(
          rows('words')
            .map((row) => row[3])
            .join(' '),
        ).toBe(r.segments.map((s) => s.text.trim()).join(' '));
        expect(rows('model steps')).toHaveLength(r.model_reasoning?.steps.length ?? 0);
        expect([rows('filled pauses').length, rows('hedges').length, rows('repetitions').length, rows('editing terms').length]).toEqual([
          r.signals!.filled_pause_count,
          r.signals!.hedge_count,
          r.signals!.repetition_count,
          r.signals!.editing_term_count,
        ]);
      }
    });

    it('REFI-QDA: a .qdpx laid out as the standard says, valid against its XSD, commit phrases coded with their label', async () => {
      const receipt = await expectReceiptCoversFolder('qdpx');
      expect(receipt.files.map((f) => f.path)).toEqual(['politeness-demo.qdpx']);
      const zip = unzipSync(await readFile(path.join(out('qdpx'), 'politeness-demo.qdpx')));
      const qde = new TextDecoder().decode(zip['project.qde']!);
      if (haveTool('xmllint')) {
        const file = path.join(dir, '..', 'project.qde');
        await writeFile(file, qde);
        execFileSync('xmllint', ['--noout', '--schema', QDE_XSD, file], { stdio: 'pipe' });
      }
      expect(qde).toContain('<Project xmlns="urn:QDA-XML:project:1.0" name="politeness-demo"');
      for (const m of qde.matchAll(/"internal:\/\/([^"]+)"/g)) expect(zip[`Sources/${m[1]}`], m[1]).toBeDefined();
      expect(qde.match(/<AudioSource /g)).toHaveLength(4);
      expect(qde.match(/<TextSource /g)).toHaveLength(20);
      expect(qde.match(/<Case /g)).toHaveLength(2);
      const codes = new Map([...qde.matchAll(/<Code guid="([^"]+)" name="([^"]+)" isCodable="true">/g)].map((m) => [m[2]!, m[1]!]));
      expect([...codes.keys()]).toEqual(['Polite', 'Impolite', 'Neutral']);
      const selections = [
        ...qde.matchAll(/<TranscriptSelection [^>]*name="([^"]*)"[^>]*>\s*<Coding [^>]*><CodeRef targetGUID="([^"]+)"\/>/g),
      ];
      const commitments = recorded().flatMap((r) => r.commitments);
      expect(selections.map((m) => [m[1], m[2]])).toEqual(commitments.map((c) => [c.quote.replace(/"/g, '&quot;'), codes.get(c.label)]));
      for (const variable of [
        'final_label',
        'blind_label',
        'label_source',
        'filler_count',
        'filled_pause_count',
        'hedge_count',
        'repetition_count',
        'editing_term_count',
        'hesitation_language',
        'pause_count',
        'model',
      ])
        expect(qde).toMatch(new RegExp(`<Variable guid="[^"]+" name="${variable}"`));
      // the hesitation counts of each recording, and on each case their sum
      const variableGuid = (name: string): string => qde.match(new RegExp(`<Variable guid="([^"]+)" name="${name}"`))![1]!;
      const valuesOf = (name: string): number[] =>
        [...qde.matchAll(new RegExp(`<VariableRef targetGUID="${variableGuid(name)}"/><IntegerValue>(\\d+)</IntegerValue>`, 'g'))].map(
          (m) => Number(m[1]),
        );
      const bobAndZoe = (pick: (r: ExportRecord) => number): number[] =>
        ['Zoë Example', 'bob'].map((a) =>
          recorded()
            .filter((r) => r.annotator === a)
            .reduce((n, r) => n + pick(r), 0),
        );
      expect(valuesOf('filled_pause_count')).toEqual([
        ...bobAndZoe((r) => r.signals!.filled_pause_count!),
        ...recorded().map((r) => r.signals!.filled_pause_count),
      ]);
      expect(valuesOf('hedge_count')).toEqual([
        ...bobAndZoe((r) => r.signals!.hedge_count!),
        ...recorded().map((r) => r.signals!.hedge_count),
      ]);
      // each transcript file is the verbatim transcript, with sync points at every segment's edges
      for (const r of recorded()) {
        const transcript = Object.entries(zip).find(
          ([name, bytes]) => name.endsWith('.txt') && new TextDecoder().decode(bytes) === r.transcript,
        );
        expect(transcript, `${r.annotator}/${r.item_id}`).toBeDefined();
      }
      expect((qde.match(/<SyncPoint /g) ?? []).length).toBeGreaterThanOrEqual(recorded().reduce((n, r) => n + r.segments.length + 1, 0));

      const validated = await cli('validate', path.join(out('qdpx'), 'politeness-demo.qdpx'), '--require-receipt');
      expect(validated.code, validated.out).toBe(0);
    });

    it('Hugging Face: audiofolder metadata keyed by file_name, a Parquet file DuckDB reads back equal to it, every v3 field in the columns, a dataset card', async () => {
      await expectReceiptCoversFolder('hf');
      const metadata = (await readFile(path.join(out('hf'), 'metadata.jsonl'), 'utf8'))
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const columns = hfColumns();
      expect(metadata.map((row) => row.file_name)).toEqual(recorded().map((r) => `audio/${stem(r)}.wav`));
      for (const row of metadata) expect(sha256(await readFile(path.join(out('hf'), String(row.file_name))))).toBe(row.audio_sha256);
      // the rows are the JSONL export's records, flattened (exported_at aside: each export has its own time)
      const expected = recorded().map((r) =>
        hfRow({ ...r, exported_at: metadata[0]!.exported_at as string }, `audio/${stem(r)}.wav`, columns),
      );
      expect(metadata).toEqual(expected);
      for (const field of EXPORT_FIELDS_V3)
        expect(
          columns.some((c) => c.path[0] === field),
          field,
        ).toBe(true);
      // the gold split: one gold record per project item, as `aloud export --gold` writes them
      const gold = (await readFile(path.join(out('hf'), 'gold', 'gold.jsonl'), 'utf8'))
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { item_id: string });
      expect(gold.map((g) => g.item_id)).toEqual(Array.from({ length: 20 }, (_, i) => `demo-${String(i + 1).padStart(2, '0')}`));
      expect(await readFile(path.join(out('hf'), 'README.md'), 'utf8')).toContain('`gold/gold.jsonl`: the gold split');

      const db = await DuckDBInstance.create(':memory:');
      const connection = await db.connect();
      try {
        const parquet = path.join(out('hf'), 'parquet', 'records.parquet');
        const read = async (sql: string): Promise<Array<Record<string, unknown>>> =>
          (await connection.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, unknown>>;
        const fromParquet = await read(`SELECT * FROM read_parquet('${parquet}') ORDER BY file_name`);
        const fromJsonl = await read(
          `SELECT * FROM read_json('${path.join(out('hf'), 'metadata.jsonl')}', format = 'newline_delimited', columns = {${columns.map((c) => `'${c.name}': '${c.type === 'int32' ? 'INTEGER' : c.type === 'float64' ? 'DOUBLE' : c.type === 'bool' ? 'BOOLEAN' : 'VARCHAR'}'`).join(', ')}}) ORDER BY file_name`,
        );
        expect(Object.keys(fromParquet[0]!)).toEqual(columns.map((c) => c.name));
        expect(fromParquet).toEqual(fromJsonl);
        expect(fromParquet).toHaveLength(4);
        const sorted = [...metadata].sort((a, b) => String(a.file_name).localeCompare(String(b.file_name)));
        expect(fromParquet.map((row) => [row.file_name, row.final_label, row.transcript, row.signals_pauses_count])).toEqual(
          sorted.map((row) => [row.file_name, row.final_label, row.transcript, row.signals_pauses_count]),
        );
      } finally {
        connection.closeSync();
      }

      const card = await readFile(path.join(out('hf'), 'README.md'), 'utf8');
      const header = card.slice(4, card.indexOf('\n---\n'));
      expect(header).toContain('language:\n- en');
      expect(header).toContain('size_categories:\n- n<1K');
      expect(header).toContain('task_categories:');
      for (const c of columns.filter((c) => c.name !== 'file_name')) expect(header).toContain(`  - name: ${c.name}\n`);
      expect(card).toMatch(/by scripted \(sha256 scripted:[0-9a-f]{64}/);
      expect(card).toContain('deterministic rule parser (version ');
      expect(card).toContain('"um", "uh"');
      expect(card).toContain('en: `signals_filled_pause_count` counts "um", "uh", "er"');
      expect(card).toContain('`blind_label` is the first label act');
    });

    it("MAXQDA/NVivo: a transcript named like its media file, in aTrain's _maxqda.txt layout ([HH:MM:SS] - text per segment, a speaker paragraph per take)", async () => {
      await expectReceiptCoversFolder('maxqda');
      for (const r of recorded()) {
        const text = await readFile(path.join(out('maxqda'), ...`${stem(r)}.txt`.split('/')), 'utf8');
        expect(existsSync(path.join(out('maxqda'), ...`${stem(r)}.wav`.split('/')))).toBe(true);
        const paragraphs = text
          .replace(/^\ufeff/, '')
          .trimEnd()
          .split('\r\n\r\n');
        expect(paragraphs).toHaveLength(new Set(r.segments.map((s) => s.utterance)).size);
        const stamps = paragraphs.flatMap((p) => {
          expect(p.split('\r\n')[0]).toBe(r.annotator);
          return [...p.matchAll(/\[00:00:(\d\d)\] - /g)].map((m) => Number(m[1]));
        });
        expect(stamps).toEqual(r.segments.map((s) => Math.floor(s.t0_ms / 1000)));
      }
    });

    it('exporting again into the same folder replaces its own files; a file it did not write is refused without --force and stays', async () => {
      const before = await readReceipt('maxqda');
      const again = await cli('export', '--project', dir, '--format', 'maxqda', '--out', out('maxqda'));
      expect(again.code, again.err).toBe(0);
      expect((await readReceipt('maxqda')).files).toEqual(before.files);

      const foreign = path.join(out('textgrid'), 'bob', 'demo-01.TextGrid');
      const receiptBefore = await readFile(path.join(out('textgrid'), 'textgrid.receipt.json'), 'utf8');
      await writeFile(path.join(out('textgrid'), 'textgrid.receipt.json'), JSON.stringify({ ...JSON.parse(receiptBefore), files: [] }));
      await writeFile(foreign, 'my own notes');
      const refused = await cli('export', '--project', dir, '--format', 'textgrid', '--out', out('textgrid'));
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/already exist.*no earlier export wrote them.*--force/);
      expect(await readFile(foreign, 'utf8')).toBe('my own notes');
      const forced = await cli('export', '--project', dir, '--format', 'textgrid', '--out', out('textgrid'), '--force');
      expect(forced.code, forced.err).toBe(0);
      expect(await readFile(foreign, 'utf8')).toContain('File type = "ooTextFile"');
    });

    it("never writes into the project's own data", async () => {
      const run = await cli('export', '--project', dir, '--format', 'eaf', '--out', path.join(dir, 'sessions', 'x'));
      expect(run.code).toBe(2);
      expect(run.err).toContain("the project's own data");
      await mkdir(path.join(dir, 'exports'), { recursive: true });
      expect(existsSync(path.join(dir, 'sessions', 'x'))).toBe(false);
    });
  },
);
