/**
 * The export domain of the app API: the open session, or the project's sessions (one annotator's or everyone's),
 * plain or de-identified; its handlers are core/node/export/exportHandlers.ts.
 */
import type { MethodTable } from '../apiSlice/methodSpec';
import { nullableString, oneOf } from '../apiSlice/argChecks';
import { EXPORT_FORMATS } from './exportFormats';
import { INTEROP_FORMATS } from './interop/interopFormats';
import type { ExportSummaryFacts } from './exportSummaryFacts';

export type ExportFormat = 'jsonl' | 'json' | 'csv';
/** What the Export menu offers: records, or a folder for another tool (core/common/export/interop/interopFormats). */
export type ProjectExportFormat = ExportFormat | 'eaf' | 'textgrid' | 'qdpx' | 'hf' | 'maxqda';

export interface ExportSummary {
  /** where the host wrote the file (the renderer never chooses a path) */
  file: string;
  receipt: string;
  records: number;
  gaps: number;
  /** the gaps in words: "26 records; 12 have no audio, 13 have no label" (English, as the CLI prints it) */
  summary: string;
  /** the same as facts, which the app says in the person's language */
  facts: ExportSummaryFacts;
  sha256: string;
  /** whose sessions the file holds */
  annotators?: string[];
  /** `file` is a folder (the interop formats: the files for the tool and their receipt); absent: a file */
  folder?: boolean;
}

/** an export running: records built of all (the file and receipt are written when done = total) */
export type ExportEvent = { type: 'export_progress'; done: number; total: number };

export interface ExportApi {
  exportSession(format: ExportFormat): Promise<ExportSummary>;
  /** every annotator's session (annotator null) or one annotator's */
  exportProject(format: ProjectExportFormat, annotator: string | null): Promise<ExportSummary>;
  /** the same export, de-identified by the project's deidentify.yaml (placeholders, masked recordings, the receipt says so) */
  exportDeidentified(format: ProjectExportFormat, annotator: string | null): Promise<ExportSummary>;
}

export const EXPORT_METHODS = {
  exportSession: { params: [['format', oneOf(EXPORT_FORMATS)]], scope: 'session-page' },
  exportProject: {
    params: [
      ['format', oneOf([...EXPORT_FORMATS, ...INTEROP_FORMATS])],
      ['annotator', nullableString],
    ],
    scope: 'session-page',
  },
  exportDeidentified: {
    params: [
      ['format', oneOf([...EXPORT_FORMATS, ...INTEROP_FORMATS])],
      ['annotator', nullableString],
    ],
    scope: 'session-page',
  },
} as const satisfies MethodTable<ExportApi>;
