import type { ExportSummary } from '../../../../core/common/export/exportApi';

/** "Exported 20 records; 18 have no audio, 19 have no label (ana)." — the export's own gaps in words, and whose sessions. */
export function exportSummaryWords(summary: ExportSummary): string {
  const who = summary.annotators && summary.annotators.length > 0 ? ` (${summary.annotators.join(', ')})` : '';
  return `Exported ${summary.summary}${who}.`;
}
