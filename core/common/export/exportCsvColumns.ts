import type { Item } from '../items/item';
import type { ExportRecord } from './exportRecord';
import { lastJudgmentPerStep } from '../reasoning/stepJudgments';

/** [step, reward] of each judged step's standing judgment, in step order. */
const standingRewards = (judgments: ExportRecord['step_judgments']): Array<[number, number]> =>
  [...lastJudgmentPerStep(judgments).values()].map((j) => [j.index, j.reward!]);

/** How a CSV cell is read back: the type its text stands for (an empty cell is null where nullable). */
export type CsvCellType = 'string' | 'integer' | 'number' | 'boolean' | 'sha256' | 'timestamp';

export interface CsvColumn {
  name: string;
  type: CsvCellType;
  nullable: boolean;
  /** one line for the README's column reference */
  meaning: string;
  value: (r: ExportRecord) => string | number | boolean | null;
  /** a column added to v2 later, with the others of its group: every export writes it, files written before may lack the group */
  optional?: 'vad' | 'hesitation' | 'deidentification';
  /** the schema version that added the column (absent: 2); a v2 file has none of the later ones */
  since?: 3 | 4 | 5;
}

/** A column written only with `--with-items`: what the annotator saw, from the items file. */
export interface ItemCsvColumn {
  name: string;
  meaning: string;
  value: (item: Item | undefined) => string | null;
}

/** The voice-activity signals (Silero VAD), named vad_* beside the energy ones; empty when the VAD did not run. */
const VAD_COLUMNS: CsvColumn[] = [
  {
    name: 'vad_speech_ms',
    type: 'number',
    nullable: true,
    optional: 'vad',
    meaning: 'total length heard as speech by the VAD, ms',
    value: (r) => r.signals?.vad_speech_ms ?? null,
  },
  {
    name: 'vad_pause_count',
    type: 'integer',
    nullable: true,
    optional: 'vad',
    meaning: 'non-speech runs (VAD) of at least min_pause_ms between speech',
    value: (r) => r.signals?.vad_pauses?.count ?? null,
  },
  {
    name: 'vad_pause_total_ms',
    type: 'number',
    nullable: true,
    optional: 'vad',
    meaning: 'their total length, ms',
    value: (r) => r.signals?.vad_pauses?.total_ms ?? null,
  },
  {
    name: 'vad_pause_longest_ms',
    type: 'number',
    nullable: true,
    optional: 'vad',
    meaning: 'the longest, ms',
    value: (r) => r.signals?.vad_pauses?.longest_ms ?? null,
  },
  {
    name: 'vad_pause_long_count',
    type: 'integer',
    nullable: true,
    optional: 'vad',
    meaning: 'VAD pauses of at least long_pause_ms',
    value: (r) => r.signals?.vad_pauses?.long_count ?? null,
  },
  {
    name: 'vad_time_to_first_speech_ms',
    type: 'number',
    nullable: true,
    optional: 'vad',
    meaning: 'from the start of the audio to the first speech the VAD hears',
    value: (r) => r.signals?.vad_time_to_first_speech_ms ?? null,
  },
];

/** Hesitation by category in the transcript's language, beside the legacy filler_count; empty without a transcript. */
const HESITATION_COLUMNS: CsvColumn[] = [
  {
    name: 'filled_pause_count',
    type: 'integer',
    nullable: true,
    optional: 'hesitation',
    meaning: "filled pauses (um, uh, äh) of the transcript's language",
    value: (r) => r.signals?.filled_pause_count ?? null,
  },
  {
    name: 'hedge_count',
    type: 'integer',
    nullable: true,
    optional: 'hesitation',
    meaning: 'hedges (maybe, I think, vielleicht)',
    value: (r) => r.signals?.hedge_count ?? null,
  },
  {
    name: 'repetition_count',
    type: 'integer',
    nullable: true,
    optional: 'hesitation',
    meaning: 'words said again at once ("I, I")',
    value: (r) => r.signals?.repetition_count ?? null,
  },
  {
    name: 'editing_term_count',
    type: 'integer',
    nullable: true,
    optional: 'hesitation',
    meaning: 'editing terms (no wait, I mean, ich meine)',
    value: (r) => r.signals?.editing_term_count ?? null,
  },
  {
    name: 'hesitation_language',
    type: 'string',
    nullable: true,
    optional: 'hesitation',
    meaning: 'the language whose hesitation lists counted',
    value: (r) => r.signals?.hesitation_language ?? null,
  },
];

/** The methods metadata of v3, at the end of the v3 columns (the v2 columns keep their places). */
const V3_COLUMNS: CsvColumn[] = [
  {
    name: 'session_kind',
    type: 'string',
    nullable: false,
    since: 3,
    meaning: "annotator: the annotator's own session; room: a norming room's votes written back",
    value: (r) => r.session_kind,
  },
  {
    name: 'own_final_label',
    type: 'string',
    nullable: true,
    since: 3,
    meaning: "label of the annotator's own last act (a reviewer's acts left out): what agreement counts",
    value: (r) => r.own_final_label,
  },
  {
    name: 'reviewed_by',
    type: 'string',
    nullable: true,
    since: 3,
    meaning: 'reviewers whose corrections or labels are in the record, joined with " | "',
    value: (r) => join([...new Set([...r.label_history, ...r.corrections].flatMap((a) => (a.reviewer ? [a.reviewer] : [])))]),
  },
  {
    name: 'completed',
    type: 'boolean',
    nullable: false,
    since: 3,
    meaning: 'the item was completed (Enter) at least once',
    value: (r) => r.completed,
  },
  {
    name: 'first_completed_at',
    type: 'timestamp',
    nullable: true,
    since: 3,
    meaning: 'when the item was first completed',
    value: (r) => r.first_completed_at,
  },
  {
    name: 'time_to_complete_ms',
    type: 'number',
    nullable: true,
    since: 3,
    meaning: 'from first opening to first completion, ms',
    value: (r) => r.time_to_complete_ms,
  },
  {
    name: 'time_open_ms',
    type: 'number',
    nullable: true,
    since: 3,
    meaning: 'total time the item was open on screen, ms',
    value: (r) => r.time_open_ms,
  },
  {
    name: 'model_vad_name',
    type: 'string',
    nullable: true,
    since: 3,
    meaning: 'voice-activity model that cut the audio and computed vad_*; empty: the energy rule',
    value: (r) => r.vad_model?.name ?? null,
  },
  {
    name: 'model_vad_sha256',
    type: 'sha256',
    nullable: true,
    since: 3,
    meaning: 'sha256 of that model file',
    value: (r) => r.vad_model?.sha256 ?? null,
  },
];

/** `--with-items`: the item's text, context and further fields, at the very end (absent from exports without the flag). */
export const ITEM_CSV_COLUMNS: readonly ItemCsvColumn[] = [
  { name: 'item_text', meaning: 'the item text as the annotator saw it', value: (item) => item?.text ?? null },
  { name: 'item_context', meaning: 'the user message it answers; empty without context', value: (item) => item?.context ?? null },
  {
    name: 'item_metadata',
    meaning: 'the items file\'s further fields as `key=value` (values as JSON text when not strings), joined with " | "',
    value: (item) =>
      item?.meta ? join(Object.entries(item.meta).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)) : null,
  },
];

/** Lists in one cell are joined with this (documented; no JSON in cells); inside an entry `\` and `|` are escaped with `\`. */
export const CSV_LIST_SEPARATOR = ' | ';

const escapeEntry = (value: string): string => value.replace(/[\\|]/g, (c) => `\\${c}`);

const join = (values: readonly string[]): string | null => (values.length === 0 ? null : values.map(escapeEntry).join(CSV_LIST_SEPARATOR));

/** The entries of a list cell, unescaped (the inverse of how CSV_COLUMNS join them). */
export function splitCsvList(cell: string): string[] {
  const entries: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i]!;
    if (c === '\\' && i + 1 < cell.length) current += cell[++i];
    else if (cell.startsWith(CSV_LIST_SEPARATOR, i)) {
      entries.push(current);
      current = '';
      i += CSV_LIST_SEPARATOR.length - 1;
    } else current += c;
  }
  entries.push(current);
  return entries;
}

/** One `source:label@time` entry of the label_history column, split back (a label may hold ':' or '@'). */
export function parseHistoryEntry(entry: string): { source: string; label: string; at: string } | null {
  const colon = entry.indexOf(':');
  const at = entry.lastIndexOf('@');
  return colon > 0 && at > colon ? { source: entry.slice(0, colon), label: entry.slice(colon + 1, at), at: entry.slice(at + 1) } : null;
}

/**
 * The flat columns of a v2 CSV export, in order: one per field or signal, lists joined with " | " (segments and
 * tokens are only in JSONL and JSON). The README's column table is this list.
 */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  {
    name: 'schema_version',
    type: 'integer',
    nullable: false,
    meaning: '5 (4, 3 or 2 in files written before)',
    value: (r) => r.schema_version,
  },
  { name: 'project', type: 'string', nullable: false, meaning: 'project name (aloud.yaml `name`)', value: (r) => r.project },
  { name: 'annotator', type: 'string', nullable: false, meaning: 'annotator (one session each)', value: (r) => r.annotator },
  { name: 'item_id', type: 'string', nullable: false, meaning: 'item id from the items file', value: (r) => r.item_id },
  {
    name: 'item_text_sha256',
    type: 'sha256',
    nullable: false,
    meaning: 'sha256 of the item text (UTF-8)',
    value: (r) => r.item_text_sha256,
  },
  {
    name: 'item_context_sha256',
    type: 'sha256',
    nullable: true,
    meaning: 'sha256 of the item context; empty without context',
    value: (r) => r.item_context_sha256,
  },
  {
    name: 'final_label',
    type: 'string',
    nullable: true,
    meaning: 'label of the last label act (occurrence order)',
    value: (r) => r.final_label,
  },
  {
    name: 'label_source',
    type: 'string',
    nullable: true,
    meaning: 'how the final label was given: voice, click, key, correction, room',
    value: (r) => r.label_source,
  },
  {
    name: 'blind_label',
    type: 'string',
    nullable: true,
    meaning: 'label of the first label act (before any change)',
    value: (r) => r.blind_label,
  },
  {
    name: 'label_history',
    type: 'string',
    nullable: true,
    meaning: 'every label act in occurrence order as `source:label@time`, joined with " | "',
    value: (r) => join(r.label_history.map((a) => `${a.source}:${a.label}@${a.at}`)),
  },
  {
    name: 'label_changes',
    type: 'integer',
    nullable: true,
    meaning: 'changes of label between consecutive acts, whatever their source',
    value: (r) => r.signals?.label_changes ?? null,
  },
  {
    name: 'commitment_labels',
    type: 'string',
    nullable: true,
    meaning: 'labels of the spoken commitments in audio order, joined with " | "',
    value: (r) => join(r.commitments.map((c) => c.label)),
  },
  {
    name: 'commitment_quotes',
    type: 'string',
    nullable: true,
    meaning: 'the commit phrases as transcribed, joined with " | "',
    value: (r) => join(r.commitments.map((c) => c.quote)),
  },
  {
    name: 'transcript',
    type: 'string',
    nullable: true,
    meaning: 'verbatim transcript; empty when nothing was transcribed',
    value: (r) => r.transcript,
  },
  {
    name: 'transcript_corrected',
    type: 'string',
    nullable: true,
    meaning: "transcript with reviewers' corrections; empty without corrections",
    value: (r) => r.transcript_corrected,
  },
  {
    name: 'correction_count',
    type: 'integer',
    nullable: false,
    meaning: 'segments corrected by a reviewer',
    value: (r) => r.corrections.length,
  },
  {
    name: 'superseded_count',
    type: 'integer',
    nullable: false,
    meaning: 'utterances whose transcript a later transcription replaced (kept in JSONL)',
    value: (r) => r.superseded_transcripts.length,
  },
  {
    name: 'notes',
    type: 'string',
    nullable: true,
    meaning: 'the annotator\'s notes on the item, joined with " | "',
    value: (r) => join(r.notes.map((n) => n.text)),
  },
  {
    name: 'keep_talking_cues',
    type: 'integer',
    nullable: false,
    meaning: '"Please keep talking" cues shown while recording (prompted speech follows them)',
    value: (r) => r.keep_talking_cues.length,
  },
  {
    name: 'audio_path',
    type: 'string',
    nullable: true,
    meaning: 'WAV path relative to the project folder',
    value: (r) => r.audio?.path ?? null,
  },
  {
    name: 'audio_sha256',
    type: 'sha256',
    nullable: true,
    meaning: 'sha256 of the WAV; empty when the file is missing',
    value: (r) => r.audio?.sha256 ?? null,
  },
  { name: 'audio_duration_ms', type: 'number', nullable: true, meaning: 'recorded audio, ms', value: (r) => r.audio?.duration_ms ?? null },
  {
    name: 'model_name',
    type: 'string',
    nullable: true,
    meaning: 'whisper model that transcribed it (`scripted` for test data)',
    value: (r) => r.model?.name ?? null,
  },
  {
    name: 'model_sha256',
    type: 'string',
    nullable: true,
    meaning: 'sha256 of the model file (`scripted:<sha256>` of an engine script)',
    value: (r) => r.model?.sha256 ?? null,
  },
  {
    name: 'whisper_cpp',
    type: 'string',
    nullable: true,
    meaning: 'whisper.cpp version of the engine',
    value: (r) => r.model?.whisper_cpp ?? null,
  },
  {
    name: 'parser_version',
    type: 'string',
    nullable: true,
    meaning: 'commit-phrase rules that derived the voice labels',
    value: (r) => r.parser_version,
  },
  {
    name: 'config_changed',
    type: 'boolean',
    nullable: false,
    meaning: 'voice labels were derived under another aloud.yaml than config_sha256',
    value: (r) => r.config_changed,
  },
  {
    name: 'labels_not_in_schema',
    type: 'string',
    nullable: true,
    meaning: 'labels in the history that the current schema lacks, joined with " | "',
    value: (r) => join(r.labels_not_in_schema),
  },
  {
    name: 'changed_after_completion',
    type: 'boolean',
    nullable: false,
    meaning: 'the final label changed after the item was completed',
    value: (r) => r.changed_after_completion,
  },
  {
    name: 'model_label',
    type: 'string',
    nullable: true,
    meaning: "the model's answer (a schema label); empty without model reasoning",
    value: (r) => r.model_reasoning?.label ?? null,
  },
  {
    name: 'model_steps',
    type: 'integer',
    nullable: true,
    meaning: "steps of the model's reasoning (the texts are in JSONL); empty without model reasoning",
    value: (r) => r.model_reasoning?.steps.length ?? null,
  },
  {
    name: 'reasoning_shown_at',
    type: 'timestamp',
    nullable: true,
    meaning: "when the model's reasoning was first shown; empty when never",
    value: (r) => r.reasoning_shown_at,
  },
  {
    name: 'step_rewards',
    type: 'string',
    nullable: true,
    meaning: 'each judged step\'s standing reward as `step:reward` (1, 0, -1), joined with " | "',
    value: (r) => join(standingRewards(r.step_judgments).map(([index, reward]) => `${index}:${reward}`)),
  },
  {
    name: 'finals_agree',
    type: 'boolean',
    nullable: true,
    meaning: "the annotator's final label equals the model's",
    value: (r) => r.reasoning_features?.finals_agree ?? null,
  },
  {
    name: 'first_contradicting_step',
    type: 'integer',
    nullable: true,
    meaning: "first step naming a label other than the annotator's final (or it negated)",
    value: (r) => r.reasoning_features?.first_contradicting_step ?? null,
  },
  {
    name: 'first_wrong_step',
    type: 'integer',
    nullable: true,
    meaning: 'first step whose standing judgment is -1',
    value: (r) => r.reasoning_features?.first_wrong_step ?? null,
  },
  {
    name: 'right_for_wrong_reason',
    type: 'boolean',
    nullable: true,
    meaning: 'finals agree and the annotator judged a step wrong',
    value: (r) => r.reasoning_features?.right_for_wrong_reason ?? null,
  },
  {
    name: 'silent_chunks',
    type: 'integer',
    nullable: true,
    meaning: 'chunks (thinkaloud.chunk_seconds) below the silence threshold',
    value: (r) => r.signals?.silent_chunks ?? null,
  },
  {
    name: 'total_chunks',
    type: 'integer',
    nullable: true,
    meaning: 'chunks of the recording',
    value: (r) => r.signals?.total_chunks ?? null,
  },
  {
    name: 'pause_count',
    type: 'integer',
    nullable: true,
    meaning: 'silent runs of at least min_pause_ms between speech',
    value: (r) => r.signals?.pauses?.count ?? null,
  },
  {
    name: 'pause_total_ms',
    type: 'number',
    nullable: true,
    meaning: 'their total length, ms',
    value: (r) => r.signals?.pauses?.total_ms ?? null,
  },
  {
    name: 'pause_longest_ms',
    type: 'number',
    nullable: true,
    meaning: 'the longest, ms',
    value: (r) => r.signals?.pauses?.longest_ms ?? null,
  },
  {
    name: 'pause_long_count',
    type: 'integer',
    nullable: true,
    meaning: 'pauses of at least long_pause_ms',
    value: (r) => r.signals?.pauses?.long_count ?? null,
  },
  {
    name: 'time_to_first_speech_ms',
    type: 'number',
    nullable: true,
    meaning: 'from the start of the audio to the first non-silent frame',
    value: (r) => r.signals?.time_to_first_speech_ms ?? null,
  },
  {
    name: 'filler_count',
    type: 'integer',
    nullable: true,
    meaning: 'fillers (thinkaloud.fillers) in the verbatim transcript',
    value: (r) => r.signals?.filler_count ?? null,
  },
  {
    name: 'fillers_by_term',
    type: 'string',
    nullable: true,
    meaning: 'per filler `term=count`, joined with " | "',
    value: (r) => (r.signals?.fillers_by_term ? join(Object.entries(r.signals.fillers_by_term).map(([term, n]) => `${term}=${n}`)) : null),
  },
  {
    name: 'word_count',
    type: 'integer',
    nullable: true,
    meaning: 'words in the verbatim transcript',
    value: (r) => r.signals?.word_count ?? null,
  },
  {
    name: 'commitment_count',
    type: 'integer',
    nullable: true,
    meaning: 'spoken commitments',
    value: (r) => r.signals?.commitment_count ?? null,
  },
  {
    name: 'time_to_first_commit_ms',
    type: 'number',
    nullable: true,
    meaning: 'audio time when the first commit phrase was complete',
    value: (r) => r.signals?.time_to_first_commit_ms ?? null,
  },
  {
    name: 'time_to_final_commit_ms',
    type: 'number',
    nullable: true,
    meaning: 'audio time when the last commit phrase was complete',
    value: (r) => r.signals?.time_to_final_commit_ms ?? null,
  },
  { name: 'app_version', type: 'string', nullable: false, meaning: 'Aloud version that exported', value: (r) => r.app_version },
  { name: 'config_sha256', type: 'sha256', nullable: false, meaning: 'sha256 of aloud.yaml at export', value: (r) => r.config_sha256 },
  { name: 'started_at', type: 'timestamp', nullable: true, meaning: 'first opened or recorded', value: (r) => r.started_at },
  { name: 'completed_at', type: 'timestamp', nullable: true, meaning: 'last completed', value: (r) => r.completed_at },
  { name: 'exported_at', type: 'timestamp', nullable: false, meaning: 'time of the export', value: (r) => r.exported_at },
  // added later to v2: at the end, so that the columns before keep their places
  ...VAD_COLUMNS,
  ...HESITATION_COLUMNS,
  ...V3_COLUMNS,
  // v4: the commitments' offsets, in the unit v4 counts them in
  {
    name: 'commitment_spans',
    type: 'string',
    nullable: true,
    since: 4,
    meaning:
      'where each commit phrase is in `transcript`, `start:end` in Unicode code points (Python: transcript[start:end]), joined with " | " in the order of commitment_quotes',
    value: (r) => join(r.commitments.map((c) => `${c.start}:${c.end}`)),
  },
  // v4: whether the row was de-identified, so a copy without its receipt says so (validate then checks its texts)
  {
    name: 'deidentified',
    type: 'boolean',
    nullable: false,
    since: 4,
    optional: 'deidentification',
    meaning: "true: `aloud export --deidentify` put placeholders for what the project's list and patterns hide",
    value: (r) => r.deidentification !== null,
  },
  {
    name: 'deidentify_method',
    type: 'string',
    nullable: true,
    since: 4,
    optional: 'deidentification',
    meaning: 'the rules of that de-identification (aloud-deidentify-1); empty when not de-identified',
    value: (r) => r.deidentification?.method ?? null,
  },
  {
    name: 'deidentify_list_sha256',
    type: 'sha256',
    nullable: true,
    since: 4,
    optional: 'deidentification',
    meaning: "sha256 of the project's deidentify.yaml it used; empty when not de-identified",
    value: (r) => r.deidentification?.list_sha256 ?? null,
  },
  {
    name: 'deidentified_classes',
    type: 'string',
    nullable: true,
    since: 4,
    optional: 'deidentification',
    meaning: 'classes of the placeholders in this row (PERSON, EMAIL, …), joined with " | "',
    value: (r) => join(r.deidentification?.classes ?? []),
  },
  // v5: active time on item beside the wall time, and the idle gap bound it was counted with
  {
    name: 'time_on_item_active_ms',
    type: 'number',
    nullable: true,
    since: 5,
    meaning:
      "active time on the item, ms: the annotator's own acts (input, speech, playback) and the gaps between them up to time_on_item_idle_gap_ms; a longer gap counts as nothing",
    value: (r) => r.time_on_item_active_ms,
  },
  {
    name: 'time_on_item_wall_ms',
    type: 'number',
    nullable: true,
    since: 5,
    meaning: "wall time on the item, ms: how long it was open in the annotator's own sittings (time_open_ms also counts a reviewer's)",
    value: (r) => r.time_on_item_wall_ms,
  },
  {
    name: 'time_on_item_idle_gap_ms',
    type: 'number',
    nullable: true,
    since: 5,
    meaning: 'the idle gap bound of the active time, ms (aloud.yaml time_on_item.idle_gap_seconds)',
    value: (r) => r.time_on_item_idle_gap_ms,
  },
];

/** The columns of a flat CSV of one schema version (2, 3 or 4). */
export function csvColumnsOf(version: 2 | 3 | 4 | 5): readonly CsvColumn[] {
  return CSV_COLUMNS.filter((c) => (c.since ?? 2) <= version);
}

const TIMESTAMP = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

/** The JSON Schema of one CSV row of a version read back as an object of typed cells (what `validate` checks a flat CSV against). */
export function csvRowJsonSchema(version: 2 | 3 | 4 | 5): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const columns = csvColumnsOf(version);
  for (const c of columns) {
    const base: Record<string, unknown> =
      c.type === 'sha256'
        ? { type: 'string', pattern: '^[0-9a-f]{64}$' }
        : c.type === 'timestamp'
          ? { type: 'string', pattern: TIMESTAMP }
          : c.type === 'integer'
            ? { type: 'integer', minimum: 0 }
            : c.type === 'number'
              ? { type: 'number', minimum: 0 }
              : { type: c.type };
    const typeList = base.type as string;
    properties[c.name] = c.name === 'schema_version' ? { const: version } : { ...base, type: c.nullable ? [typeList, 'null'] : typeList };
  }
  properties.label_source = { enum: ['voice', 'click', 'key', 'correction', 'room', null] };
  if (version >= 4) properties.commitment_spans = { type: ['string', 'null'], pattern: '^\\d+:\\d+( \\| \\d+:\\d+)*$' };
  if (version >= 3) {
    properties.session_kind = { enum: ['annotator', 'room'] };
    for (const c of ITEM_CSV_COLUMNS) properties[c.name] = { type: ['string', 'null'] };
  }
  return { type: 'object', additionalProperties: false, required: columns.filter((c) => !c.optional).map((c) => c.name), properties };
}

/** A CSV cell's text as the value it stands for; text that is not of the column's type stays text (the schema names it). */
export function readCsvCell(column: Pick<CsvColumn, 'type' | 'nullable'>, cell: string): unknown {
  if (cell === '' && column.nullable) return null;
  if (column.type === 'integer' || column.type === 'number') return /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell;
  if (column.type === 'boolean') return cell === 'true' ? true : cell === 'false' ? false : cell;
  return cell;
}
