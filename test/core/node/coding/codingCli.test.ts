import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseCodebook } from '../../../../core/common/codebook/codebook';
import {
  exportRecordJsonSchemas,
  upcastExportRecordV2,
  type ExportRecord,
  type ExportRecordV2,
} from '../../../../core/common/export/exportRecord';
import { parseCsv } from '../../../../core/common/io/csv';
import { parseSessionLog } from '../../../../core/common/session/sessionLog';
import { annotatorSessions } from '../../../../core/node/session/projectSessions';
import { loadProjectConfig } from '../../../../core/node/project/projectFolder';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';
import { codingStudy, STUDY_CODEBOOK } from './codingStudy';

const QDE_XSD = path.resolve(import.meta.dirname, '../../../../../shared/standards/refi-qda/Project-mrt2019.xsd');
const haveXmllint = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v xmllint'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function csvFile(dir: string, lines: string[]): Promise<string> {
  const file = path.join(dir, '..', `codings-${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

async function eventsOf(dir: string, annotator: string) {
  const file = sessionPaths(dir, annotator).events;
  return parseSessionLog(await readFile(file, 'utf8'), file).events;
}

describe('aloud session units', () => {
  it('lists the units of final protocols with item_id, unit, text, t0_ms, t1_ms; an item not completed is left out and said', async () => {
    const { dir } = await codingStudy();
    const run = await cli('session', 'units', '--project', dir, '--annotator', 'ana', '--json');
    expect(run.code, run.err).toBe(0);
    const units = JSON.parse(run.out) as Array<Record<string, unknown>>;
    expect(units.filter((u) => u.item_id === 'demo-01')).toEqual([
      { item_id: 'demo-01', unit: 'u0', text: 'Hmm, I am not sure.', t0_ms: 100, t1_ms: 900 },
      { item_id: 'demo-01', unit: 'u1', text: 'It thanks the user.', t0_ms: 1100, t1_ms: 1900 },
      { item_id: 'demo-01', unit: 'u2', text: 'I label this polite.', t0_ms: 2100, t1_ms: 2900 },
    ]);
    expect([...new Set(units.map((u) => u.item_id))]).toEqual(['demo-01', 'demo-02', 'demo-03']);
    expect(run.err).toContain('left out, transcript not final yet (item not completed): demo-04');
    const notFinal = await cli('session', 'units', '--project', dir, '--annotator', 'ana', '--item', 'demo-04', '--json');
    expect(notFinal.code).toBe(2);
    expect(notFinal.err).toContain('the transcript of "demo-04" is not final');
  });

  it('with coding.unit: sentence, a unit is a sentence of an utterance', async () => {
    const { dir } = await codingStudy({ configExtra: 'coding:\n  unit: sentence' });
    const run = await cli('session', 'units', '--project', dir, '--annotator', 'ana', '--item', 'demo-03', '--json');
    expect((JSON.parse(run.out) as Array<{ unit: string; text: string }>).map((u) => [u.unit, u.text])).toEqual([
      ['u0.s0', 'Well.'],
      ['u0.s1', 'Hard to say.'],
      ['u1.s0', 'I label this neutral.'],
    ]);
  });
});

describe('aloud import --codings', () => {
  it('refuses a file with any bad row, every problem at its line, and writes nothing', async () => {
    const { dir } = await codingStudy();
    const anaLog = await readFile(sessionPaths(dir, 'ana').events);
    const file = await csvFile(dir, [
      'item,annotator,unit,coder,code,memo',
      'demo-01,ana,u0,bob,Doubts,',
      'demo-01,ana,u7,bob,Doubts,',
      'demo-01,ana,u1,bob,Sarcasm,',
      'demo-04,ana,u0,bob,Doubts,',
      'demo-99,ana,u0,bob,Doubts,',
      'demo-01,ana,u0,bob,doubts,',
      'demo-01,nobody,u0,bob,Doubts,',
      // a good row of a coder who has a session already: a refused file must not open (and so log in) her session
      'demo-02,ana,u0,ana,Doubts,',
    ]);
    const run = await cli('import', '--project', dir, '--codings', file, '--json');
    expect(run.code).toBe(2);
    const { problems } = JSON.parse(run.out) as { problems: Array<{ line: number; field: string; message: string }> };
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [3, 'unit'],
      [4, 'code'],
      [5, 'item'],
      [6, 'item'],
      [7, 'code'],
      [8, 'item'],
    ]);
    expect(problems[0]!.message).toContain('"u7" is not a unit of "demo-01" by ana (units: u0, u1, u2');
    expect(problems[2]!.message).toContain('not final');
    expect(problems[4]!.message).toContain('is also on line 2');
    expect(run.err).toMatch(/^aloud import: .*codings-.*\.csv:3: "u7" is not a unit/);
    expect(existsSync(sessionPaths(dir, 'bob').dir)).toBe(false);
    expect(await readFile(sessionPaths(dir, 'ana').events)).toEqual(anaLog);
    const header = await cli(
      'import',
      '--project',
      dir,
      '--codings',
      await csvFile(dir, ['item,annotator,unit,code', 'demo-01,ana,u0,Doubts']),
    );
    expect(header.err).toContain('the header has no column "coder" (expected item,annotator,unit,coder,code,[memo])');
  });

  it("logs each row as the coder's own coding events, the protocols then finished; imports each protocol once", async () => {
    const { dir } = await codingStudy();
    const file = await csvFile(dir, [
      'item,annotator,unit,coder,code,memo',
      'demo-01,ana,u0,bob,Doubts,"hedges: ""not sure"""',
      'demo-01,Ana,u1,bob,Cites the guideline,',
      'demo-02,ana,u0,bob,Cites the guideline,',
      'demo-01,ana,u0,cat,Doubts,',
    ]);
    const run = await cli('import', '--project', dir, '--codings', file, '--json');
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({
      rows: 4,
      coders: [
        { coder: 'bob', codings: 3, memos: 1, protocols: 2, new_session: true },
        { coder: 'cat', codings: 1, protocols: 1 },
      ],
    });
    const bob = await eventsOf(dir, 'bob');
    // the codebook's guidelines (its texts under the version every coding act carries) before the first act under them
    expect(bob.map((e) => e.type)).toEqual([
      'session_started',
      'guideline_in_force',
      'code_applied',
      'coding_memo',
      'code_applied',
      'code_applied',
      'coding_finished',
      'coding_finished',
    ]);
    expect(bob[1]!.data).toMatchObject({ scope: 'codes', version: (bob[2]!.data as { codebook_version: string }).codebook_version });
    expect(bob[2]!.data).toMatchObject({
      annotator: 'ana',
      item_id: 'demo-01',
      unit: 'u0',
      unit_text: 'Hmm, I am not sure.',
      code: 'Doubts',
      coder: 'bob',
      source: 'import',
      after_finished: false,
    });
    expect(bob[3]!.data).toMatchObject({ code: 'Doubts', text: 'hedges: "not sure"' });
    expect(bob[6]!.data).toMatchObject({ item_id: 'demo-01', units: ['u0', 'u1', 'u2'] });
    const again = await cli('import', '--project', dir, '--codings', file);
    expect(again.code).toBe(2);
    expect(again.err).toContain('bob has coded "demo-01" by ana in Aloud already');
  });
});

describe('codings in the record', () => {
  async function codedStudy() {
    const study = await codingStudy();
    const file = await csvFile(study.dir, [
      'item,annotator,unit,coder,code,memo',
      'demo-01,ana,u0,bob,Doubts,hedges',
      'demo-01,ana,u1,bob,Reasons,',
      'demo-02,ana,u0,bob,Cites the guideline,',
      'demo-03,ana,u0,bob,Doubts,',
      'demo-01,ana,u0,cat,Doubts,',
      'demo-02,ana,u0,cat,Cites the guideline,',
      'demo-02,ana,u1,cat,Doubts,',
      'demo-03,ana,u0,cat,Doubts,',
    ]);
    expect((await cli('import', '--project', study.dir, '--codings', file)).code).toBe(0);
    return study;
  }

  it('coders made by import --codings are not annotators: no records, not counted, no QDPX case, not on the Start screen; their codings count', async () => {
    const { dir } = await codedStudy();
    const started = (name: string) =>
      parseSessionLog(readFileSync(sessionPaths(dir, name).events, 'utf8'), name).events[0]!.data as { kind: string };
    expect([started('bob').kind, started('cat').kind]).toEqual(['coder', 'coder']);
    const out = path.join(dir, '..', 'all.jsonl');
    const run = await cli('export', '--project', dir, '--format', 'jsonl', '--out', out);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain('(1 annotator, ');
    const records = (await readFile(out, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { annotator: string; codings: { coders: Array<{ coder: string }> } | null });
    expect([...new Set(records.map((r) => r.annotator))]).toEqual(['ana']);
    // bob's and cat's codings are in ana's records
    expect([...new Set(records.flatMap((r) => r.codings?.coders.map((c) => c.coder) ?? []))].sort()).toEqual(['bob', 'cat']);
    expect(await annotatorSessions(await loadProjectConfig(dir))).toEqual(['ana']);
    const qdpx = path.join(dir, '..', 'qdpx-coders');
    expect((await cli('export', '--project', dir, '--format', 'qdpx', '--out', qdpx)).code).toBe(0);
    const xml = new TextDecoder().decode(unzipSync(await readFile(path.join(qdpx, 'politeness-demo.qdpx')))['project.qde']!);
    expect([...xml.matchAll(/<Case guid="[^"]+" name="([^"]+)"/g)].map((m) => m[1])).toEqual(['ana']);
    expect([...xml.matchAll(/<User guid="[^"]+" name="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(['ana', 'bob', 'cat']);
  });

  it('adding coding.blind to aloud.yaml marks no spoken label stale; a new synonym does, and agreement --codes says so once', async () => {
    const { dir } = await codedStudy();
    const yaml = path.join(dir, 'aloud.yaml');
    const original = await readFile(yaml, 'utf8');
    await writeFile(yaml, `${original.trimEnd()}\ncoding:\n  blind: true\n`);
    const blind = await cli('agreement', '--project', dir, '--codes');
    expect(blind.code, blind.err).toBe(0);
    expect(blind.err).not.toContain('were derived under');
    const exported = await cli('export', '--project', dir, '--format', 'jsonl', '--out', path.join(dir, '..', 'blind.jsonl'));
    expect(exported.err).not.toContain('were derived under');
    expect(
      (await readFile(path.join(dir, '..', 'blind.jsonl'), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { config_changed: boolean }).config_changed),
    ).not.toContain(true);
    // a synonym is an input of the parser: ana's spoken labels were recognised without it
    await writeFile(yaml, original.replace('synonyms: {en: [courteous]', 'synonyms: {en: [courteous, gracious]'));
    expect(await readFile(yaml, 'utf8')).toContain('gracious');
    const synonym = await cli('agreement', '--project', dir, '--codes');
    expect(synonym.err.split('\n').filter((l) => l.includes('were derived under other label phrases'))).toHaveLength(1);
  });

  it('agreement --codes --json: codes per code with alpha, ci95, pairable_units, undefined_reason; codes beside labels', async () => {
    const { dir } = await codedStudy();
    const run = await cli('agreement', '--project', dir, '--codes', '--json');
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(run.out) as {
      codes: Array<Record<string, unknown>>;
      overall?: unknown;
      coding: Record<string, unknown>;
      alpha_final: unknown;
    };
    expect(report).toHaveProperty('alpha_final');
    expect(report.overall).toBeUndefined();
    expect(report.codes.map((c) => c.code)).toEqual(['Doubts', 'Reasons', 'Cites the guideline']);
    for (const c of report.codes)
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['code', 'alpha', 'ci95', 'pairable_units', 'undefined_reason']));
    // 7 units (3 + 2 + 2), both coders finished all three items
    expect(report.codes[0]).toMatchObject({ code: 'Doubts', pairable_units: 7 });
    expect(report.coding).toMatchObject({
      pairable_units: 7,
      unit: 'utterance',
      exclusive: false,
      basis: 'current',
      changed_after_finished: 0,
    });
    expect((report.coding.codes_by_label as { final: Array<{ label: string }> }).final.map((r) => r.label)).toEqual([
      'Impolite',
      'Neutral',
      'Polite',
    ]);
    const html = path.join(dir, '..', 'report.html');
    expect((await cli('agreement', '--project', dir, '--codes', '--html', html)).code).toBe(0);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('Agreement on codes');
    expect(page).toContain('Units the coders disagree on most');
    expect((await cli('agreement', '--project', dir, '--codes', '--csv', html)).err).toContain(
      "--codes reads the codings in the project's sessions",
    );
  });

  it('JSONL, JSON and CSV exports carry them (units.csv beside the CSV), and files without them still validate', async () => {
    const { dir } = await codedStudy();
    const out = path.join(dir, '..', 'records.jsonl');
    expect((await cli('export', '--project', dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    const records = (await readFile(out, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as ExportRecord);
    const ana01 = records.find((r) => r.annotator === 'ana' && r.item_id === 'demo-01')!;
    expect(ana01.codings).toMatchObject({
      unit_kind: 'utterance',
      coders: [
        { coder: 'bob', finished_at: expect.any(String) },
        { coder: 'cat', finished_at: expect.any(String) },
      ],
      units: [
        {
          unit: 'u0',
          text: 'Hmm, I am not sure.',
          t0_ms: 100,
          t1_ms: 900,
          current: true,
          codes: { bob: [{ code: 'Doubts', memo: 'hedges', after_finished: false }], cat: [{ code: 'Doubts', memo: null }] },
        },
        { unit: 'u1', current: true, codes: { bob: [{ code: 'Reasons' }] } },
        { unit: 'u2', current: true, codes: {} },
      ],
    });
    expect(records.find((r) => r.item_id === 'demo-05')!.codings).toBeNull();
    // an export of Ana alone still carries the codings others made of her protocols
    const aloneOut = path.join(dir, '..', 'ana.json');
    expect((await cli('export', '--project', dir, '--annotator', 'ana', '--format', 'json', '--out', aloneOut)).code).toBe(0);
    expect(
      (JSON.parse(await readFile(aloneOut, 'utf8')) as ExportRecord[]).find((r) => r.item_id === 'demo-01')!.codings!.coders,
    ).toHaveLength(2);

    // a file written before codings came to its version still validates
    const before = path.join(dir, '..', 'before.jsonl');
    await writeFile(before, records.map((r) => JSON.stringify({ ...r, codings: undefined })).join('\n') + '\n');
    expect(JSON.parse((await cli('validate', before)).out)).toEqual([]);
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(exportRecordJsonSchemas[ana01.schema_version]!);
    for (const r of records) expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    // a v2 record's codings are kept when it is read as v3
    const {
      session_kind: _k,
      own_final_label: _o,
      vad_model: _v,
      completed: _c,
      first_completed_at: _f,
      time_to_complete_ms: _t,
      time_open_ms: _m,
      deidentification: _d,
      time_on_item_active_ms: _ta,
      time_on_item_wall_ms: _tw,
      time_on_item_idle_gap_ms: _tg,
      guideline_version: _g,
      ...v2Fields
    } = ana01;
    const v2: ExportRecordV2 = {
      ...v2Fields,
      schema_version: 2,
      label_history: ana01.label_history.map(({ reviewer: _r, ...a }) => a),
      corrections: ana01.corrections.map(({ reviewer: _r, ...c }) => c),
    };
    expect(new Ajv2020({ strict: true, allowUnionTypes: true }).compile(exportRecordJsonSchemas[2]!)(v2)).toBe(true);
    expect(upcastExportRecordV2(v2).codings).toEqual(ana01.codings);

    const csv = path.join(dir, '..', 'records.csv');
    const run = await cli('export', '--project', dir, '--format', 'csv', '--out', csv, '--json');
    expect(run.code, run.err).toBe(0);
    const unitsFile = path.join(dir, '..', 'records.units.csv');
    expect(JSON.parse(run.out)).toMatchObject({
      units_file: unitsFile,
      units_receipt: { kind: 'units', rows: 7, records_file: 'records.csv' },
    });
    const table = parseCsv(await readFile(unitsFile, 'utf8'), unitsFile);
    expect(table.header).toEqual([
      'project',
      'annotator',
      'item_id',
      'unit',
      'text',
      't0_ms',
      't1_ms',
      'current',
      'final_label',
      'blind_label',
      'coders',
      'codes',
      'memos',
    ]);
    expect(table.rows[0]!.fields).toEqual([
      'politeness-demo',
      'ana',
      'demo-01',
      'u0',
      'Hmm, I am not sure.',
      '100',
      '900',
      'true',
      'Polite',
      'Polite',
      'bob | cat',
      'bob=Doubts | cat=Doubts',
      'bob=Doubts=hedges',
    ]);
    expect(JSON.parse((await cli('validate', unitsFile, '--require-receipt')).out)).toEqual([]);
    // a second export replaces the pair (an earlier export by its receipt); a changed units file fails validation
    expect((await cli('export', '--project', dir, '--format', 'csv', '--out', csv)).code).toBe(0);
    await writeFile(unitsFile, (await readFile(unitsFile, 'utf8')).replace('Hmm', 'Hm'));
    expect(JSON.parse((await cli('validate', unitsFile)).out)[0].message).toContain('the file changed after export');
  });

  it('the .qdpx carries the codebook and the codings, valid against the REFI-QDA XSD', async () => {
    const { dir } = await codedStudy();
    const out = path.join(dir, '..', 'qdpx');
    const run = await cli('export', '--project', dir, '--format', 'qdpx', '--out', out);
    expect(run.code, run.err).toBe(0);
    const zip = unzipSync(await readFile(path.join(out, 'politeness-demo.qdpx')));
    const xml = new TextDecoder().decode(zip['project.qde']!);
    const guid = (pattern: RegExp): string => pattern.exec(xml)![1]!;
    const doubts = guid(/<Code guid="([^"]+)" name="Doubts" isCodable="true">/);
    const reasons = guid(/<Code guid="([^"]+)" name="Reasons" isCodable="true">/);
    // nested as in codebook.yaml: Cites the guideline inside Reasons
    expect(xml.slice(xml.indexOf(`guid="${reasons}"`), xml.indexOf('</Code>', xml.indexOf('name="Cites the guideline"')))).toContain(
      'name="Cites the guideline"',
    );
    const bob = guid(/<User guid="([^"]+)" name="bob"\/>/);
    const selection = xml.slice(
      xml.indexOf('name="u0: Hmm, I am not sure."'),
      xml.indexOf('</TranscriptSelection>', xml.indexOf('name="u0: Hmm, I am not sure."')),
    );
    expect(selection).toContain(`creatingUser="${bob}"`);
    expect(selection.match(new RegExp(`<CodeRef targetGUID="${doubts}"/>`, 'g'))).toHaveLength(2);
    const note = guid(/<NoteRef targetGUID="([^"]+)"\/>/);
    expect(xml).toMatch(
      new RegExp(`<Note guid="${note}" name="bob: Doubts on ana / demo-01 u0"[^>]*><PlainTextContent>hedges</PlainTextContent></Note>`),
    );
    if (haveXmllint && existsSync(QDE_XSD)) {
      const qde = path.join(dir, '..', 'project.qde');
      await writeFile(qde, xml);
      execFileSync('xmllint', ['--noout', '--schema', QDE_XSD, qde], { stdio: 'pipe' });
    }
  });

  it('the codebook goes out as a REFI-QDA .qdc and comes back the same: examples, keys, GUIDs, version', async () => {
    const rich = `exclusive: true\n${STUDY_CODEBOOK.replace('    key: d\n', '    counter_example: |-\n      I am sure.\n      Example: not this line\n    key: d\n')}`;
    const { dir } = await codingStudy({ codebook: rich });
    const qdc = path.join(dir, '..', 'codebook.qdc');
    const run = await cli('export', '--project', dir, '--format', 'qdc', '--out', qdc, '--json');
    expect(run.code, run.err).toBe(0);
    const first = JSON.parse(run.out) as { codes: number; codebook_version: string };
    expect(first).toMatchObject({ codes: 3, codebook_version: expect.stringMatching(/^[0-9a-f]{12}$/) });
    const xml = await readFile(qdc, 'utf8');
    expect(xml).toContain('<CodeBook xmlns="urn:QDA-XML:codebook:1.0"');
    expect(xml).toContain(
      '<Description>The annotator says they are unsure.\nExample: I am not sure\nCounter-example: I am sure.\nExample: not this line\nKey: d</Description>',
    );
    const other = (await codingStudy({ codebook: null })).dir;
    const imported = await cli('import', '--project', other, '--codebook', qdc, '--json');
    expect(imported.code, imported.err).toBe(0);
    expect(JSON.parse(imported.out)).toMatchObject({
      codebook_version: first.codebook_version,
      source_codebook_version: first.codebook_version,
    });
    const original = parseCodebook(rich);
    const back = parseCodebook(await readFile(path.join(other, 'codebook.yaml'), 'utf8'));
    const guids = [...xml.matchAll(/<Code guid="([^"]+)"/g)].map((m) => m[1]);
    // the same codes, field for field, each now carrying the GUID the QDA tool knows it by
    expect(back).toEqual({ exclusive: true, codes: original.codes.map((c, i) => ({ ...c, guid: guids[i] })) });
    expect(back.codes.map((c) => c.guid)).toEqual(guids);
    const again = path.join(other, '..', 'again.qdc');
    const second = await cli('export', '--project', other, '--format', 'qdc', '--out', again, '--json');
    expect(second.code, second.err).toBe(0);
    expect(JSON.parse(second.out)).toMatchObject({ codebook_version: first.codebook_version });
    // byte for byte but the origin's app version, which is the same Aloud here
    expect(await readFile(again, 'utf8')).toBe(xml);
    // a definition a .qdc cannot carry as it is (a line that reads as an example) is refused, named, nothing written
    const odd = (
      await codingStudy({
        codebook: STUDY_CODEBOOK.replace('definition: Gives a reason for the label.', 'definition: "Gives a reason.\\nExample: because"'),
      })
    ).dir;
    const refused = await cli('export', '--project', odd, '--format', 'qdc', '--out', path.join(odd, '..', 'odd.qdc'));
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/code "Reasons" would not come back the same from a \.qdc/);
    // never written over the project's own codebook
    expect((await cli('export', '--project', dir, '--format', 'qdc', '--out', path.join(dir, 'codebook.yaml'), '--force')).err).toContain(
      "the project's own data",
    );
  });
});

describe('codebook.yaml problems reach the coder', () => {
  it('agreement --codes says what is wrong with the codebook and still reports', async () => {
    const { dir } = await codingStudy({ codebook: 'codes:\n  - {name: A}\n' });
    const run = await cli('agreement', '--project', dir, '--codes', '--json');
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/codebook\.yaml:2: codes\[0\]: missing required key "definition"/);
  });
});
