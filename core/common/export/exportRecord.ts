import type { Item } from '../items/item';
import type { SessionNote } from '../session/sessionFold';
import type { ItemSessionState, LabelSource } from '../session/itemState';
import type { ModelIdentity, SessionKind } from '../session/sessionEvents';
import exportRecordSchemaV1 from './exportRecord.v1.schema.json';
import exportRecordSchemaV2 from './exportRecord.v2.schema.json';
import exportRecordSchemaV3 from './exportRecord.v3.schema.json';
import exportRecordSchemaV4 from './exportRecord.v4.schema.json';
import exportRecordSchemaV5 from './exportRecord.v5.schema.json';
import { codePointOffset, utf16Offset } from '../text/codePoints';
import { NO_REASONING, type ReasoningExportFields } from './reasoningExport';

/** The schema version this Aloud writes; `validate` reads this one and every earlier one. */
export const EXPORT_SCHEMA_VERSION = 5;
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, 2, 3, 4, 5];

/** The export contract (JSON Schema Draft 2020-12) of each version, versioned in the repo next to this file. */
export const exportRecordJsonSchemas: Readonly<Record<number, Record<string, unknown>>> = {
  1: exportRecordSchemaV1,
  2: exportRecordSchemaV2,
  3: exportRecordSchemaV3,
  4: exportRecordSchemaV4,
  5: exportRecordSchemaV5,
};
export const exportRecordJsonSchema: Record<string, unknown> = exportRecordSchemaV5;

/** How a version counts commitment offsets into the transcript: v1–v3 in UTF-16 code units, v4 on in code points. */
export function offsetUnitOf(schemaVersion: number): 'utf16' | 'code_point' {
  return schemaVersion >= 4 ? 'code_point' : 'utf16';
}

/**
 * A commitment as the export record writes it: a deliberately frozen copy, not derived from the session's commitment
 * types (FoundCommitment, CommitmentRecord), so that a change inside the app can never change a published schema
 * version unnoticed; a change here is a new schema version (offsetUnitOf, the validators, the schema files).
 */
export interface ExportCommitment {
  label: string;
  quote: string;
  /** offsets of the quote in the transcript: UTF-16 code units up to v3, Unicode code points from v4 (offsetUnitOf) */
  start: number;
  end: number;
  t_ms: number | null;
  stem: string;
}

export interface ExportSegment {
  t0_ms: number;
  t1_ms: number;
  text: string;
  tokens?: Array<{ t0_ms: number; t1_ms: number; text: string; p?: number }>;
}

/** Every signal key is present; a value the session did not compute is null. */
export interface ExportSignals {
  silent_chunks: number | null;
  total_chunks: number | null;
  pauses: { count: number; total_ms: number; longest_ms: number; long_count: number } | null;
  time_to_first_speech_ms: number | null;
  filler_count: number | null;
  fillers_by_term: Record<string, number> | null;
  word_count: number | null;
  commitment_count: number | null;
  label_changes: number | null;
  time_to_first_commit_ms: number | null;
  time_to_final_commit_ms: number | null;
  /**
   * voice-activity signals (Silero VAD), beside the energy ones above: null when the VAD did not run. Written by
   * every export since they were added; absent from files written before (the v2 schema does not require them).
   */
  vad_speech_ms?: number | null;
  vad_pauses?: { count: number; total_ms: number; longest_ms: number; long_count: number } | null;
  vad_time_to_first_speech_ms?: number | null;
  /**
   * hesitation by category in the transcript's language (signals/hesitation.ts), beside the legacy filler_count: null
   * without a transcript. Written by every export since they were added; absent from files written before.
   */
  filled_pause_count?: number | null;
  hedge_count?: number | null;
  repetition_count?: number | null;
  editing_term_count?: number | null;
  hesitation_language?: string | null;
}

/** One annotator's work on one item (schema_version 1). Field order here is the order written to files. */
export interface ExportRecordV1 {
  schema_version: 1;
  project: string;
  annotator: string;
  item_id: string;
  item_text_sha256: string;
  item_context_sha256: string | null;
  final_label: string | null;
  label_source: LabelSource | null;
  blind_label: string | null;
  commitments: ExportCommitment[];
  /** verbatim; null when nothing was ever transcribed for the item */
  transcript: string | null;
  segments: ExportSegment[];
  signals: ExportSignals | null;
  audio: { path: string; sha256: string | null; duration_ms: number } | null;
  model: { name: string; sha256: string | null } | null;
  app_version: string;
  config_sha256: string;
  started_at: string | null;
  completed_at: string | null;
  exported_at: string;
}

/** One label act of the timeline, as exported. */
export interface ExportLabelAct {
  label: string;
  source: LabelSource;
  at: string;
  audio_ms: number | null;
  quote: string | null;
}

export interface ExportSegmentV2 extends ExportSegment {
  /** the utterance it belongs to and its index within it (what a correction names) */
  utterance: number;
  index: number;
}

export interface ExportModel {
  name: string;
  sha256: string | null;
  whisper_cpp: string | null;
}

/** A coder's code on a unit, as exported. */
export interface ExportCode {
  code: string;
  memo: string | null;
  applied_at: string;
  codebook_version: string;
  after_finished: boolean;
}

/** The protocol's units of coding and the codes each coder gave them. */
export interface ExportCodings {
  unit_kind: 'utterance' | 'sentence';
  coders: Array<{ coder: string; finished_at: string | null }>;
  units: Array<{ unit: string; text: string; t0_ms: number; t1_ms: number; current: boolean; codes: Record<string, ExportCode[]> }>;
}

/** One annotator's work on one item (schema_version 2): v1 plus the whole label timeline, corrections, notes, provenance. */
export interface ExportRecordV2 {
  schema_version: 2;
  project: string;
  annotator: string;
  item_id: string;
  item_text_sha256: string;
  item_context_sha256: string | null;
  final_label: string | null;
  label_source: LabelSource | null;
  blind_label: string | null;
  label_history: ExportLabelAct[];
  commitments: ExportCommitment[];
  transcript: string | null;
  transcript_corrected: string | null;
  corrections: Array<{ utterance: number; segment: number; original_text: string; text: string; annotator: string; at: string }>;
  segments: ExportSegmentV2[];
  superseded_transcripts: Array<{
    utterance: number;
    text: string;
    corrected_text: string | null;
    model: ExportModel;
    superseded_at: string;
    reason: string;
  }>;
  signals: ExportSignals | null;
  audio: { path: string; sha256: string | null; duration_ms: number } | null;
  model: ExportModel | null;
  notes: Array<{ text: string; at: string }>;
  /** the "Please keep talking" cues shown while recording */
  keep_talking_cues: Array<{ at: string; silence_ms: number; audio_ms: number }>;
  parser_version: string | null;
  config_changed: boolean;
  labels_not_in_schema: string[];
  changed_after_completion: boolean;
  /** the model's answer and steps, the annotator's step judgments, when the reasoning was shown, the features */
  model_reasoning: ReasoningExportFields['model_reasoning'];
  step_judgments: ReasoningExportFields['step_judgments'];
  reasoning_shown_at: string | null;
  reasoning_features: ReasoningExportFields['reasoning_features'];
  /** added to v2 later (optional in the schema): null when no coder coded the protocol */
  codings?: ExportCodings | null;
  app_version: string;
  config_sha256: string;
  started_at: string | null;
  completed_at: string | null;
  exported_at: string;
}

/** Fields added to v2 after its first files were written: every export writes them, the schema does not require them. */
export const EXPORT_OPTIONAL_FIELDS_V2: ReadonlyArray<keyof ExportRecordV2> = ['codings'];

/** A label act of v3: who made it, when it was not the session's annotator. */
export interface ExportLabelActV3 extends ExportLabelAct {
  reviewer: string | null;
}

export type ExportCorrectionV3 = ExportRecordV2['corrections'][number] & { reviewer: string | null };

/**
 * One annotator's work on one item (schema_version 3): v2 plus the methods metadata — the kind of session, the
 * annotator's own final label (a reviewer's acts left out), who made each act and correction, the VAD model, whether
 * and when the item was completed and the time on it.
 */
export interface ExportRecordV3 extends Omit<ExportRecordV2, 'schema_version' | 'label_history' | 'corrections'> {
  schema_version: 3;
  session_kind: SessionKind;
  own_final_label: string | null;
  label_history: ExportLabelActV3[];
  corrections: ExportCorrectionV3[];
  vad_model: ModelIdentity | null;
  completed: boolean;
  first_completed_at: string | null;
  time_to_complete_ms: number | null;
  time_open_ms: number | null;
}

/**
 * One annotator's work on one item (schema_version 4): v3's fields, with commitment offsets (start, end) counted in
 * Unicode code points, as Python and REFI-QDA count characters, instead of UTF-16 code units.
 */
export interface ExportRecordV4 extends Omit<ExportRecordV3, 'schema_version'> {
  schema_version: 4;
  /** null: as the sessions hold it; set by a de-identified export, so any copy says so without its receipt */
  deidentification: ExportDeidentification | null;
}

/** What a de-identified record says about itself: by which method and list, and the classes of its placeholders. */
export interface ExportDeidentification {
  method: string;
  /** sha256 of the deidentify.yaml bytes */
  list_sha256: string;
  /** the classes of the placeholders in this record, sorted */
  classes: string[];
}

/**
 * One annotator's work on one item (schema_version 5): v4's fields, and beside the wall time the active time on the
 * item (her own acts and the gaps between them up to the idle gap bound, core/common/session/activeTime.ts), with
 * that bound. null: the item was never opened.
 */
export interface ExportRecordV5 extends Omit<ExportRecordV4, 'schema_version'> {
  schema_version: 5;
  time_on_item_active_ms: number | null;
  /** how long the item was open in the annotator's own sittings (time_open_ms also counts a reviewer's) */
  time_on_item_wall_ms: number | null;
  time_on_item_idle_gap_ms: number | null;
}

/** The record this Aloud writes. */
export type ExportRecord = ExportRecordV5;

/** Fields of v3 that its first files (written before coding came to v3) do not have: the schema does not require them. */
export const EXPORT_OPTIONAL_FIELDS_V3: ReadonlyArray<keyof ExportRecordV3> = ['codings'];
export const EXPORT_OPTIONAL_FIELDS_V4: ReadonlyArray<keyof ExportRecordV4> = ['codings', 'deidentification'];
export const EXPORT_OPTIONAL_FIELDS_V5: ReadonlyArray<keyof ExportRecordV5> = ['codings', 'deidentification'];

/** A record of any version `validate` reads. */
export type AnyExportRecord = ExportRecordV1 | ExportRecordV2 | ExportRecordV3 | ExportRecordV4 | ExportRecordV5;

/** A v4 record read as v5: it recorded no active time (null), its wall time not apart from a reviewer's (null). */
export function upcastExportRecordV4(record: ExportRecordV4): ExportRecordV5 {
  const v5: Record<string, unknown> = {
    ...record,
    schema_version: 5,
    time_on_item_active_ms: null,
    time_on_item_wall_ms: null,
    time_on_item_idle_gap_ms: null,
  };
  const ordered: Record<string, unknown> = {};
  for (const key of EXPORT_FIELDS_V5) ordered[key] = v5[key];
  return ordered as unknown as ExportRecordV5;
}

/** A v3 record read as v4: the same fields, its commitments' UTF-16 offsets counted again in code points of the transcript. */
export function upcastExportRecordV3(record: ExportRecordV3): ExportRecordV4 {
  const text = record.transcript ?? '';
  const commitments = record.commitments.map((c) => ({ ...c, start: codePointOffset(text, c.start), end: codePointOffset(text, c.end) }));
  return { ...record, schema_version: 4, commitments, deidentification: null };
}

/** A commitment's offsets as JavaScript indexes its transcript (UTF-16), whichever unit its record version counts in. */
export function commitmentUtf16Span(
  transcript: string,
  commitment: Pick<ExportCommitment, 'start' | 'end'>,
  schemaVersion: number = EXPORT_SCHEMA_VERSION,
): { start: number; end: number } {
  if (offsetUnitOf(schemaVersion) === 'utf16') return { start: commitment.start, end: commitment.end };
  return { start: utf16Offset(transcript, commitment.start), end: utf16Offset(transcript, commitment.end) };
}

/**
 * A v2 record read as v3: what v2 did not record is null or its v2 meaning — every act the annotator's (v2 logged
 * none as a reviewer's), completed when it has a completion time, an annotator's session, no VAD named.
 */
export function upcastExportRecordV2(record: ExportRecordV2): ExportRecordV3 {
  const { schema_version: _version, label_history, corrections, ...rest } = record;
  const v3: Record<string, unknown> = {
    ...rest,
    schema_version: 3,
    session_kind: 'annotator',
    own_final_label: record.final_label,
    label_history: label_history.map((a) => ({ ...a, reviewer: null })),
    corrections: corrections.map((c) => ({ ...c, reviewer: null })),
    vad_model: null,
    completed: record.completed_at !== null,
    first_completed_at: null,
    time_to_complete_ms: null,
    time_open_ms: null,
    codings: record.codings ?? null,
  };
  const ordered: Record<string, unknown> = {};
  for (const key of EXPORT_FIELDS_V3) ordered[key] = v3[key];
  return ordered as unknown as ExportRecordV3;
}

/** Key order of v2 JSON records. */
export const EXPORT_FIELDS_V2 = [
  'schema_version',
  'project',
  'annotator',
  'item_id',
  'item_text_sha256',
  'item_context_sha256',
  'final_label',
  'label_source',
  'blind_label',
  'label_history',
  'commitments',
  'transcript',
  'transcript_corrected',
  'corrections',
  'segments',
  'superseded_transcripts',
  'signals',
  'audio',
  'model',
  'notes',
  'keep_talking_cues',
  'parser_version',
  'config_changed',
  'labels_not_in_schema',
  'changed_after_completion',
  'model_reasoning',
  'step_judgments',
  'reasoning_shown_at',
  'reasoning_features',
  'codings',
  'app_version',
  'config_sha256',
  'started_at',
  'completed_at',
  'exported_at',
] as const satisfies ReadonlyArray<keyof ExportRecordV2>;

/** Key order of v3 and v4 JSON records: v2's, each new field beside the one it qualifies. */
export const EXPORT_FIELDS_V3 = [
  'schema_version',
  'project',
  'annotator',
  'session_kind',
  'item_id',
  'item_text_sha256',
  'item_context_sha256',
  'final_label',
  'own_final_label',
  'label_source',
  'blind_label',
  'label_history',
  'commitments',
  'transcript',
  'transcript_corrected',
  'corrections',
  'segments',
  'superseded_transcripts',
  'signals',
  'audio',
  'model',
  'vad_model',
  'notes',
  'keep_talking_cues',
  'parser_version',
  'config_changed',
  'labels_not_in_schema',
  'changed_after_completion',
  'model_reasoning',
  'step_judgments',
  'reasoning_shown_at',
  'reasoning_features',
  'codings',
  'app_version',
  'config_sha256',
  'started_at',
  'completed_at',
  'completed',
  'first_completed_at',
  'time_to_complete_ms',
  'time_open_ms',
  'exported_at',
] as const satisfies ReadonlyArray<keyof ExportRecordV3>;

/** Key order of v4 JSON records: v3's, then whether the record was de-identified. */
export const EXPORT_FIELDS_V4 = [...EXPORT_FIELDS_V3, 'deidentification'] as const satisfies ReadonlyArray<keyof ExportRecordV4>;

/** Key order of v5 JSON records: v4's, the active and wall time on item and their idle gap bound beside time_open_ms. */
export const EXPORT_FIELDS_V5 = [
  ...EXPORT_FIELDS_V3.slice(0, EXPORT_FIELDS_V3.indexOf('time_open_ms') + 1),
  'time_on_item_active_ms',
  'time_on_item_wall_ms',
  'time_on_item_idle_gap_ms',
  ...EXPORT_FIELDS_V3.slice(EXPORT_FIELDS_V3.indexOf('time_open_ms') + 1),
  'deidentification',
] as const satisfies ReadonlyArray<keyof ExportRecordV5>;

/** Column order of v1 CSV exports and key order of v1 JSON records. */
export const EXPORT_FIELDS = [
  'schema_version',
  'project',
  'annotator',
  'item_id',
  'item_text_sha256',
  'item_context_sha256',
  'final_label',
  'label_source',
  'blind_label',
  'commitments',
  'transcript',
  'segments',
  'signals',
  'audio',
  'model',
  'app_version',
  'config_sha256',
  'started_at',
  'completed_at',
  'exported_at',
] as const satisfies ReadonlyArray<keyof ExportRecordV1>;

export interface ExportRecordInput {
  project: string;
  annotator: string;
  item: Item;
  /** sha256 (hex) of the item text's UTF-8 bytes, and of the context's when there is one */
  itemTextSha256: string;
  itemContextSha256: string | null;
  /** null when the annotator never opened the item */
  state: ItemSessionState | null;
  /** the annotator's notes on this item */
  notes: readonly SessionNote[];
  /** an annotator's own session or a room's write-back (default: an annotator's) */
  sessionKind?: SessionKind;
  /** sha256 of the WAV at state.audio_path; null when the file is missing */
  audioSha256: string | null;
  appVersion: string;
  configSha256: string;
  exportedAt: string;
  /** the item's model reasoning fields (core/common/export/reasoningExport); absent: none */
  reasoning?: ReasoningExportFields;
  /** the coders' codings of this protocol (core/common/export/codingExport); absent or null: none */
  codings?: ExportCodings | null;
}

const exportModel = (m: { name: string; sha256: string; whisper_cpp?: string | null }): ExportModel => ({
  name: m.name,
  sha256: m.sha256 === '' ? null : m.sha256,
  whisper_cpp: m.whisper_cpp ?? null,
});

/** Maps the folded session state to the export record; copies known fields only, so a record is never invented. */
export function buildExportRecord(input: ExportRecordInput): ExportRecordV5 {
  const { state } = input;
  // an empty transcript with no segments cannot tell "silent" from "not transcribed yet": unknown, so null
  const transcribed = state !== null && (state.segments.length > 0 || state.transcript !== '');
  // the session counts offsets as JavaScript does (UTF-16); the record counts code points
  const spoken = state?.transcript ?? '';
  return {
    schema_version: 5,
    project: input.project,
    annotator: input.annotator,
    session_kind: input.sessionKind ?? 'annotator',
    item_id: input.item.id,
    item_text_sha256: input.itemTextSha256,
    item_context_sha256: input.itemContextSha256,
    final_label: state?.final_label ?? null,
    own_final_label: state ? ownFinalLabel(state.label_history) : null,
    label_source: state?.label_source ?? null,
    blind_label: state?.blind_label ?? null,
    label_history: (state?.label_history ?? []).map((a) => ({
      label: a.label,
      source: a.source,
      at: a.at,
      audio_ms: a.audio_ms,
      quote: a.quote,
      reviewer: a.reviewer ?? null,
    })),
    commitments: (state?.commitments ?? []).map((c) => ({
      label: c.label,
      quote: c.quote,
      start: codePointOffset(spoken, c.start),
      end: codePointOffset(spoken, c.end),
      t_ms: c.t_ms,
      stem: c.stem,
    })),
    transcript: transcribed ? state.transcript : null,
    transcript_corrected: state?.transcript_corrected ?? null,
    corrections: (state?.corrections ?? []).map((c) => ({
      utterance: c.utterance,
      segment: c.segment,
      original_text: c.original_text,
      text: c.text,
      annotator: c.annotator,
      reviewer: c.reviewer ?? null,
      at: c.at,
    })),
    segments: (state?.segments ?? []).map((s, i) => ({
      utterance: state!.segment_refs[i]?.utterance ?? 0,
      index: state!.segment_refs[i]?.segment ?? 0,
      t0_ms: s.t0_ms,
      t1_ms: s.t1_ms,
      text: s.text,
      ...(s.tokens
        ? { tokens: s.tokens.map((t) => ({ t0_ms: t.t0_ms, t1_ms: t.t1_ms, text: t.text, ...(t.p !== undefined ? { p: t.p } : {}) })) }
        : {}),
    })),
    superseded_transcripts: (state?.superseded_transcripts ?? []).map((t) => ({
      utterance: t.utterance,
      text: t.text,
      corrected_text: t.corrected_text,
      model: exportModel(t.model),
      superseded_at: t.superseded_at,
      reason: t.reason,
    })),
    signals: state?.signals ? exportSignals(state.signals) : null,
    audio: state?.audio_path ? { path: state.audio_path, sha256: input.audioSha256, duration_ms: state.audio_ms } : null,
    model: state?.model ? exportModel(state.model) : null,
    vad_model: state?.vad_model ? { name: state.vad_model.name, sha256: state.vad_model.sha256 } : (state?.model?.vad ?? null),
    notes: input.notes.filter((n) => n.item_id === input.item.id).map((n) => ({ text: n.text, at: n.ts })),
    keep_talking_cues: (state?.cues ?? []).map((c) => ({ at: c.at, silence_ms: c.silence_ms, audio_ms: c.audio_ms })),
    parser_version: state?.parser_version ?? null,
    config_changed: state?.config_changed ?? false,
    labels_not_in_schema: [...(state?.labels_not_in_schema ?? [])],
    changed_after_completion: state?.changed_after_completion ?? false,
    ...(input.reasoning ?? NO_REASONING),
    codings: input.codings ?? null,
    app_version: input.appVersion,
    config_sha256: input.configSha256,
    started_at: state?.started_at ?? null,
    completed_at: state?.completed_at ?? null,
    completed: (state?.completed_at ?? null) !== null,
    first_completed_at: state?.first_completed_at ?? state?.completed_at ?? null,
    time_to_complete_ms: state?.time_to_complete_ms ?? null,
    time_open_ms: state ? (state.time_open_ms ?? null) : null,
    time_on_item_active_ms: state?.time_on_item_active_ms ?? null,
    time_on_item_wall_ms: state?.time_on_item_wall_ms ?? null,
    time_on_item_idle_gap_ms: state?.time_on_item_idle_gap_ms ?? null,
    exported_at: input.exportedAt,
    deidentification: null,
  };
}

/** The label of the annotator's own last act: a reviewer's acts (labels from their corrections) are theirs, not the annotator's. */
export function ownFinalLabel(history: ReadonlyArray<{ label: string; reviewer?: string | null }>): string | null {
  return history.filter((a) => (a.reviewer ?? null) === null).at(-1)?.label ?? null;
}

function exportSignals(s: NonNullable<ItemSessionState['signals']>): ExportSignals {
  return {
    silent_chunks: s.silent_chunks ?? null,
    total_chunks: s.total_chunks ?? null,
    pauses: s.pauses
      ? { count: s.pauses.count, total_ms: s.pauses.total_ms, longest_ms: s.pauses.longest_ms, long_count: s.pauses.long_count }
      : null,
    time_to_first_speech_ms: s.time_to_first_speech_ms ?? null,
    filler_count: s.filler_count ?? null,
    fillers_by_term: s.fillers_by_term ? { ...s.fillers_by_term } : null,
    word_count: s.word_count ?? null,
    commitment_count: s.commitment_count ?? null,
    label_changes: s.label_changes ?? null,
    time_to_first_commit_ms: s.time_to_first_commit_ms ?? null,
    time_to_final_commit_ms: s.time_to_final_commit_ms ?? null,
    vad_speech_ms: s.vad_speech_ms ?? null,
    vad_pauses: s.vad_pauses
      ? {
          count: s.vad_pauses.count,
          total_ms: s.vad_pauses.total_ms,
          longest_ms: s.vad_pauses.longest_ms,
          long_count: s.vad_pauses.long_count,
        }
      : null,
    vad_time_to_first_speech_ms: s.vad_time_to_first_speech_ms ?? null,
    filled_pause_count: s.filled_pause_count ?? null,
    hedge_count: s.hedge_count ?? null,
    repetition_count: s.repetition_count ?? null,
    editing_term_count: s.editing_term_count ?? null,
    hesitation_language: s.hesitation_language ?? null,
  };
}

export type ExportGapReason = 'no_audio' | 'audio_file_missing' | 'no_transcript' | 'no_label';

/** What each gap means, in words (the export summary and the README use these). */
export const EXPORT_GAP_MEANINGS: Readonly<Record<ExportGapReason, string>> = {
  no_audio: 'no audio: the annotator never recorded this item (or never opened it)',
  audio_file_missing: 'audio file missing: the log records audio but the WAV is not in the project folder',
  no_transcript: 'no transcript: nothing was transcribed (recorded without a model, silent, or not recorded)',
  no_label: 'no label: no label act (spoken, key, click) for this item',
};

/** "26 records; 12 items have no audio, 13 have no label" — gaps counted in words. */
export function describeExportGaps(records: number, gaps: readonly ExportGap[]): string {
  const by = new Map<ExportGapReason, number>();
  for (const g of gaps) by.set(g.reason, (by.get(g.reason) ?? 0) + 1);
  const words: Record<ExportGapReason, string> = {
    no_audio: 'no audio',
    audio_file_missing: 'a missing audio file',
    no_transcript: 'no transcript',
    no_label: 'no label',
  };
  const parts = (['no_audio', 'audio_file_missing', 'no_transcript', 'no_label'] as const)
    .filter((r) => by.has(r))
    .map((r) => `${by.get(r)} ${by.get(r) === 1 ? 'has' : 'have'} ${words[r]}`);
  return `${records} record${records === 1 ? '' : 's'}${parts.length > 0 ? `; ${parts.join(', ')}` : '; nothing missing'}`;
}

/** An item of an export that lacks audio, transcript or label; the record is still written, with nulls. */
export interface ExportGap {
  annotator: string;
  item_id: string;
  reason: ExportGapReason;
}

export function exportGaps(record: Pick<AnyExportRecord, 'annotator' | 'item_id' | 'audio' | 'transcript' | 'final_label'>): ExportGap[] {
  const gaps: ExportGap[] = [];
  const gap = (reason: ExportGapReason): void => {
    gaps.push({ annotator: record.annotator, item_id: record.item_id, reason });
  };
  if (record.audio === null) gap('no_audio');
  else if (record.audio.sha256 === null) gap('audio_file_missing');
  if (record.transcript === null || record.transcript === '') gap('no_transcript');
  if (record.final_label === null) gap('no_label');
  return gaps;
}
