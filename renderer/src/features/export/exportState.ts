import type { ExportSummary, ProjectExportFormat } from '../../../../core/common/export/exportApi';

/** Whose sessions an export takes: the open session's annotator, or every annotator of the project. */
export type ExportScope = 'mine' | 'all';

/** The export as the app's store keeps it: the choices in the toolbar, the run under way and the last summary. */
export interface ExportState {
  format: ProjectExportFormat;
  scope: ExportScope;
  busy: boolean;
  progress: { done: number; total: number } | null;
  done: ExportSummary | null;
}

export const INITIAL_EXPORT: ExportState = { format: 'jsonl', scope: 'mine', busy: false, progress: null, done: null };
