import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import type { InputProblem } from '../io/inputProblem';
import { parseStrictJson } from '../io/strictJson';
import { escapeCsvFormula, formatCsv, parseCsv, unescapeCsvFormula } from '../io/csv';
import { schemaProblems } from '../io/schemaProblems';
import { ADJUDICATION_CONFIDENCES, type DecisionShown } from './adjudicationEvents';
import { GOLD_SOURCES, type AdjudicationQueue, type GoldSource } from './adjudicationQueue';
import { decisionOpening } from './adjudicationFold';

export const GOLD_SCHEMA_VERSION = 2;
export type GoldFormat = 'jsonl' | 'json' | 'csv';
export const GOLD_FORMATS: readonly GoldFormat[] = ['jsonl', 'json', 'csv'];

/** The recording of a spoken rationale, as the gold record names it: the file inside the project and who transcribed it. */
export interface RationaleAudio {
  /** relative to the project folder */
  file: string;
  sha256: string;
  audio_ms: number;
  model: { name: string; sha256: string };
}

/** A label model's gold label for an item nobody adjudicated: the model, its probability of the label, the interval. */
export interface ModelGold {
  label: string;
  model: string;
  probability: number;
  ci95: [number, number];
}

/** One item's gold label, where it comes from, and the evidence: the annotators' labels and the decision that stands. */
export interface GoldRecord {
  schema_version: 2;
  project: string;
  item_id: string;
  gold_label: string | null;
  gold_source: GoldSource;
  /** pairwise agreement of the final labels; null with fewer than two */
  agreement: number | null;
  /** every annotator with a counted (completed) label, by name */
  annotators: Array<{ annotator: string; final_label: string | null; blind_label: string | null }>;
  adjudication:
    | (DecisionShown & {
        /** the spoken rationale's recording; null when typed or absent */
        rationale_audio: RationaleAudio | null;
        adopted: string[];
        /** decisions on the item before this one (revised), oldest first */
        revisions: number;
      })
    | null;
  /** gold_source "model": the label model behind the gold label; null otherwise */
  label_model: Omit<ModelGold, 'label'> | null;
}

const nullableString = { type: ['string', 'null'] } as const;
const interval = { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number', minimum: 0, maximum: 1 } } as const;

const adjudicationV1Properties = {
  adjudicator: { type: 'string', minLength: 1 },
  label: { type: 'string', minLength: 1 },
  confidence: { enum: [...ADJUDICATION_CONFIDENCES] },
  causes: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
  rationale: nullableString,
  guideline_flag: nullableString,
  adopted: { type: 'array', items: { type: 'string', minLength: 1 } },
  decided_at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' },
  room: nullableString,
  revisions: { type: 'integer', minimum: 0 },
} as const;

const recordV1Properties = {
  project: { type: 'string', minLength: 1 },
  item_id: { type: 'string', minLength: 1 },
  gold_label: nullableString,
  gold_source: { enum: [...GOLD_SOURCES] },
  agreement: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  annotators: {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['annotator', 'final_label', 'blind_label'],
      properties: { annotator: { type: 'string', minLength: 1 }, final_label: nullableString, blind_label: nullableString },
    },
  },
} as const;

/** JSON Schema (Draft 2020-12) of a gold record of schema_version 1 (exports before spoken rationales and model gold). */
export const goldRecordJsonSchemaV1 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/gold-record.v1.json',
  title: 'Aloud gold label record, schema_version 1',
  type: 'object',
  additionalProperties: false,
  required: ['schema_version', 'project', 'item_id', 'gold_label', 'gold_source', 'agreement', 'annotators', 'adjudication'],
  properties: {
    schema_version: { const: 1 },
    ...recordV1Properties,
    adjudication: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: Object.keys(adjudicationV1Properties),
          properties: adjudicationV1Properties,
        },
      ],
    },
  },
} as const;

const adjudicationProperties = {
  ...adjudicationV1Properties,
  rationale_kind: { enum: ['typed', 'spoken', null] },
  rationale_audio: {
    oneOf: [
      { type: 'null' },
      {
        type: 'object',
        additionalProperties: false,
        required: ['file', 'sha256', 'audio_ms', 'model'],
        properties: {
          file: { type: 'string', minLength: 1 },
          sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          audio_ms: { type: 'number', minimum: 0 },
          model: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'sha256'],
            properties: { name: { type: 'string', minLength: 1 }, sha256: { type: 'string' } },
          },
        },
      },
    ],
  },
} as const;

/** JSON Schema (Draft 2020-12) of a gold record (schema_version 2: spoken rationales, gold from a label model). */
export const goldRecordJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/gold-record.v2.json',
  title: 'Aloud gold label record, schema_version 2',
  type: 'object',
  additionalProperties: false,
  required: ['schema_version', 'project', 'item_id', 'gold_label', 'gold_source', 'agreement', 'annotators', 'adjudication', 'label_model'],
  properties: {
    schema_version: { const: 2 },
    ...recordV1Properties,
    adjudication: {
      oneOf: [
        { type: 'null' },
        { type: 'object', additionalProperties: false, required: Object.keys(adjudicationProperties), properties: adjudicationProperties },
      ],
    },
    label_model: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['model', 'probability', 'ci95'],
          properties: { model: { type: 'string', minLength: 1 }, probability: { type: 'number', minimum: 0, maximum: 1 }, ci95: interval },
        },
      ],
    },
  },
} as const;

const validateGold = compileOnFirstUse(() => sharedAjv({ allErrors: true, strict: true }).compile(goldRecordJsonSchema));
const validateGoldV1 = compileOnFirstUse(() => sharedAjv({ allErrors: true, strict: true }).compile(goldRecordJsonSchemaV1));

/**
 * One gold record per item of the queue, in the project's item order. `modelLabels` (item → a label model's label) gives
 * unresolved items a gold label (gold_source "model"); without it they stay unresolved. Agreed and adjudicated items
 * keep their source.
 */
export function goldRecords(project: string, queue: AdjudicationQueue, modelLabels?: ReadonlyMap<string, ModelGold>): GoldRecord[] {
  return [...queue.items.values()].map((s) => {
    const blind = new Map(s.blind_labels.map((l) => [l.annotator, l.label]));
    const finals = new Map(s.labels.map((l) => [l.annotator, l.label]));
    const names = [...new Set([...finals.keys(), ...blind.keys()])].sort();
    const model = s.gold_source === 'unresolved' ? (modelLabels?.get(s.item_id) ?? null) : null;
    const d = s.decision;
    return {
      schema_version: 2,
      project,
      item_id: s.item_id,
      gold_label: model?.label ?? s.gold_label,
      gold_source: model !== null ? 'model' : s.gold_source,
      agreement: s.agreement,
      annotators: names.map((annotator) => ({
        annotator,
        final_label: finals.get(annotator) ?? null,
        blind_label: blind.get(annotator) ?? null,
      })),
      adjudication: d
        ? {
            ...decisionOpening(d),
            rationale_audio:
              d.rationale?.kind === 'spoken'
                ? {
                    file: d.rationale.audio,
                    sha256: d.rationale.audio_sha256,
                    audio_ms: d.rationale.audio_ms,
                    model: { ...d.rationale.model },
                  }
                : null,
            guideline_flag: d.guideline_flag,
            adopted: [...d.adopted],
            decided_at: d.decided_at,
            room: d.room,
            revisions: s.revisions,
          }
        : null,
      label_model: model ? { model: model.model, probability: model.probability, ci95: [model.ci95[0], model.ci95[1]] } : null,
    };
  });
}

export const GOLD_CSV_COLUMNS = [
  'schema_version',
  'project',
  'item_id',
  'gold_label',
  'gold_source',
  'agreement',
  'annotators',
  'adjudication',
  'label_model',
] as const;

/** The file's text: JSON Lines, a JSON array, or CSV whose two structured columns hold JSON (formula-escaped). */
export function formatGoldFile(records: readonly GoldRecord[], format: GoldFormat): string {
  if (format === 'jsonl') return records.map((r) => `${JSON.stringify(r)}\n`).join('');
  if (format === 'json') return `${JSON.stringify(records, null, 2)}\n`;
  return formatCsv(
    GOLD_CSV_COLUMNS,
    records.map((r) => [
      String(r.schema_version),
      escapeCsvFormula(r.project),
      escapeCsvFormula(r.item_id),
      escapeCsvFormula(r.gold_label ?? ''),
      r.gold_source,
      r.agreement === null ? '' : String(r.agreement),
      JSON.stringify(r.annotators),
      JSON.stringify(r.adjudication),
      JSON.stringify(r.label_model),
    ]),
  );
}

export interface GoldCounts {
  unanimous: number;
  majority: number;
  adjudicated: number;
  model: number;
  unresolved: number;
}

export function goldCounts(records: readonly Pick<GoldRecord, 'gold_source'>[]): GoldCounts {
  const counts: GoldCounts = { unanimous: 0, majority: 0, adjudicated: 0, model: 0, unresolved: 0 };
  for (const r of records) counts[r.gold_source]++;
  return counts;
}

/** A gold record as schema_version 1 wrote it. */
type GoldRecordV1 = Omit<GoldRecord, 'schema_version' | 'adjudication' | 'label_model'> & {
  schema_version: 1;
  adjudication: Omit<NonNullable<GoldRecord['adjudication']>, 'rationale_kind' | 'rationale_audio'> | null;
};

/** A v1 record read as v2: its rationales were typed (v1 had no other), no record came from a label model. */
function goldRecordFromV1(record: GoldRecordV1): GoldRecord {
  const a = record.adjudication;
  return {
    ...record,
    schema_version: 2,
    adjudication: a ? { ...a, rationale_kind: a.rationale === null ? null : 'typed', rationale_audio: null } : null,
    label_model: null,
  };
}

/** Rules beyond the schema: one record per item, the gold label where the source says there is one, the decision's label. */
function goldRuleProblems(
  record: GoldRecord,
  file: string,
  line: number | null,
  seen: Set<string>,
  labels?: ReadonlySet<string>,
): InputProblem[] {
  const problems: InputProblem[] = [];
  const at = (field: string | null, message: string) => problems.push({ file, line, field, stage: 'rule', message });
  if (seen.has(record.item_id)) at('item_id', `item "${record.item_id}" has a second record`);
  seen.add(record.item_id);
  if ((record.gold_source === 'unresolved') !== (record.gold_label === null))
    at(
      'gold_label',
      record.gold_source === 'unresolved' ? 'an unresolved item has no gold label' : `a ${record.gold_source} item has a gold label`,
    );
  if ((record.gold_source === 'adjudicated') !== (record.adjudication !== null))
    at(
      'adjudication',
      record.gold_source === 'adjudicated' ? 'an adjudicated item names its decision' : `a ${record.gold_source} item has no decision`,
    );
  if (record.adjudication && record.adjudication.label !== record.gold_label)
    at('adjudication.label', `the decision's label "${record.adjudication.label}" is not the gold label "${record.gold_label}"`);
  if (labels && record.gold_label !== null && !labels.has(record.gold_label))
    at('gold_label', `"${record.gold_label}" is not a label of the project's schema`);
  if ((record.gold_source === 'model') !== (record.label_model !== null))
    at(
      'label_model',
      record.gold_source === 'model' ? 'a model item names its label model' : `a ${record.gold_source} item has no label model`,
    );
  const a = record.adjudication;
  if (a && (a.rationale_kind === 'spoken') !== (a.rationale_audio !== null))
    at(
      'adjudication.rationale_audio',
      a.rationale_kind === 'spoken' ? 'a spoken rationale names its recording' : 'only a spoken rationale has a recording',
    );
  if (a && (a.rationale_kind === null) !== (a.rationale === null))
    at(
      'adjudication.rationale_kind',
      a.rationale === null ? 'no rationale has no kind' : 'a rationale says whether it was typed or spoken',
    );
  return problems;
}

/** Every record of a gold file's text, checked through parse, schema and rules; `labels` adds the schema's labels. */
export function readGoldFile(
  text: string,
  format: GoldFormat,
  file: string,
  labels?: ReadonlySet<string>,
): { records: GoldRecord[]; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const records: GoldRecord[] = [];
  const seen = new Set<string>();
  const take = (value: unknown, line: number | null) => {
    // an export made before schema_version 2 is checked against its own schema, then read as a v2 record
    const v1 = (value as { schema_version?: unknown } | null)?.schema_version === 1;
    const validate = v1 ? validateGoldV1 : validateGold;
    if (!validate(value)) {
      problems.push(...schemaProblems(validate.errors, file, { value, line: line ?? 1, pointer: '', locate: () => line ?? 1 }));
      return;
    }
    const record = v1 ? goldRecordFromV1(value as unknown as GoldRecordV1) : (value as unknown as GoldRecord);
    problems.push(...goldRuleProblems(record, file, line, seen, labels));
    records.push(record);
  };
  const parse = (raw: string, line: number | null): unknown => {
    try {
      return parseStrictJson(raw).value;
    } catch (e) {
      problems.push({ file, line, field: null, stage: 'parse', message: (e as Error).message.split('\n')[0]! });
      return undefined;
    }
  };
  if (format === 'jsonl') {
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      const value = parse(raw, i + 1);
      if (value !== undefined) take(value, i + 1);
    });
  } else if (format === 'json') {
    const value = parse(text, null);
    if (value !== undefined) {
      if (!Array.isArray(value))
        problems.push({ file, line: null, field: null, stage: 'schema', message: 'a gold .json file is an array of records' });
      else value.forEach((v) => take(v, null));
    }
  } else {
    const table = parseCsv(text, file, { rawControls: 'allow' });
    const v1Header = GOLD_CSV_COLUMNS.slice(0, -1).join(',');
    if (table.header.join(',') !== GOLD_CSV_COLUMNS.join(',') && table.header.join(',') !== v1Header) {
      problems.push({
        file,
        line: table.headerLine,
        field: null,
        stage: 'schema',
        message: `the header is not ${GOLD_CSV_COLUMNS.join(',')}`,
      });
      return { records, problems };
    }
    for (const row of table.rows) {
      const [version, project, itemId, gold, source, agreement, annotators, adjudication, labelModel] = row.fields as [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string | undefined,
      ];
      take(
        {
          schema_version: Number(version),
          project: unescapeCsvFormula(project),
          item_id: unescapeCsvFormula(itemId),
          gold_label: gold === '' ? null : unescapeCsvFormula(gold),
          gold_source: source,
          agreement: agreement === '' ? null : Number(agreement),
          annotators: parse(annotators, row.line),
          adjudication: parse(adjudication, row.line),
          ...(labelModel === undefined ? {} : { label_model: parse(labelModel, row.line) }),
        },
        row.line,
      );
    }
  }
  return { records, problems };
}

/** FILE.receipt.json of a gold export: written after the file, what it holds and how to check it. */
export interface GoldReceipt {
  receipt_version: 1;
  kind: 'gold';
  schema_version: 1 | 2;
  file: string;
  format: GoldFormat;
  sha256: string;
  bytes: number;
  records: number;
  project: string;
  counts: GoldCounts;
  /** the aloud.yaml adjudication settings the sources were derived under */
  adjudication: { threshold: number; min_annotators: number; accept_unanimous: boolean };
  /** the label model that filled unresolved items (gold_source "model"), with its bootstrap; null: none asked */
  gold_model?: { model: string; resamples: number; seed: number } | null;
  config_sha256: string;
  app_version: string;
  created_at: string;
}

/** A gold receipt's problems against the file it sits beside (name, bytes, sha256, and the records' count and sources). */
export function goldReceiptProblems(
  text: string,
  receiptFile: string,
  facts: { fileName: string; sha256: string; bytes: number; records: readonly GoldRecord[] | null },
): InputProblem[] {
  const problems: InputProblem[] = [];
  let receipt: Partial<GoldReceipt>;
  try {
    receipt = parseStrictJson(text).value as Partial<GoldReceipt>;
  } catch (e) {
    return [{ file: receiptFile, line: null, field: null, stage: 'parse', message: (e as Error).message.split('\n')[0]! }];
  }
  const at = (field: string, message: string) => problems.push({ file: receiptFile, line: null, field, stage: 'rule', message });
  if (typeof receipt !== 'object' || receipt === null || receipt.kind !== 'gold' || receipt.receipt_version !== 1)
    return [
      {
        file: receiptFile,
        line: null,
        field: 'kind',
        stage: 'schema',
        message: 'not a gold export receipt (kind "gold", receipt_version 1)',
      },
    ];
  if (receipt.file !== facts.fileName) at('file', `names "${String(receipt.file)}", not ${facts.fileName}`);
  if (receipt.sha256 !== facts.sha256) at('sha256', 'does not match the file (changed since it was exported)');
  if (receipt.bytes !== facts.bytes) at('bytes', `says ${String(receipt.bytes)}, the file has ${facts.bytes}`);
  if (facts.records !== null) {
    if (receipt.records !== facts.records.length) at('records', `says ${String(receipt.records)}, the file has ${facts.records.length}`);
    if (JSON.stringify(receipt.counts) !== JSON.stringify(goldCounts(facts.records)))
      at('counts', `says ${JSON.stringify(receipt.counts)}, the file has ${JSON.stringify(goldCounts(facts.records))}`);
  }
  return problems;
}
