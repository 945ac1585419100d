import { describe, expect, it } from 'vitest';
import { serializeExport, type ExportFormat } from '../../../../core/common/export/exportFormats';
import type { ExportRecordV1 } from '../../../../core/common/export/exportRecord';
import type { ExportProjectFacts } from '../../../../core/common/export/exportRules';
import { validateExportText } from '../../../../core/common/export/exportValidation';
import type { InputStage } from '../../../../core/common/io/inputProblem';
import { projectFactsFixture, validRecords } from './exportFixtures';

type Rec = Record<string, unknown> & { commitments: Array<Record<string, unknown>>; segments: Array<Record<string, unknown>> };
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
  { name: 'a duplicate key', text: `${firstLine.replace('{"schema_version":1,', '{"schema_version":1,"schema_version":1,')}\n`, expected: [['parse', 1, 'schema_version']], fragment: 'duplicate key' },
  { name: 'NaN as a number', text: `${firstLine.replace('"duration_ms":5000', '"duration_ms":NaN')}\n`, expected: [['parse', 1, 'audio.duration_ms']], fragment: 'NaN is not allowed' },
  { name: 'Infinity as a number', text: `${firstLine.replace('"t_ms":2600', '"t_ms":Infinity')}\n`, expected: [['parse', 1, 'commitments[0].t_ms']], fragment: 'Infinity is not allowed' },
  { name: '-Infinity as a number', text: `${firstLine.replace('"audio_ms"', '"x"').replace('"time_to_first_speech_ms":40', '"time_to_first_speech_ms":-Infinity')}\n`, expected: [['parse', 1, 'signals.time_to_first_speech_ms']], fragment: '-Infinity' },
  { name: 'two values on one line', text: `${firstLine} ${secondLine}\n`, expected: [['parse', 1, null]], fragment: 'exactly one JSON value' },
  { name: 'Markdown fences around the lines', text: `\`\`\`jsonl\n${firstLine}\n\`\`\`\n`, expected: [['parse', 1, null], ['parse', 3, null]], fragment: 'Markdown code fence' },
  { name: 'a trailing comma', text: `${firstLine.replace(/}$/, ',}')}\n`, expected: [['parse', 1, null]], fragment: 'trailing comma' },
  { name: 'a lone surrogate escape', text: `${firstLine.replace('"transcript":" Hmm', '"transcript":"\\ud800 Hmm')}\n`, expected: [['parse', 1, 'transcript']], fragment: 'lone surrogate' },
  { name: 'a line cut short', text: `${firstLine}\n${secondLine.slice(0, 40)}\n`, expected: [['parse', 2, 'project']], fragment: 'unterminated string' },
  { name: 'text after the JSON array', format: 'json', text: `${prettyJson}garbage\n`, expected: [['parse', prettyJson.split('\n').length, null]], fragment: 'after the JSON value' },
  { name: 'a duplicate key deep in a JSON file', format: 'json', text: prettyJson.replace('"path": "sessions', '"path": "x", "path": "sessions'), expected: [['parse', lineOfNth(prettyJson, '"path"', 0), '[0].audio.path']], fragment: 'duplicate key "path"' },
  // schema stage
  { name: 'schema_version 2', text: edit0((r) => (r.schema_version = 2)), expected: [['schema', 1, 'schema_version']], fragment: 'must be 1' },
  { name: 'a missing exported_at', text: edit0((r) => delete r.exported_at), expected: [['schema', 1, 'exported_at']], fragment: 'required field is missing' },
  { name: 'an unknown top-level field', text: edit0((r) => (r.notes = 'x')), expected: [['schema', 1, 'notes']], fragment: 'no additional properties' },
  { name: 'an unknown commitment field', text: edit0((r) => (r.commitments[0]!.confidence = 1)), expected: [['schema', 1, 'commitments[0].confidence']], fragment: 'no additional properties' },
  { name: 'an upper-case sha256', text: edit0((r) => (r.item_text_sha256 = 'A'.repeat(64))), expected: [['schema', 1, 'item_text_sha256']], fragment: 'must match pattern' },
  { name: 'a short config_sha256', text: edit0((r) => (r.config_sha256 = 'abc')), expected: [['schema', 1, 'config_sha256']], fragment: 'must match pattern' },
  { name: 'an empty final_label', text: edit0((r) => (r.final_label = '')), expected: [['schema', 1, 'final_label']], fragment: 'fewer than 1' },
  { name: 'an unknown label_source', text: edit0((r) => (r.label_source = 'mouse')), expected: [['schema', 1, 'label_source']], fragment: 'must be one of "voice", "click", "key", "room", null' },
  { name: 'commitments null', text: edit0((r) => (r.commitments = null as never)), expected: [['schema', 1, 'commitments']], fragment: 'must be array, not null' },
  { name: 'a negative commitment start', text: edit0((r) => (r.commitments[0]!.start = -1)), expected: [['schema', 1, 'commitments[0].start']], fragment: 'must be >= 0' },
  { name: 'a fractional commitment end', text: edit0((r) => (r.commitments[0]!.end = 10.5)), expected: [['schema', 1, 'commitments[0].end']], fragment: 'must be integer' },
  { name: 'a segment time as a string', text: edit0((r) => (r.segments[1]!.t0_ms = '2600')), expected: [['schema', 1, 'segments[1].t0_ms']], fragment: 'must be number, not string' },
  { name: 'a token probability above 1', text: edit0((r) => ((r.segments[1]!.tokens as Array<Record<string, unknown>>)[0]!.p = 1.5)), expected: [['schema', 1, 'segments[1].tokens[0].p']], fragment: 'must be <= 1' },
  { name: 'a signal key missing', text: edit0((r) => delete (r.signals as Record<string, unknown>).word_count), expected: [['schema', 1, 'signals.word_count']], fragment: 'required field is missing' },
  { name: 'a negative pause count', text: edit0((r) => ((r.signals as { pauses: Record<string, unknown> }).pauses.count = -2)), expected: [['schema', 1, 'signals.pauses.count']], fragment: 'must be >= 0' },
  { name: 'a fractional filler count', text: edit0((r) => ((r.signals as { fillers_by_term: Record<string, unknown> }).fillers_by_term.hmm = 0.5)), expected: [['schema', 1, 'signals.fillers_by_term.hmm']], fragment: 'must be integer' },
  { name: 'audio without sha256', text: edit0((r) => delete (r.audio as Record<string, unknown>).sha256), expected: [['schema', 1, 'audio.sha256']], fragment: 'required field is missing' },
  { name: 'a negative audio duration', text: edit0((r) => ((r.audio as Record<string, unknown>).duration_ms = -1)), expected: [['schema', 1, 'audio.duration_ms']], fragment: 'must be >= 0' },
  { name: 'an empty model name', text: edit0((r) => ((r.model as Record<string, unknown>).name = '')), expected: [['schema', 1, 'model.name']], fragment: 'fewer than 1' },
  { name: 'a started_at that is not ISO 8601', text: edit0((r) => (r.started_at = '02/01/2026 10:00')), expected: [['schema', 1, 'started_at']], fragment: 'must match pattern' },
  { name: 'exported_at null', text: edit0((r) => (r.exported_at = null)), expected: [['schema', 1, 'exported_at']], fragment: 'must be string, not null' },
  { name: 'an empty project name', text: edit0((r) => (r.project = '')), expected: [['schema', 1, 'project']], fragment: 'fewer than 1' },
  { name: 'a record that is an array', text: `${firstLine}\n[1,2]\n`, expected: [['schema', 2, null]], fragment: 'must be object, not an array' },
  // rule stage, inside the file
  { name: 'a duplicate annotator and item', text: `${firstLine}\n${secondLine}\n${firstLine}\n`, expected: [['rule', 3, 'item_id']], fragment: 'duplicate record for annotator "ann" and item "item-1" (first on line 1)' },
  { name: 'a quote that is not the transcript text at its offsets', text: edit0((r) => (r.commitments[0]!.quote = 'I label this rude!')), expected: [['rule', 1, 'commitments[0].quote']], fragment: 'is not the transcript text' },
  { name: 'a voice final label that is not the last commitment', text: edit0((r) => (r.final_label = 'Impolite')), expected: [['rule', 1, 'final_label']], fragment: 'is not the last commitment' },
  { name: 'a voice label without any commitment', text: edit0((r) => (r.commitments = [])), expected: [['rule', 1, 'label_source']], fragment: 'no commitment' },
  { name: 'a quote shifted by one character', text: edit0((r) => { r.commitments[0]!.start = (r.commitments[0]!.start as number) + 1; r.commitments[0]!.end = (r.commitments[0]!.end as number) + 1; }), expected: [['rule', 1, 'commitments[0].quote']], fragment: 'is not the transcript text' },
  { name: 'offsets beyond the transcript', text: edit0((r) => (r.commitments[0]!.end = 500)), expected: [['rule', 1, 'commitments[0].end']], fragment: 'outside the transcript' },
  { name: 'an end before the start', text: edit0((r) => (r.commitments[0]!.end = 3)), expected: [['rule', 1, 'commitments[0].end']], fragment: 'outside the transcript' },
  { name: 'a commitment without transcript', text: edit0((r) => (r.transcript = null)), expected: [['rule', 1, 'commitments[0].quote']], fragment: 'without a transcript' },
  { name: 'a final label without label_source', text: edit0((r) => (r.label_source = null)), expected: [['rule', 1, 'label_source']], fragment: 'needs its label_source' },
  { name: 'a label_source without final label', text: edit0((r) => (r.final_label = null)), expected: [['rule', 1, 'label_source']], fragment: 'without a final label' },
  { name: 'a segment ending before it starts', text: edit0((r) => (r.segments[1]!.t1_ms = 2000)), expected: [['rule', 1, 'segments[1].t1_ms']], fragment: 'before it starts' },
  { name: 'an audio path leaving the project', text: edit0((r) => ((r.audio as Record<string, unknown>).path = 'sessions/../../etc/x.wav')), expected: [['rule', 1, 'audio.path']], fragment: 'stay inside it' },
  { name: 'an absolute audio path', text: edit0((r) => ((r.audio as Record<string, unknown>).path = '/tmp/x.wav')), expected: [['rule', 1, 'audio.path']], fragment: 'must be relative' },
  { name: 'an empty export', text: '\n', expected: [['rule', null, null]], fragment: 'no records' },
  // rule stage, against the project
  { name: 'an item id the project does not have', project: projectFactsFixture, text: edit0((r) => (r.item_id = 'item-9')), expected: [['rule', 1, 'item_id']], fragment: 'does not exist in the project' },
  { name: 'a final label outside the label schema', project: projectFactsFixture, text: edit0((r) => { r.final_label = 'Rude'; r.label_source = 'key'; r.blind_label = 'Polite'; }), expected: [['rule', 1, 'final_label']], fragment: 'not in the project\'s label schema' },
  { name: 'a blind label outside the label schema', project: projectFactsFixture, text: edit0((r) => (r.blind_label = 'polite')), expected: [['rule', 1, 'blind_label']], fragment: 'not in the project\'s label schema' },
  { name: 'a commitment label outside the label schema', project: projectFactsFixture, text: edit0((r) => { r.commitments[0]!.label = 'Kind'; r.label_source = 'key'; }), expected: [['rule', 1, 'commitments[0].label']], fragment: 'not in the project\'s label schema' },
  { name: 'an item whose text changed in the project', project: projectFactsFixture, text: edit0((r) => (r.item_text_sha256 = '3'.repeat(64))), expected: [['rule', 1, 'item_text_sha256']], fragment: 'different text' },
  { name: 'an item whose context changed in the project', project: projectFactsFixture, text: edit0((r) => (r.item_context_sha256 = '4'.repeat(64))), expected: [['rule', 1, 'item_context_sha256']], fragment: 'different context' },
  { name: 'another project', project: projectFactsFixture, text: edit0((r) => (r.project = 'other')), expected: [['rule', 1, 'project']], fragment: 'is not this project' },
  // CSV exports
  { name: 'a CSV header without the transcript column', format: 'csv', text: csv.replace(',transcript,', ',words,'), expected: [['schema', 1, 'transcript'], ['schema', 1, 'words']], fragment: 'no column "transcript"' },
  { name: 'a CSV cell with invalid JSON', format: 'csv', text: csv.replace('"[{""label"":', '"[{""label"" '), expected: [['parse', 2, 'commitments']], fragment: 'cell is not valid JSON' },
  { name: 'a ragged CSV row', format: 'csv', text: `${csv}1,extra\r\n`, expected: [['parse', 4, null]], fragment: 'the header has 20' },
  { name: 'a CSV schema_version that is not a number', format: 'csv', text: csv.replace(/\r\n1,/, '\r\none,'), expected: [['schema', 2, 'schema_version']], fragment: 'must be 1' },
  // JSON exports
  { name: 'a JSON export that is an object', format: 'json', text: '{"records": []}', expected: [['schema', 1, null]], fragment: 'one JSON array of export records' },
  { name: 'a wrong type deep in a JSON export, located by line', format: 'json', text: prettyJson.replace('"final_label": null', '"final_label": 5'), expected: [['schema', lineOfNth(prettyJson, '"final_label"', 1), '[1].final_label']], fragment: 'must be string or null, not number' },
];

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

  it('reads CSV back to the same records (nested columns as JSON, empty nullable cells as null)', () => {
    expect(validateExportText(csv, 'e.csv', 'csv', null).records).toEqual(validRecords());
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
    const text = `${jsonl(rs)}{"broken": \n${JSON.stringify({ ...rs[0], schema_version: 3 })}\n`;
    const { problems } = validateExportText(text, 'e.jsonl', 'jsonl', null);
    expect(problems.map((p) => [p.stage, p.line, p.field])).toEqual([
      ['parse', 3, 'broken'],
      ['schema', 4, 'schema_version'],
      ['rule', 2, 'label_source'],
    ]);
  });
});

export type { ExportRecordV1 };
