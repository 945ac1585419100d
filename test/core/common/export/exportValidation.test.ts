import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvColumnsOf } from '../../../../core/common/export/exportCsvColumns';
import { serializeExport, type ExportFormat } from '../../../../core/common/export/exportFormats';
import { EXPORT_FIELDS, EXPORT_FIELDS_V3, upcastExportRecordV2, type ExportRecordV1 } from '../../../../core/common/export/exportRecord';
import { formatCsv } from '../../../../core/common/io/csv';
import type { ExportProjectFacts } from '../../../../core/common/export/exportRules';
import { validateExportText } from '../../../../core/common/export/exportValidation';
import type { InputStage } from '../../../../core/common/io/inputProblem';
import { projectFactsFixture, validRecords } from './exportFixtures';

type Rec = Record<string, unknown> & {
  commitments: Array<Record<string, unknown>>;
  segments: Array<Record<string, unknown>>;
  label_history: Array<Record<string, unknown>>;
};
const records = (): Rec[] => structuredClone(validRecords()) as unknown as Rec[];
const jsonl = (rs: unknown[]): string => rs.map((r) => `${JSON.stringify(r)}\n`).join('');
/** JSON Lines with record 0 changed by `edit` */
const edit0 = (change: (r: Rec) => void): string => {
  const rs = records();
  change(rs[0]!);
  return jsonl(rs);
};
const firstLine = jsonl(records()).split('\n')[0]!;
const secondLine = jsonl(records()).split('\n')[1]!;

interface Case {
  name: string;
  text: string;
  format?: ExportFormat;
  project?: ExportProjectFacts;
  /** every problem expected, as [stage, line, field] */
  expected: Array<[InputStage, number | null, string | null]>;
  fragment: string;
}

const prettyJson = serializeExport(validRecords(), 'json');
const lineOfNth = (text: string, needle: string, nth: number): number => {
  let seen = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (lines[i]!.includes(needle) && seen++ === nth) return i + 1;
  throw new Error(`no ${needle}`);
};
const csv = serializeExport(validRecords(), 'csv');

const cases: Case[] = [
  // parse stage
  { name: 'a line that is not JSON', text: `${firstLine}\nnot json\n`, expected: [['parse', 2, null]], fragment: 'unexpected word "not"' },
  {
    name: 'a duplicate key',
    text: `${firstLine.replace('{"schema_version":5,', '{"schema_version":5,"schema_version":5,')}\n`,
    expected: [['parse', 1, 'schema_version']],
    fragment: 'duplicate key',
  },
  {
    name: 'NaN as a number',
    text: `${firstLine.replace('"duration_ms":5000', '"duration_ms":NaN')}\n`,
    expected: [['parse', 1, 'audio.duration_ms']],
    fragment: 'NaN is not allowed',
  },
  {
    name: 'Infinity as a number',
    text: `${firstLine.replace('"t_ms":2600', '"t_ms":Infinity')}\n`,
    expected: [['parse', 1, 'commitments[0].t_ms']],
    fragment: 'Infinity is not allowed',
  },
  {
    name: '-Infinity as a number',
    text: `${firstLine.replace('"audio_ms"', '"x"').replace('"time_to_first_speech_ms":40', '"time_to_first_speech_ms":-Infinity')}\n`,
    expected: [['parse', 1, 'signals.time_to_first_speech_ms']],
    fragment: '-Infinity',
  },
  {
    name: 'two values on one line',
    text: `${firstLine} ${secondLine}\n`,
    expected: [['parse', 1, null]],
    fragment: 'exactly one JSON value',
  },
  {
    name: 'Markdown fences around the lines',
    text: `\`\`\`jsonl\n${firstLine}\n\`\`\`\n`,
    expected: [
      ['parse', 1, null],
      ['parse', 3, null],
    ],
    fragment: 'Markdown code fence',
  },
  { name: 'a trailing comma', text: `${firstLine.replace(/}$/, ',}')}\n`, expected: [['parse', 1, null]], fragment: 'trailing comma' },
  {
    name: 'a lone surrogate escape',
    text: `${firstLine.replace('"transcript":" Hmm', '"transcript":"\\ud800 Hmm')}\n`,
    expected: [['parse', 1, 'transcript']],
    fragment: 'lone surrogate',
  },
  {
    name: 'a line cut short',
    text: `${firstLine}\n${secondLine.slice(0, 40)}\n`,
    expected: [['parse', 2, 'project']],
    fragment: 'unterminated string',
  },
  {
    name: 'text after the JSON array',
    format: 'json',
    text: `${prettyJson}garbage\n`,
    expected: [['parse', prettyJson.split('\n').length, null]],
    fragment: 'after the JSON value',
  },
  {
    name: 'a duplicate key deep in a JSON file',
    format: 'json',
    text: prettyJson.replace('"path": "sessions', '"path": "x", "path": "sessions'),
    expected: [['parse', lineOfNth(prettyJson, '"path"', 0), '[0].audio.path']],
    fragment: 'duplicate key "path"',
  },
  // schema stage
  {
    name: 'schema_version 6',
    text: edit0((r) => (r.schema_version = 6)),
    expected: [['schema', 1, 'schema_version']],
    fragment: 'must be 5',
  },
  {
    name: 'a missing exported_at',
    text: edit0((r) => delete r.exported_at),
    expected: [['schema', 1, 'exported_at']],
    fragment: 'required field is missing',
  },
  {
    name: 'an unknown top-level field',
    text: edit0((r) => (r.mood = 'x')),
    expected: [['schema', 1, 'mood']],
    fragment: 'no additional properties',
  },
  {
    name: 'an unknown label act source',
    text: edit0((r) => (r.label_history[0]!.source = 'mouse')),
    expected: [['schema', 1, 'label_history[0].source']],
    fragment: 'must be one of',
  },
  {
    name: 'a note without its time',
    text: edit0((r) => delete (r.notes as Array<Record<string, unknown>>)[0]!.at),
    expected: [['schema', 1, 'notes[0].at']],
    fragment: 'required field is missing',
  },
  {
    name: 'a model sha256 that is neither a sha256 nor scripted',
    text: edit0((r) => ((r.model as Record<string, unknown>).sha256 = 'fake:' + 'b'.repeat(64))),
    expected: [['schema', 1, 'model.sha256']],
    fragment: 'must match pattern',
  },
  {
    name: 'an unknown commitment field',
    text: edit0((r) => (r.commitments[0]!.confidence = 1)),
    expected: [['schema', 1, 'commitments[0].confidence']],
    fragment: 'no additional properties',
  },
  {
    name: 'an upper-case sha256',
    text: edit0((r) => (r.item_text_sha256 = 'A'.repeat(64))),
    expected: [['schema', 1, 'item_text_sha256']],
    fragment: 'must match pattern',
  },
  {
    name: 'a short config_sha256',
    text: edit0((r) => (r.config_sha256 = 'abc')),
    expected: [['schema', 1, 'config_sha256']],
    fragment: 'must match pattern',
  },
  {
    name: 'an empty final_label',
    text: edit0((r) => (r.final_label = '')),
    expected: [['schema', 1, 'final_label']],
    fragment: 'fewer than 1',
  },
  {
    name: 'an unknown label_source',
    text: edit0((r) => (r.label_source = 'mouse')),
    expected: [['schema', 1, 'label_source']],
    fragment: 'must be one of "voice", "click", "key", "correction", "room", null',
  },
  {
    name: 'commitments null',
    text: edit0((r) => (r.commitments = null as never)),
    expected: [['schema', 1, 'commitments']],
    fragment: 'must be array, not null',
  },
  {
    name: 'a negative commitment start',
    text: edit0((r) => (r.commitments[0]!.start = -1)),
    expected: [['schema', 1, 'commitments[0].start']],
    fragment: 'must be >= 0',
  },
  {
    name: 'a fractional commitment end',
    text: edit0((r) => (r.commitments[0]!.end = 10.5)),
    expected: [['schema', 1, 'commitments[0].end']],
    fragment: 'must be integer',
  },
  {
    name: 'a segment time as a string',
    text: edit0((r) => (r.segments[1]!.t0_ms = '2600')),
    expected: [['schema', 1, 'segments[1].t0_ms']],
    fragment: 'must be number, not string',
  },
  {
    name: 'a token probability above 1',
    text: edit0((r) => ((r.segments[1]!.tokens as Array<Record<string, unknown>>)[0]!.p = 1.5)),
    expected: [['schema', 1, 'segments[1].tokens[0].p']],
    fragment: 'must be <= 1',
  },
  {
    name: 'a signal key missing',
    text: edit0((r) => delete (r.signals as Record<string, unknown>).word_count),
    expected: [['schema', 1, 'signals.word_count']],
    fragment: 'required field is missing',
  },
  {
    name: 'a negative pause count',
    text: edit0((r) => ((r.signals as { pauses: Record<string, unknown> }).pauses.count = -2)),
    expected: [['schema', 1, 'signals.pauses.count']],
    fragment: 'must be >= 0',
  },
  {
    name: 'a fractional filler count',
    text: edit0((r) => ((r.signals as { fillers_by_term: Record<string, unknown> }).fillers_by_term.hmm = 0.5)),
    expected: [['schema', 1, 'signals.fillers_by_term.hmm']],
    fragment: 'must be integer',
  },
  {
    name: 'audio without sha256',
    text: edit0((r) => delete (r.audio as Record<string, unknown>).sha256),
    expected: [['schema', 1, 'audio.sha256']],
    fragment: 'required field is missing',
  },
  {
    name: 'a negative audio duration',
    text: edit0((r) => ((r.audio as Record<string, unknown>).duration_ms = -1)),
    expected: [['schema', 1, 'audio.duration_ms']],
    fragment: 'must be >= 0',
  },
  {
    name: 'an empty model name',
    text: edit0((r) => ((r.model as Record<string, unknown>).name = '')),
    expected: [['schema', 1, 'model.name']],
    fragment: 'fewer than 1',
  },
  {
    name: 'a started_at that is not ISO 8601',
    text: edit0((r) => (r.started_at = '02/01/2026 10:00')),
    expected: [['schema', 1, 'started_at']],
    fragment: 'must match pattern',
  },
  {
    name: 'exported_at null',
    text: edit0((r) => (r.exported_at = null)),
    expected: [['schema', 1, 'exported_at']],
    fragment: 'must be string, not null',
  },
  { name: 'an empty project name', text: edit0((r) => (r.project = '')), expected: [['schema', 1, 'project']], fragment: 'fewer than 1' },
  {
    name: 'a record that is an array',
    text: `${firstLine}\n[1,2]\n`,
    expected: [['schema', 2, null]],
    fragment: 'must be object, not an array',
  },
  // rule stage, inside the file
  {
    name: 'a duplicate annotator and item',
    text: `${firstLine}\n${secondLine}\n${firstLine}\n`,
    expected: [['rule', 3, 'item_id']],
    fragment: 'duplicate record for annotator "ann" and item "item-1" (first on line 1)',
  },
  {
    name: 'a quote that is not the transcript text at its offsets',
    text: edit0((r) => (r.commitments[0]!.quote = 'I label this rude!')),
    expected: [['rule', 1, 'commitments[0].quote']],
    fragment: 'is not the transcript text',
  },
  {
    name: 'a voice final label that is not the last commitment',
    text: edit0((r) => (r.final_label = 'Impolite')),
    expected: [
      ['rule', 1, 'final_label'],
      ['rule', 1, 'final_label'],
    ],
    fragment: 'is not the last commitment',
  },
  {
    name: 'a voice label without any commitment',
    text: edit0((r) => (r.commitments = [])),
    expected: [
      ['rule', 1, 'label_source'],
      ['rule', 1, 'label_history'],
    ],
    fragment: 'no commitment',
  },
  {
    name: 'a blind label that is not the first act',
    text: edit0((r) => (r.blind_label = 'Neutral')),
    expected: [['rule', 1, 'blind_label']],
    fragment: 'is not the first label act',
  },
  {
    name: 'label acts out of occurrence order',
    text: edit0((r) =>
      r.label_history.unshift({
        label: 'Polite',
        source: 'key',
        at: '2026-01-02T10:00:09.000Z',
        audio_ms: null,
        quote: null,
        reviewer: null,
      }),
    ),
    expected: [['rule', 1, 'label_history[1].at']],
    fragment: 'is before the one listed before it',
  },
  {
    name: 'a quote shifted by one character',
    text: edit0((r) => {
      r.commitments[0]!.start = (r.commitments[0]!.start as number) + 1;
      r.commitments[0]!.end = (r.commitments[0]!.end as number) + 1;
    }),
    expected: [['rule', 1, 'commitments[0].quote']],
    fragment: 'is not the transcript text',
  },
  {
    name: 'offsets beyond the transcript',
    text: edit0((r) => (r.commitments[0]!.end = 500)),
    expected: [['rule', 1, 'commitments[0].end']],
    fragment: 'outside the transcript',
  },
  {
    name: 'an end before the start',
    text: edit0((r) => (r.commitments[0]!.end = 3)),
    expected: [['rule', 1, 'commitments[0].end']],
    fragment: 'outside the transcript',
  },
  {
    name: 'a commitment without transcript',
    text: edit0((r) => (r.transcript = null)),
    expected: [['rule', 1, 'commitments[0].quote']],
    fragment: 'without a transcript',
  },
  {
    name: 'a final label without label_source',
    text: edit0((r) => (r.label_source = null)),
    expected: [
      ['rule', 1, 'label_source'],
      ['rule', 1, 'label_source'],
    ],
    fragment: 'needs its label_source',
  },
  {
    name: 'a label_source without final label',
    text: edit0((r) => (r.final_label = null)),
    expected: [
      ['rule', 1, 'label_source'],
      ['rule', 1, 'final_label'],
    ],
    fragment: 'without a final label',
  },
  {
    name: 'a segment ending before it starts',
    text: edit0((r) => (r.segments[1]!.t1_ms = 2000)),
    expected: [['rule', 1, 'segments[1].t1_ms']],
    fragment: 'before it starts',
  },
  {
    name: 'an audio path leaving the project',
    text: edit0((r) => ((r.audio as Record<string, unknown>).path = 'sessions/../../etc/x.wav')),
    expected: [['rule', 1, 'audio.path']],
    fragment: 'stay inside it',
  },
  {
    name: 'an absolute audio path',
    text: edit0((r) => ((r.audio as Record<string, unknown>).path = '/tmp/x.wav')),
    expected: [['rule', 1, 'audio.path']],
    fragment: 'must be relative',
  },
  { name: 'an empty export', text: '\n', expected: [['rule', null, null]], fragment: 'no records' },
  {
    name: 'label_changes that the history does not show',
    text: edit0((r) => ((r.signals as Record<string, unknown>).label_changes = 2)),
    expected: [['rule', 1, 'signals.label_changes']],
    fragment: 'changes label 0 time(s)',
  },
  {
    name: 'a label declared missing from the schema that the history does not have',
    text: edit0((r) => (r.labels_not_in_schema = ['Made-up'])),
    expected: [['rule', 1, 'labels_not_in_schema[0]']],
    fragment: 'is not a label of the history',
  },
  // rule stage, against the project
  {
    name: 'a label outside the schema in the middle of the history',
    project: projectFactsFixture,
    text: edit0((r) => {
      r.label_history.unshift({
        label: 'Rude',
        source: 'key',
        at: '2026-01-02T10:00:01.000Z',
        audio_ms: null,
        quote: null,
        reviewer: null,
      });
      r.label_history.unshift({
        label: 'Polite',
        source: 'key',
        at: '2026-01-02T10:00:00.500Z',
        audio_ms: null,
        quote: null,
        reviewer: null,
      });
      (r.signals as Record<string, unknown>).label_changes = 2;
    }),
    expected: [['rule', 1, 'label_history[1].label']],
    fragment: "not in the project's label schema",
  },
  {
    name: 'a label declared missing that the schema has',
    project: projectFactsFixture,
    text: edit0((r) => (r.labels_not_in_schema = ['Polite'])),
    expected: [['rule', 1, 'labels_not_in_schema[0]']],
    fragment: "is in the project's label schema",
  },
  {
    name: 'an item id the project does not have',
    project: projectFactsFixture,
    text: edit0((r) => (r.item_id = 'item-9')),
    expected: [['rule', 1, 'item_id']],
    fragment: 'does not exist in the project',
  },
  {
    name: 'a final label outside the label schema',
    project: projectFactsFixture,
    text: edit0((r) => {
      r.final_label = 'Rude';
      r.own_final_label = 'Rude';
      r.label_source = 'key';
      r.label_history.push({ label: 'Rude', source: 'key', at: '2026-01-02T10:00:07.000Z', audio_ms: null, quote: null, reviewer: null });
      (r.signals as Record<string, unknown>).label_changes = 1;
    }),
    expected: [
      ['rule', 1, 'label_history[1].label'],
      ['rule', 1, 'final_label'],
    ],
    fragment: "not in the project's label schema",
  },
  {
    name: 'a blind label outside the label schema',
    project: projectFactsFixture,
    text: edit0((r) => {
      r.blind_label = 'polite';
      r.label_history.unshift({
        label: 'polite',
        source: 'key',
        at: '2026-01-02T10:00:01.000Z',
        audio_ms: null,
        quote: null,
        reviewer: null,
      });
      (r.signals as Record<string, unknown>).label_changes = 1;
    }),
    expected: [
      ['rule', 1, 'label_history[0].label'],
      ['rule', 1, 'blind_label'],
    ],
    fragment: "not in the project's label schema",
  },
  {
    name: 'a label the schema no longer has, declared by the record (kept as recorded)',
    project: projectFactsFixture,
    text: edit0((r) => {
      r.final_label = 'Courteous';
      r.own_final_label = 'Courteous';
      r.blind_label = 'Courteous';
      r.label_source = 'key';
      r.commitments = [];
      r.label_history = [
        { label: 'Courteous', source: 'key', at: '2026-01-02T10:00:01.000Z', audio_ms: null, quote: null, reviewer: null },
      ];
      r.labels_not_in_schema = ['Courteous'];
      r.item_id = 'nope';
    }),
    expected: [['rule', 1, 'item_id']],
    fragment: 'does not exist',
  },
  {
    name: 'a commitment label outside the label schema',
    project: projectFactsFixture,
    text: edit0((r) => {
      r.commitments[0]!.label = 'Kind';
      r.label_source = 'key';
      r.label_history.push({ label: 'Polite', source: 'key', at: '2026-01-02T10:00:07.000Z', audio_ms: null, quote: null, reviewer: null });
    }),
    expected: [['rule', 1, 'commitments[0].label']],
    fragment: "not in the project's label schema",
  },
  {
    name: 'an item whose text changed in the project',
    project: projectFactsFixture,
    text: edit0((r) => (r.item_text_sha256 = '3'.repeat(64))),
    expected: [['rule', 1, 'item_text_sha256']],
    fragment: 'different text',
  },
  {
    name: 'an item whose context changed in the project',
    project: projectFactsFixture,
    text: edit0((r) => (r.item_context_sha256 = '4'.repeat(64))),
    expected: [['rule', 1, 'item_context_sha256']],
    fragment: 'different context',
  },
  {
    name: 'another project',
    project: projectFactsFixture,
    text: edit0((r) => (r.project = 'other')),
    expected: [['rule', 1, 'project']],
    fragment: 'is not this project',
  },
  // CSV exports
  {
    name: 'a CSV header without the transcript column',
    format: 'csv',
    text: csv.replace(',transcript,', ',words,'),
    expected: [
      ['schema', 1, 'transcript'],
      ['schema', 1, 'words'],
    ],
    fragment: 'no column "transcript"',
  },
  {
    name: 'a CSV boolean that is not true or false',
    format: 'csv',
    text: csv.replace(',false,', ',no,'),
    expected: [['schema', 2, 'config_changed']],
    fragment: 'must be boolean',
  },
  {
    name: 'a CSV count that is not a number',
    format: 'csv',
    text: csv.replace(',,0,0,sarcastic?,', ',,zero,0,sarcastic?,'),
    expected: [['schema', 2, 'correction_count']],
    fragment: 'must be integer',
  },
  {
    name: 'a ragged CSV row',
    format: 'csv',
    text: `${csv}1,extra\r\n`,
    expected: [['parse', 4, null]],
    fragment: `the header has ${CSV_COLUMNS.length}`,
  },
  {
    name: 'a CSV schema_version that is not a number',
    format: 'csv',
    text: csv.replace(/\r\n5,/, '\r\none,'),
    expected: [['schema', 2, 'schema_version']],
    fragment: 'must be 5',
  },
  {
    name: 'a v3 CSV row completed without a completion time',
    format: 'csv',
    text: csv.replace(/,true,2026-01-02T10:00:09.500Z,/, ',false,2026-01-02T10:00:09.500Z,'),
    expected: [['rule', 2, 'completed']],
    fragment: 'completed is false',
  },
  {
    name: "an own final label that is not the annotator's last act",
    text: edit0((r) => (r.own_final_label = 'Neutral')),
    expected: [['rule', 1, 'own_final_label']],
    fragment: "is not the annotator's last act's",
  },
  {
    name: 'a label act without its reviewer (v3)',
    text: edit0((r) => delete (r.label_history[0] as Record<string, unknown>).reviewer),
    expected: [['schema', 1, 'label_history[0].reviewer']],
    fragment: 'required field is missing',
  },
  {
    name: 'completed that contradicts completed_at',
    text: edit0((r) => (r.completed = false)),
    expected: [['rule', 1, 'completed']],
    fragment: 'completed is false',
  },
  {
    name: 'a CSV blind label that is not the first act',
    format: 'csv',
    text: csv.replace(',,Polite,voice,Polite,voice:', ',,Polite,voice,Neutral,voice:'),
    expected: [['rule', 2, 'blind_label']],
    fragment: 'is not the first label act',
  },
  {
    name: "a CSV label source that is not the last act's",
    format: 'csv',
    text: csv.replace(',,Polite,voice,Polite,voice:', ',,Polite,key,Polite,voice:'),
    expected: [['rule', 2, 'label_source']],
    fragment: 'is not the last label act',
  },
  {
    name: 'a CSV final label that is not the last act',
    format: 'csv',
    text: csv.replace('ann,item-1,' + '1'.repeat(64) + ',,Polite,', 'ann,item-1,' + '1'.repeat(64) + ',,Neutral,'),
    expected: [['rule', 2, 'final_label']],
    fragment: "is not the last label act's",
  },
  // JSON exports
  {
    name: 'a JSON export that is an object',
    format: 'json',
    text: '{"records": []}',
    expected: [['schema', 1, null]],
    fragment: 'one JSON array of export records',
  },
  {
    name: 'a wrong type deep in a JSON export, located by line',
    format: 'json',
    text: prettyJson.replace('"final_label": null', '"final_label": 5'),
    expected: [['schema', lineOfNth(prettyJson, '"final_label"', 1), '[1].final_label']],
    fragment: 'must be string or null, not number',
  },
];

describe('the JSON export text', () => {
  it('is the records as one JSON array, indented two spaces, then a newline (built record by record)', () => {
    const all = validRecords();
    expect(all.length).toBeGreaterThan(1);
    const ordered = JSON.parse(serializeExport(all, 'jsonl').split('\n')[0]!) as Record<string, unknown>;
    const asArray = JSON.parse(prettyJson) as Array<Record<string, unknown>>;
    expect(Object.keys(asArray[0]!)).toEqual(Object.keys(ordered));
    expect(prettyJson).toBe(`${JSON.stringify(asArray, null, 2)}\n`);
    expect(serializeExport([], 'json')).toBe('[]\n');
  });
});

describe('validateExportText: every stage, every problem, located', () => {
  it('accepts the valid export in all three formats, with and without the project', () => {
    for (const format of ['jsonl', 'json', 'csv'] as const) {
      const text = serializeExport(validRecords(), format);
      expect(validateExportText(text, `e.${format}`, format, null).problems).toEqual([]);
      const withProject = validateExportText(text, `e.${format}`, format, projectFactsFixture);
      expect(withProject.problems).toEqual([]);
      expect(withProject.parsedRecords).toBe(2);
    }
  });

  it('reads a v2 CSV back to typed flat cells: no JSON in cells, lists joined, empty nullable cells null', () => {
    const [row] = validateExportText(csv, 'e.csv', 'csv', null).records as unknown as Array<Record<string, unknown>>;
    const [record] = validRecords();
    expect(row).toMatchObject({
      schema_version: 5,
      session_kind: 'annotator',
      own_final_label: 'Polite',
      reviewed_by: null,
      completed: true,
      model_vad_name: null,
      item_id: 'item-1',
      final_label: 'Polite',
      label_history: `voice:Polite@${record!.label_history[0]!.at}`,
      commitment_quotes: 'I label this polite',
      commitment_spans: `${record!.commitments[0]!.start}:${record!.commitments[0]!.end}`,
      item_context_sha256: null,
      notes: 'sarcastic?',
      config_changed: false,
      pause_count: 1,
      fillers_by_term: 'hmm=1 | kind of=1',
      word_count: 10,
      whisper_cpp: '1.9.1',
    });
    expect(csv.split('\r\n')[0]).toBe(CSV_COLUMNS.map((c) => c.name).join(','));
    expect(csv).not.toMatch(/[{[]""/);
  });

  it('still reads v1 exports (JSON Lines and CSV with JSON columns), with the project', () => {
    const v1 = validRecords().map((r) => {
      const old: Record<string, unknown> = {
        ...r,
        schema_version: 1,
        label_source: r.label_source,
        model: r.model ? { name: r.model.name, sha256: r.model.sha256 } : null,
      };
      old.segments = r.segments.map(({ utterance: _u, index: _i, ...s }) => s);
      // the voice-activity signals and hesitation by category came with v2 exports
      if (r.signals) {
        const {
          vad_speech_ms: _s,
          vad_pauses: _p,
          vad_time_to_first_speech_ms: _t,
          filled_pause_count: _f,
          hedge_count: _h,
          repetition_count: _r,
          editing_term_count: _e,
          hesitation_language: _l,
          ...signals
        } = r.signals;
        old.signals = signals;
      }
      return Object.fromEntries(EXPORT_FIELDS.map((k) => [k, old[k]]));
    });
    expect(validateExportText(jsonl(v1), 'old.jsonl', 'jsonl', projectFactsFixture).problems).toEqual([]);
    const cell = (v: unknown) => (v === null ? '' : typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v));
    const v1csv = formatCsv(
      EXPORT_FIELDS,
      v1.map((r) => EXPORT_FIELDS.map((k) => cell(r[k]))),
    );
    expect(validateExportText(v1csv, 'old.csv', 'csv', projectFactsFixture).problems).toEqual([]);
    expect(
      validateExportText(jsonl([{ ...v1[0], final_label: 'Impolite' }]), 'old.jsonl', 'jsonl', null).problems.map((p) => p.field),
    ).toEqual(['final_label']);
  });

  it('still reads v2 exports (JSON Lines and flat CSV); a v2 record upcast to v3 validates as v3', () => {
    const v3 = validRecords();
    const v2 = v3.map((r) => {
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
        ...rest
      } = r;
      return {
        ...rest,
        schema_version: 2 as const,
        label_history: r.label_history.map(({ reviewer: _r, ...a }) => a),
        corrections: r.corrections.map(({ reviewer: _r, ...c }) => c),
      };
    });
    expect(validateExportText(jsonl(v2), 'v2.jsonl', 'jsonl', projectFactsFixture).problems).toEqual([]);
    const v2csv = formatCsv(
      csvColumnsOf(2).map((c) => c.name),
      v3.map((r) =>
        csvColumnsOf(2)
          .map((c) => {
            const v = c.value(r);
            return v === null ? '' : String(v);
          })
          .map((cell, i) => (i === 0 ? '2' : cell)),
      ),
    );
    expect(validateExportText(v2csv, 'v2.csv', 'csv', projectFactsFixture).problems).toEqual([]);
    // v2 without the VAD columns (written before they existed) still reads too
    const upcast = v2.map(upcastExportRecordV2);
    expect(validateExportText(jsonl(upcast), 'up.jsonl', 'jsonl', projectFactsFixture).problems).toEqual([]);
    expect(upcast[0]).toMatchObject({
      schema_version: 3,
      completed: true,
      own_final_label: 'Polite',
      session_kind: 'annotator',
      vad_model: null,
      time_open_ms: null,
    });
    expect(upcast[1]).toMatchObject({ completed: false, own_final_label: null });
    expect(Object.keys(upcast[0]!)).toEqual([...EXPORT_FIELDS_V3]);
  });

  it('--with-items: the item text, context and further fields in columns of their own, validated like the rest', () => {
    const items = new Map([
      ['item-1', { id: 'item-1', text: 'Thanks!', meta: { source: 'chat-7', turn: 3 } }],
      ['item-2', { id: 'item-2', text: 'No.', context: 'Hi?' }],
    ]);
    const text = serializeExport(validRecords(), 'csv', { items });
    expect(text.split('\r\n')[0]!.endsWith(',item_text,item_context,item_metadata')).toBe(true);
    const { problems, records: rows } = validateExportText(text, 'e.csv', 'csv', projectFactsFixture);
    expect(problems).toEqual([]);
    expect(
      rows.map((r) => [
        (r as unknown as Record<string, unknown>).item_text,
        (r as unknown as Record<string, unknown>).item_context,
        (r as unknown as Record<string, unknown>).item_metadata,
      ]),
    ).toEqual([
      ['Thanks!', null, 'source=chat-7 | turn=3'],
      ['No.', 'Hi?', null],
    ]);
    const cut = text
      .replace(',item_context,item_metadata', '')
      .replace(/,,source=chat-7 \| turn=3/, '')
      .replace(/,Hi\?,/, '');
    expect(validateExportText(cut, 'e.csv', 'csv', null).problems.map((p) => p.field)).toContain('item_context');
  });

  it('has at least 40 malformed cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const format = c.format ?? 'jsonl';
    const { problems } = validateExportText(c.text, `export.${format}`, format, c.project ?? null);
    expect(problems.map((p) => [p.stage, p.line, p.field])).toEqual(c.expected);
    expect(problems[0]!.message).toContain(c.fragment);
    expect(problems.every((p) => p.file === `export.${format}`)).toBe(true);
  });

  it('lists every problem across records and stages in one run', () => {
    const rs = records();
    rs[1]!.label_source = 'voice';
    const text = `${jsonl(rs)}{"broken": \n${JSON.stringify({ ...rs[0], schema_version: 6 })}\n`;
    const { problems } = validateExportText(text, 'e.jsonl', 'jsonl', null);
    expect(problems.map((p) => [p.stage, p.line, p.field])).toEqual([
      ['parse', 3, 'broken'],
      ['schema', 4, 'schema_version'],
      ['rule', 2, 'label_source'],
      ['rule', 2, 'label_source'],
    ]);
  });
});

export type { ExportRecordV1 };

describe('CSV list cells', () => {
  it('escape | and \\ inside entries, so notes and labels with them split back exactly', async () => {
    const { splitCsvList, parseHistoryEntry, CSV_COLUMNS: columns } = await import('../../../../core/common/export/exportCsvColumns');
    const [record] = validRecords();
    record!.notes = [
      { text: 'with | pipe and \\ slash', at: '2026-01-02T10:00:08.000Z' },
      { text: 'two', at: '2026-01-02T10:00:09.000Z' },
    ];
    const cell = columns.find((c) => c.name === 'notes')!.value(record!) as string;
    expect(splitCsvList(cell)).toEqual(['with | pipe and \\ slash', 'two']);
    expect(parseHistoryEntry('key:a:b@c@2026-01-02T10:00:08.000Z')).toEqual({
      source: 'key',
      label: 'a:b@c',
      at: '2026-01-02T10:00:08.000Z',
    });
    expect(parseHistoryEntry('nonsense')).toBeNull();
  });
});
