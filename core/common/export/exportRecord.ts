import type { Item } from '../items/item';
import type { ItemSessionState, LabelSource } from '../session/itemState';
import exportRecordSchemaV1 from './exportRecord.v1.schema.json';

export const EXPORT_SCHEMA_VERSION = 1;

/** The export contract (JSON Schema Draft 2020-12), versioned in the repo next to this file. */
export const exportRecordJsonSchema: Record<string, unknown> = exportRecordSchemaV1;

export interface ExportCommitment {
  label: string;
  quote: string;
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

/** Column order of CSV exports and key order of JSON records. */
export const EXPORT_FIELDS = [
  'schema_version', 'project', 'annotator', 'item_id', 'item_text_sha256', 'item_context_sha256',
  'final_label', 'label_source', 'blind_label', 'commitments', 'transcript', 'segments', 'signals',
  'audio', 'model', 'app_version', 'config_sha256', 'started_at', 'completed_at', 'exported_at',
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
  /** sha256 of the WAV at state.audio_path; null when the file is missing */
  audioSha256: string | null;
  appVersion: string;
  configSha256: string;
  exportedAt: string;
}

/** Maps the folded session state to the export record; copies known fields only, so a record is never invented. */
export function buildExportRecord(input: ExportRecordInput): ExportRecordV1 {
  const { state } = input;
  // an empty transcript with no segments cannot tell "silent" from "not transcribed yet": unknown, so null
  const transcribed = state !== null && (state.segments.length > 0 || state.transcript !== '');
  return {
    schema_version: 1,
    project: input.project,
    annotator: input.annotator,
    item_id: input.item.id,
    item_text_sha256: input.itemTextSha256,
    item_context_sha256: input.itemContextSha256,
    final_label: state?.final_label ?? null,
    label_source: state?.label_source ?? null,
    blind_label: state?.blind_label ?? null,
    commitments: (state?.commitments ?? []).map((c) => ({ label: c.label, quote: c.quote, start: c.start, end: c.end, t_ms: c.t_ms, stem: c.stem })),
    transcript: transcribed ? state.transcript : null,
    segments: (state?.segments ?? []).map((s) => ({
      t0_ms: s.t0_ms,
      t1_ms: s.t1_ms,
      text: s.text,
      ...(s.tokens ? { tokens: s.tokens.map((t) => ({ t0_ms: t.t0_ms, t1_ms: t.t1_ms, text: t.text, ...(t.p !== undefined ? { p: t.p } : {}) })) } : {}),
    })),
    signals: state?.signals ? exportSignals(state.signals) : null,
    audio: state?.audio_path ? { path: state.audio_path, sha256: input.audioSha256, duration_ms: state.audio_ms } : null,
    model: state?.model ? { name: state.model.name, sha256: state.model.sha256 === '' ? null : state.model.sha256 } : null,
    app_version: input.appVersion,
    config_sha256: input.configSha256,
    started_at: state?.started_at ?? null,
    completed_at: state?.completed_at ?? null,
    exported_at: input.exportedAt,
  };
}

function exportSignals(s: NonNullable<ItemSessionState['signals']>): ExportSignals {
  return {
    silent_chunks: s.silent_chunks ?? null,
    total_chunks: s.total_chunks ?? null,
    pauses: s.pauses ? { count: s.pauses.count, total_ms: s.pauses.total_ms, longest_ms: s.pauses.longest_ms, long_count: s.pauses.long_count } : null,
    time_to_first_speech_ms: s.time_to_first_speech_ms ?? null,
    filler_count: s.filler_count ?? null,
    fillers_by_term: s.fillers_by_term ? { ...s.fillers_by_term } : null,
    word_count: s.word_count ?? null,
    commitment_count: s.commitment_count ?? null,
    label_changes: s.label_changes ?? null,
    time_to_first_commit_ms: s.time_to_first_commit_ms ?? null,
    time_to_final_commit_ms: s.time_to_final_commit_ms ?? null,
  };
}

export type ExportGapReason = 'no_audio' | 'audio_file_missing' | 'no_transcript' | 'no_label';

/** An item of an export that lacks audio, transcript or label; the record is still written, with nulls. */
export interface ExportGap {
  annotator: string;
  item_id: string;
  reason: ExportGapReason;
}

export function exportGaps(record: ExportRecordV1): ExportGap[] {
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
