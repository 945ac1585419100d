import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  buildExportRecord,
  describeExportGaps,
  EXPORT_FIELDS,
  EXPORT_FIELDS_V2,
  EXPORT_FIELDS_V3,
  EXPORT_FIELDS_V4,
  EXPORT_FIELDS_V5,
  EXPORT_OPTIONAL_FIELDS_V2,
  EXPORT_OPTIONAL_FIELDS_V3,
  EXPORT_OPTIONAL_FIELDS_V4,
  EXPORT_OPTIONAL_FIELDS_V5,
  exportGaps,
  exportRecordJsonSchema,
  exportRecordJsonSchemas,
  upcastExportRecordV4,
  type ExportRecordV4,
} from '../../../../core/common/export/exportRecord';
import { labelledState, SHA_AUDIO, validRecords } from './exportFixtures';

const schemaFile = (v: number) =>
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), `../../../../core/common/export/exportRecord.v${v}.schema.json`);

describe('export record v5 (v1, v2, v3 and v4 still read)', () => {
  it.each([
    [1, EXPORT_FIELDS as readonly string[], [] as readonly string[]],
    [2, EXPORT_FIELDS_V2 as readonly string[], EXPORT_OPTIONAL_FIELDS_V2 as readonly string[]],
    [3, EXPORT_FIELDS_V3 as readonly string[], EXPORT_OPTIONAL_FIELDS_V3 as readonly string[]],
    [4, EXPORT_FIELDS_V4 as readonly string[], EXPORT_OPTIONAL_FIELDS_V4 as readonly string[]],
    [5, EXPORT_FIELDS_V5 as readonly string[], EXPORT_OPTIONAL_FIELDS_V5 as readonly string[]],
  ])(
    'v%i is a Draft 2020-12 schema in the repo with its schema_version and no additional properties at any level',
    (version, fields, optional) => {
      const schema = JSON.parse(readFileSync(schemaFile(version), 'utf8')) as Record<string, unknown>;
      expect(schema).toEqual(exportRecordJsonSchemas[version]);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect((schema.properties as Record<string, unknown>).schema_version).toEqual({ const: version });
      expect(Object.keys(schema.properties as object)).toEqual([...fields]);
      // fields added to a version later are not required, so files written before them still validate
      expect(schema.required).toEqual(fields.filter((f) => !optional.includes(f)));
      const objectsWithoutClosedKeys: string[] = [];
      const walk = (node: unknown, where: string): void => {
        if (node === null || typeof node !== 'object') return;
        const n = node as Record<string, unknown>;
        const types = ([] as unknown[]).concat(n.type ?? []);
        if (types.includes('object') && n.properties && n.additionalProperties !== false) objectsWithoutClosedKeys.push(where);
        for (const [k, v] of Object.entries(n)) walk(v, `${where}/${k}`);
      };
      walk(schema, '');
      expect(objectsWithoutClosedKeys).toEqual([]);
    },
  );

  it('maps a folded state field by field, keeping the transcript verbatim', () => {
    const [record] = validRecords();
    const state = labelledState('item-1');
    expect(record).toMatchObject({
      schema_version: 5,
      session_kind: 'annotator',
      item_id: 'item-1',
      final_label: 'Polite',
      label_source: 'voice',
      blind_label: 'Polite',
      transcript: state.transcript,
      audio: { path: 'sessions/ann/audio/item-1.wav', sha256: SHA_AUDIO, duration_ms: 5000 },
      model: state.model,
      started_at: state.started_at,
      completed_at: state.completed_at,
    });
    expect(record!.commitments[0]!.quote).toBe(state.transcript.slice(record!.commitments[0]!.start, record!.commitments[0]!.end));
    expect(record).toMatchObject({
      label_history: state.label_history.map((a) => ({ ...a, reviewer: null })),
      notes: [{ text: 'sarcastic?', at: '2026-01-02T10:00:08.000Z' }],
      parser_version: 'aloud-commit-parser/1',
      config_changed: false,
      model: { name: 'tiny.en', whisper_cpp: '1.9.1' },
    });
    expect(record!.segments.map((s) => [s.utterance, s.index])).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(Object.keys(record!)).toEqual([...EXPORT_FIELDS_V5]);
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(exportRecordJsonSchema);
    for (const r of validRecords()) expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
  });

  it('copies only known fields, so extra fields the fold may add never leak into the contract', () => {
    const state = { ...labelledState('x'), manual_labels: [], parse_diagnostics: [], extra: 1 } as ReturnType<typeof labelledState>;
    state.segments = [{ t0_ms: 0, t1_ms: 1, text: 'a', confidence: 0.5 } as never];
    const record = buildExportRecord({
      project: 'p',
      annotator: 'a',
      item: { id: 'x', text: 't' },
      itemTextSha256: '0'.repeat(64),
      itemContextSha256: null,
      state,
      notes: [],
      audioSha256: null,
      appVersion: '1',
      configSha256: '0'.repeat(64),
      exportedAt: '2026-01-01T00:00:00Z',
    });
    expect(record.segments).toEqual([{ utterance: 0, index: 0, t0_ms: 0, t1_ms: 1, text: 'a' }]);
    expect(Object.keys(record)).toEqual([...EXPORT_FIELDS_V5]);
  });

  it("methods metadata: completed, the time on the item, the VAD model, and whose act each one is (a reviewer's never the annotator's own)", () => {
    const state = {
      ...labelledState('x'),
      first_completed_at: '2026-01-02T10:00:09.500Z',
      time_to_complete_ms: 9500,
      time_open_ms: 12000,
      time_on_item_active_ms: 7250,
      time_on_item_wall_ms: 11000,
      time_on_item_idle_gap_ms: 120_000,
      vad_model: { name: 'silero-v6.2.0', sha256: 'e'.repeat(64) },
    };
    state.label_history = [
      ...state.label_history,
      {
        label: 'Neutral',
        source: 'correction',
        at: '2026-01-02T10:01:00.000Z',
        audio_ms: null,
        quote: 'I label this neutral',
        reviewer: 'lead',
      },
    ];
    state.final_label = 'Neutral';
    state.label_source = 'correction';
    state.corrections = [
      {
        utterance: 1,
        segment: 0,
        original_text: ' I label this polite.',
        text: ' I label this neutral.',
        annotator: 'ann',
        reviewer: 'lead',
        at: '2026-01-02T10:00:59.000Z',
      },
    ];
    const record = buildExportRecord({
      project: 'p',
      annotator: 'ann',
      sessionKind: 'annotator',
      item: { id: 'x', text: 't' },
      itemTextSha256: '0'.repeat(64),
      itemContextSha256: null,
      state,
      notes: [],
      audioSha256: null,
      appVersion: '1',
      configSha256: '0'.repeat(64),
      exportedAt: '2026-01-03T00:00:00Z',
    });
    expect(record).toMatchObject({
      final_label: 'Neutral',
      own_final_label: 'Polite',
      completed: true,
      first_completed_at: '2026-01-02T10:00:09.500Z',
      time_to_complete_ms: 9500,
      time_open_ms: 12000,
      time_on_item_active_ms: 7250,
      time_on_item_wall_ms: 11000,
      time_on_item_idle_gap_ms: 120_000,
      vad_model: { name: 'silero-v6.2.0', sha256: 'e'.repeat(64) },
    });
    expect(record.label_history.map((a) => a.reviewer)).toEqual([null, 'lead']);
    expect(record.corrections[0]).toMatchObject({ annotator: 'ann', reviewer: 'lead' });
    const never = buildExportRecord({
      project: 'p',
      annotator: 'ann',
      item: { id: 'y', text: 't' },
      itemTextSha256: '0'.repeat(64),
      itemContextSha256: null,
      state: null,
      notes: [],
      audioSha256: null,
      appVersion: '1',
      configSha256: '0'.repeat(64),
      exportedAt: '2026-01-03T00:00:00Z',
    });
    expect(never).toMatchObject({
      completed: false,
      own_final_label: null,
      time_open_ms: null,
      time_to_complete_ms: null,
      vad_model: null,
      session_kind: 'annotator',
    });
  });

  it('leaves unknown values null and lists items without audio, transcript or label as gaps', () => {
    const [, never] = validRecords();
    expect(never).toMatchObject({
      final_label: null,
      label_source: null,
      blind_label: null,
      transcript: null,
      signals: null,
      audio: null,
      model: null,
      started_at: null,
      commitments: [],
      segments: [],
      label_history: [],
      notes: [],
    });
    expect(exportGaps(never!).map((g) => g.reason)).toEqual(['no_audio', 'no_transcript', 'no_label']);
    const partial = { ...labelledState('y'), signals: { silent_chunks: 3 } };
    const record = buildExportRecord({
      project: 'p',
      annotator: 'a',
      item: { id: 'y', text: 't' },
      itemTextSha256: '0'.repeat(64),
      itemContextSha256: null,
      state: partial,
      notes: [],
      audioSha256: null,
      appVersion: '1',
      configSha256: '0'.repeat(64),
      exportedAt: '2026-01-01T00:00:00Z',
    });
    expect(record.signals).toMatchObject({ silent_chunks: 3, total_chunks: null, pauses: null, word_count: null });
    expect(exportGaps(record).map((g) => g.reason)).toEqual(['audio_file_missing']);
  });

  it('says the gaps in words', () => {
    const gaps = validRecords().flatMap(exportGaps);
    expect(describeExportGaps(2, gaps)).toBe('2 records; 1 has no audio, 1 has no transcript, 1 has no label');
    expect(describeExportGaps(1, [])).toBe('1 record; nothing missing');
  });
});

describe('export record v5: active and wall time on item', () => {
  it('a v4 record read as v5 has no active or wall time (null, never guessed), its keys in v5 order, and validates as v5', () => {
    const v5 = validRecords()[0]!;
    const { time_on_item_active_ms: _a, time_on_item_wall_ms: _w, time_on_item_idle_gap_ms: _g, ...rest } = v5;
    const v4: ExportRecordV4 = { ...rest, schema_version: 4 };
    const validateV4 = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(exportRecordJsonSchemas[4]!);
    expect(validateV4(v4), JSON.stringify(validateV4.errors)).toBe(true);
    const upcast = upcastExportRecordV4(v4);
    expect(upcast).toMatchObject({
      schema_version: 5,
      time_on_item_active_ms: null,
      time_on_item_wall_ms: null,
      time_on_item_idle_gap_ms: null,
    });
    expect(Object.keys(upcast)).toEqual([...EXPORT_FIELDS_V5]);
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(exportRecordJsonSchema);
    expect(validate(upcast), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the v5 schema refuses a record without its active time, or with a negative one', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(exportRecordJsonSchema);
    const { time_on_item_active_ms: _a, ...without } = validRecords()[0]!;
    expect(validate(without)).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'time_on_item_active_ms' } });
    expect(validate({ ...validRecords()[0]!, time_on_item_wall_ms: -1 })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/time_on_item_wall_ms');
  });
});
