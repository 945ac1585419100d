import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import {
  CODE_ACT_SOURCES,
  LABEL_SOURCES,
  RECORDING_STOP_REASONS,
  SESSION_EVENT_TYPES,
  SESSION_KINDS,
  type SessionEventType,
} from './sessionEvents';
import { REASONING_REVEALS } from '../reasoning/reasoningConfig';
import { STEP_JUDGMENT_SOURCES } from '../reasoning/stepJudgments';

const itemId = { type: 'string', minLength: 1 } as const;
const count = { type: 'integer', minimum: 0 } as const;
const text = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const nullableCount = { type: ['integer', 'null'], minimum: 0 } as const;

function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

const segment = {
  type: 'object',
  additionalProperties: false,
  required: ['t0_ms', 't1_ms', 'text'],
  properties: {
    t0_ms: { type: 'number', minimum: 0 },
    t1_ms: { type: 'number', minimum: 0 },
    text,
    tokens: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['t0_ms', 't1_ms', 'text'],
        properties: { t0_ms: { type: 'number' }, t1_ms: { type: 'number' }, text, p: { type: 'number' } },
      },
    },
  },
} as const;

const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const nullableSha256 = { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' } as const;
const nullableMs = { type: ['number', 'null'], minimum: 0 } as const;
const labelName = { type: 'string', minLength: 1 } as const;
const diagnostics = {
  type: 'array',
  items: object({
    kind: { enum: ['negated', 'ambiguous', 'unknown_label'] },
    quote: text,
    start: count,
    end: count,
    stem: text,
    message: text,
  }),
} as const;
const voiceCommitment = object({
  label: labelName,
  quote: text,
  start: count,
  end: count,
  stem: text,
  audio_ms: nullableMs,
  utterance: nullableCount,
});

const name = { type: 'string', minLength: 1 } as const;
const unitId = { type: 'string', pattern: '^u(0|[1-9][0-9]{0,8})(\\.s(0|[1-9][0-9]{0,5}))?$' } as const;
const codeAct = object({
  annotator: name,
  item_id: itemId,
  unit: unitId,
  unit_text: text,
  unit_t0_ms: { type: 'number', minimum: 0 },
  unit_t1_ms: { type: 'number', minimum: 0 },
  code: name,
  coder: name,
  codebook_version: text,
  source: { enum: [...CODE_ACT_SOURCES] },
  after_finished: { type: 'boolean' },
  undo_of: { type: ['integer', 'null'], minimum: 1 },
});
const modelIdentity = object({ name: { type: 'string', minLength: 1 }, sha256: { type: 'string', minLength: 1 } });
const nullableModelIdentity = { oneOf: [{ type: 'null' }, modelIdentity] } as const;
const reviewer = { type: ['string', 'null'], minLength: 1 } as const;

const pauseStats = object({
  count,
  total_ms: { type: 'number', minimum: 0 },
  longest_ms: { type: 'number', minimum: 0 },
  long_count: count,
});

/** JSON Schema of each event type's data at its current version (older versions are upcast before validation). */
export const sessionEventDataSchemas: { readonly [T in SessionEventType]: Record<string, unknown> } = {
  session_started: object({
    annotator: { type: 'string', minLength: 1 },
    project_name: text,
    sample_rate: { type: 'integer', minimum: 1 },
    config_sha256: nullableSha256,
    parser_version: nullableString,
    parser_inputs_sha256: nullableSha256,
    kind: { enum: [...SESSION_KINDS, null] },
    room: { oneOf: [{ type: 'null' }, object({ code: { type: 'string', minLength: 1 }, member_id: { type: 'string', minLength: 1 } })] },
  }),
  session_resumed: object({
    pid: count,
    host: text,
    config_sha256: nullableSha256,
    parser_version: nullableString,
    reviewer,
    parser_inputs_sha256: nullableSha256,
  }),
  item_opened: object({ item_id: itemId, text_sha256: nullableSha256 }),
  recording_started: object({
    item_id: itemId,
    audio_path: { type: 'string', minLength: 1 },
    offset_samples: count,
    device: nullableString,
  }),
  audio_appended: object({ item_id: itemId, offset_samples: count, samples: count }),
  recording_stopped: object({
    item_id: itemId,
    total_samples: count,
    reason: { enum: [...RECORDING_STOP_REASONS] },
    error: nullableString,
  }),
  audio_recovered: object({ item_id: itemId, samples_logged: count, samples_total: count, header_repaired: { type: 'boolean' } }),
  utterance_transcribed: object({
    item_id: itemId,
    utterance: count,
    request_id: text,
    start_sample: count,
    end_sample: count,
    segments: { type: 'array', items: segment },
    model: object({ name: text, sha256: text, whisper_cpp: nullableString, vad: nullableModelIdentity }),
  }),
  label_committed: object({
    item_id: itemId,
    label: { type: 'string', minLength: 1 },
    source: { enum: [...LABEL_SOURCES] },
    quote: nullableString,
    start: nullableCount,
    end: nullableCount,
    stem: nullableString,
    audio_ms: nullableMs,
    utterance: nullableCount,
    parser_version: nullableString,
    reviewer,
  }),
  label_changed: object({
    item_id: itemId,
    from: text,
    to: text,
    source: { enum: [...LABEL_SOURCES] },
    after_completion: { type: 'boolean' },
    reviewer,
  }),
  item_completed: object({ item_id: itemId }),
  stale_result: object({ item_id: itemId, request_id: text, reason: text }),
  signals_computed: object({
    item_id: itemId,
    audio_samples: count,
    audio: object({
      silent_chunks: count,
      total_chunks: count,
      pauses: pauseStats,
      time_to_first_speech_ms: { type: ['number', 'null'], minimum: 0 },
    }),
    vad: {
      oneOf: [
        { type: 'null' },
        object({
          vad_speech_ms: { type: 'number', minimum: 0 },
          vad_pauses: pauseStats,
          vad_time_to_first_speech_ms: { type: ['number', 'null'], minimum: 0 },
          vad_window_ms: { type: 'number', exclusiveMinimum: 0 },
        }),
      ],
    },
    vad_model: nullableModelIdentity,
    takes: { oneOf: [{ type: 'null' }, { type: 'array', items: count, minItems: 1 }] },
  }),
  log_repaired: object({ torn_line: { type: 'integer', minimum: 1 }, torn_bytes: count, torn_file: text }),
  note: object({ item_id: { type: ['string', 'null'], minLength: 1 }, text }),
  reasoning_shown: object({
    item_id: itemId,
    steps: { type: 'array', items: text },
    model_label: nullableString,
    split: { enum: ['numbered', 'paragraphs', 'sentences', 'lines', 'none', 'given'] },
    reveal: { enum: [...REASONING_REVEALS] },
    audio_samples: count,
  }),
  step_judged: object({
    item_id: itemId,
    index: { type: 'integer', minimum: 1 },
    reward: { enum: [1, 0, -1, null] },
    source: { enum: [...STEP_JUDGMENT_SOURCES] },
    kind: { enum: ['step', 'first_error'] },
    quote: nullableString,
    start: nullableCount,
    end: nullableCount,
    utterance: nullableCount,
    audio_ms: { type: ['number', 'null'], minimum: 0 },
  }),
  transcript_parsed: object({ item_id: itemId, parser_version: text, config_sha256: nullableSha256, diagnostics }),
  transcript_corrected: object({
    item_id: itemId,
    utterance: count,
    segment: count,
    original_sha256: sha256,
    text,
    annotator: { type: 'string', minLength: 1 },
    reviewer,
  }),
  transcripts_superseded: object({ item_id: itemId, utterances: { type: 'array', items: count, minItems: 1 }, reason: text }),
  labels_rederived: object({
    item_id: itemId,
    config_sha256: nullableSha256,
    parser_version: text,
    parser_inputs_sha256: nullableSha256,
    from_final: nullableString,
    to_final: nullableString,
    commitments: { type: 'array', items: voiceCommitment },
    diagnostics,
  }),
  cue_shown: object({ item_id: itemId, cue: { enum: ['keep_talking'] }, silence_ms: count, audio_ms: count }),
  code_applied: codeAct,
  code_removed: codeAct,
  coding_memo: object({ annotator: name, item_id: itemId, unit: unitId, code: name, coder: name, text, codebook_version: text }),
  code_proposed: object({
    annotator: name,
    item_id: itemId,
    unit: unitId,
    name: { type: 'string', minLength: 1, maxLength: 200 },
    quote: text,
    coder: name,
  }),
  coding_finished: object({
    annotator: name,
    item_id: itemId,
    coder: name,
    units: { type: 'array', items: unitId, uniqueItems: true },
    codebook_version: text,
  }),
  codings_revealed: object({ as: { type: 'string', enum: ['lead'] } }),
  // null clears the selection; the object rules apply only to an object
  text_selected: object({
    item_id: itemId,
    span: { ...object({ start: count, end: count, quote: { type: 'string', minLength: 1 } }), type: ['object', 'null'] },
  }),
  // a playback longer than a day is no playback (a clock that jumped)
  audio_played: object({
    item_id: itemId,
    audio_from_ms: { type: 'number', minimum: 0 },
    audio_to_ms: { type: 'number', minimum: 0 },
    played_ms: { type: 'number', minimum: 0, maximum: 86_400_000 },
  }),
};

const ajv = sharedAjv({ allErrors: false, strict: true, allowUnionTypes: true });
const validators = new Map<SessionEventType, ValidateFunction>(
  SESSION_EVENT_TYPES.map((type) => [type, compileOnFirstUse(() => ajv.compile(sessionEventDataSchemas[type]))]),
);

function describe(e: ErrorObject): string {
  const where = `data${e.instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`;
  if (e.keyword === 'additionalProperties') {
    return `${where}: unknown field "${String((e.params as { additionalProperty: string }).additionalProperty)}"`;
  }
  if (e.keyword === 'required') return `${where}: missing field "${String((e.params as { missingProperty: string }).missingProperty)}"`;
  if (e.keyword === 'enum') return `${where} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  return `${where} ${e.message ?? 'is invalid'}`;
}

/** Null when the data fits the current version's schema, else what is wrong with it (naming the field). */
export function checkEventData(type: SessionEventType, data: unknown): string | null {
  const validate = validators.get(type)!;
  if (validate(data)) return null;
  const first = validate.errors?.[0];
  return first ? describe(first) : 'data is invalid';
}
