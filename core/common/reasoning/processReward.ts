/**
 * The process-reward export: one JSON Lines record per annotator per item with model reasoning, in the common
 * step-reward shape `{instance_id, annotator, mode, steps: [{index, reward}]}` (reward +1 / 0 / −1, null where the
 * step was not judged). Validated by its own JSON Schema and rules before it is written, like every export.
 */
import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { InputError, type InputProblem } from '../io/inputProblem';
import { JsonLinesStream, readJsonLines, type LocatedValue } from '../io/jsonInput';
import { schemaProblems } from '../io/schemaProblems';
import { checkReceipt, RecordsTally, type RecordsFileReceipt } from '../io/fileReceipt';
import type { StepReward } from '../parser/stepJudgment';
import { stepRewards, type ProcessRewardMode, type StepJudgmentRecord } from './stepJudgments';

export interface ProcessRewardRecord {
  /** the item id */
  instance_id: string;
  annotator: string;
  mode: ProcessRewardMode;
  steps: Array<{ index: number; reward: StepReward | null }>;
}

export const PROCESS_REWARD_FIELDS = ['instance_id', 'annotator', 'mode', 'steps'] as const;

export const processRewardRecordJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/process-reward.v1.json',
  title: 'Aloud process-reward record (one line of a process-reward export)',
  type: 'object',
  additionalProperties: false,
  required: [...PROCESS_REWARD_FIELDS],
  properties: {
    instance_id: { type: 'string', minLength: 1 },
    annotator: { type: 'string', minLength: 1 },
    mode: { enum: ['per_step', 'first_error'] },
    steps: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'reward'],
        properties: {
          index: { type: 'integer', minimum: 1 },
          reward: { enum: [1, 0, -1, null] },
        },
      },
    },
  },
} as const;

const ajv = sharedAjv({ allErrors: true, strict: true, allowUnionTypes: true });
const validateRecord = compileOnFirstUse(() => ajv.compile(processRewardRecordJsonSchema));

/** One annotator's record of one item: the rewards of its `stepCount` steps from the judgments in log order. */
export function buildProcessRewardRecord(args: {
  instanceId: string;
  annotator: string;
  stepCount: number;
  judgments: readonly StepJudgmentRecord[];
}): ProcessRewardRecord {
  const { mode, steps } = stepRewards(args.judgments, args.stepCount);
  return { instance_id: args.instanceId, annotator: args.annotator, mode, steps };
}

export function serializeProcessReward(records: readonly ProcessRewardRecord[]): string {
  return records
    .map(
      (r) =>
        `${JSON.stringify({ instance_id: r.instance_id, annotator: r.annotator, mode: r.mode, steps: r.steps.map((s) => ({ index: s.index, reward: s.reward })) })}\n`,
    )
    .join('');
}

/**
 * Parse, schema and rule stages on the text of a process-reward export. Rules: steps are numbered 1, 2, 3, … in
 * order; one record per annotator and instance; a first_error record has a −1 step and a reward for every step
 * before its first −1; with the project's item ids, every instance_id is one of them.
 */
export function validateProcessRewardText(
  text: string,
  file: string,
  projectItemIds?: ReadonlySet<string>,
): { records: ProcessRewardRecord[]; problems: InputProblem[] } {
  const records: ProcessRewardRecord[] = [];
  const check = new ProcessRewardCheck(file, projectItemIds, (r) => records.push(r));
  const lines = new JsonLinesStream(
    file,
    (r) => check.record(r),
    (p) => check.unreadable(p),
  );
  lines.push(text);
  lines.end();
  return { records, problems: check.finish().problems };
}

/** The counts of a process-reward receipt, kept as records go by. */
export class ProcessRewardTally extends RecordsTally {
  private judgedRecords = 0;
  private judgedSteps = 0;
  private firstErrorRecords = 0;

  add(record: ProcessRewardRecord): void {
    this.countRecord(record.annotator, record.instance_id);
    const judged = record.steps.filter((s) => s.reward !== null).length;
    if (judged > 0) this.judgedRecords++;
    this.judgedSteps += judged;
    if (record.mode === 'first_error') this.firstErrorRecords++;
  }

  counts(): ProcessRewardReceipt['counts'] {
    return {
      ...this.distinct(),
      judged_records: this.judgedRecords,
      judged_steps: this.judgedSteps,
      first_error_records: this.firstErrorRecords,
    };
  }
}

/**
 * The schema and rule stages of a process-reward export one record at a time (problems grouped by stage, each in
 * file order), with the receipt's counts of the records that passed the schema.
 */
export class ProcessRewardCheck {
  private readonly parseProblems: InputProblem[] = [];
  private readonly stageProblems: InputProblem[] = [];
  private readonly seen = new Map<string, number>();
  private parsed = 0;
  readonly tally = new ProcessRewardTally();

  constructor(
    private readonly file: string,
    private readonly projectItemIds?: ReadonlySet<string>,
    private readonly onRecord?: (record: ProcessRewardRecord) => void,
  ) {}

  unreadable(problem: InputProblem): void {
    this.parseProblems.push(problem);
  }

  record(located: LocatedValue): void {
    this.parsed++;
    const { file } = this;
    if (!validateRecord(located.value)) {
      this.stageProblems.push(...schemaProblems(validateRecord.errors, file, located));
      return;
    }
    const record = located.value as unknown as ProcessRewardRecord;
    const rule = (field: string, message: string): void => {
      this.stageProblems.push({ file, line: located.line, field, stage: 'rule', message });
    };
    record.steps.forEach((s, i) => {
      if (s.index !== i + 1) rule(`steps[${i}].index`, `step ${i + 1} has index ${s.index}: steps are numbered 1, 2, 3, … in order`);
    });
    if (record.mode === 'first_error') {
      const wrong = record.steps.findIndex((s) => s.reward === -1);
      if (wrong < 0) rule('mode', 'a first_error record needs a step with reward -1 (the first error)');
      else if (record.steps.slice(0, wrong).some((s) => s.reward === null))
        rule('steps', 'in a first_error record every step before the first error has a reward');
    }
    if (this.projectItemIds && !this.projectItemIds.has(record.instance_id))
      rule('instance_id', `instance "${record.instance_id}" does not exist in the project (instance_id is the item id)`);
    const key = JSON.stringify([record.annotator, record.instance_id]);
    const first = this.seen.get(key);
    if (first !== undefined)
      rule(
        'instance_id',
        `a second record for annotator "${record.annotator}" and instance "${record.instance_id}" (first on line ${first})`,
      );
    else this.seen.set(key, located.line);
    this.tally.add(record);
    this.onRecord?.(record);
  }

  finish(): { problems: InputProblem[] } {
    const problems = [...this.parseProblems];
    if (this.parsed === 0 && problems.length === 0)
      problems.push({ file: this.file, line: null, field: null, stage: 'rule', message: 'the export has no records' });
    return { problems: [...problems, ...this.stageProblems] };
  }
}

/**
 * Whether a JSON Lines text is a process-reward export rather than records: some line is an object with
 * `instance_id` and none has the records' `item_id`. Decided by content, not by the receipt: the receipt is
 * optional and is itself what gets checked, and one edited line must not send the whole file to the wrong reader.
 */
export function isProcessRewardText(text: string): boolean {
  const objects = readJsonLines(text, '')
    .records.map((r) => r.value)
    .filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
  return objects.some((o) => 'instance_id' in o) && !objects.some((o) => 'item_id' in o);
}

/** Throws InputError listing every problem, for a writer that must not write an invalid export. */
export function assertValidProcessReward(text: string, file: string): ProcessRewardRecord[] {
  const { records, problems } = validateProcessRewardText(text, file);
  if (problems.length > 0) throw new InputError(problems);
  return records;
}

/** Written as FILE.receipt.json only after FILE is complete on disk. */
export interface ProcessRewardReceipt extends RecordsFileReceipt {
  kind: 'process-reward';
  format: 'jsonl';
  counts: {
    annotators: number;
    items: number;
    /** records with at least one step reward */
    judged_records: number;
    /** steps with a reward, over all records */
    judged_steps: number;
    first_error_records: number;
  };
}

export function buildProcessRewardReceipt(args: {
  file: string;
  sha256: string;
  bytes: number;
  records: readonly ProcessRewardRecord[] | ProcessRewardTally;
  project: string;
  appVersion: string;
  createdAt: string;
}): ProcessRewardReceipt {
  let tally: ProcessRewardTally;
  if (args.records instanceof ProcessRewardTally) tally = args.records;
  else {
    tally = new ProcessRewardTally();
    for (const record of args.records) tally.add(record);
  }
  return {
    receipt_version: 1,
    kind: 'process-reward',
    file: args.file,
    format: 'jsonl',
    sha256: args.sha256,
    bytes: args.bytes,
    records: tally.records,
    project: args.project,
    counts: tally.counts(),
    app_version: args.appVersion,
    created_at: args.createdAt,
  };
}

const count = { type: 'integer', minimum: 0 } as const;

export const processRewardReceiptJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/process-reward-receipt.v1.json',
  title: 'Aloud process-reward export receipt',
  type: 'object',
  additionalProperties: false,
  required: ['receipt_version', 'kind', 'file', 'format', 'sha256', 'bytes', 'records', 'project', 'counts', 'app_version', 'created_at'],
  properties: {
    receipt_version: { const: 1 },
    kind: { const: 'process-reward' },
    file: { type: 'string', minLength: 1 },
    format: { const: 'jsonl' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    bytes: count,
    records: count,
    project: { type: 'string' },
    counts: {
      type: 'object',
      additionalProperties: false,
      required: ['annotators', 'items', 'judged_records', 'judged_steps', 'first_error_records'],
      properties: { annotators: count, items: count, judged_records: count, judged_steps: count, first_error_records: count },
    },
    app_version: { type: 'string' },
    created_at: { type: 'string', minLength: 1 },
  },
} as const;

const validateReceipt = compileOnFirstUse(() => ajv.compile(processRewardReceiptJsonSchema));

/**
 * Every stage on a process-reward receipt's text, then the rules that it describes this very file: sha256, bytes,
 * name, and — when the export could be read — its record count and counts recomputed from the records.
 */
export function processRewardReceiptProblems(
  receiptText: string,
  receiptFile: string,
  actual: { fileName: string; sha256: string; bytes: number; records: readonly ProcessRewardRecord[] | ProcessRewardTally | null },
): InputProblem[] {
  const { problems, receipt, rule } = checkReceipt<ProcessRewardReceipt>(receiptText, receiptFile, validateReceipt, actual);
  if (!receipt) return problems;
  if (actual.records !== null) {
    const recomputed = buildProcessRewardReceipt({
      ...receipt,
      appVersion: receipt.app_version,
      createdAt: receipt.created_at,
      records: actual.records,
    });
    if (receipt.records !== recomputed.records)
      rule('/records', `the export has ${recomputed.records} records, the receipt says ${receipt.records}`);
    const { counts } = recomputed;
    for (const key of Object.keys(counts) as Array<keyof ProcessRewardReceipt['counts']>) {
      if (receipt.counts[key] !== counts[key])
        rule(`/counts/${key}`, `the export's records give counts.${key} ${counts[key]}, the receipt says ${receipt.counts[key]}`);
    }
  }
  return problems;
}
