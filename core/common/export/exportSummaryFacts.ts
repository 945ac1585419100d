import type { DeidentificationReceipt } from '../deidentified/deidentifyReceipt';
import type { HiddenAudio } from '../deidentified/deidentifyTerms';
import type { ExportGap, ExportGapReason } from './exportRecord';

/**
 * What an export's summary says, as facts: the app says them in the person's language (renderer/src/features/export),
 * while `ExportSummary.summary` keeps the same in English as the CLI prints it.
 */
export interface ExportSummaryFacts {
  records: number;
  /** records lacking each thing (a reason absent: none lack it) */
  gaps: Partial<Record<ExportGapReason, number>>;
  /** a folder for another tool: the recordings its files hold, of how many annotators, in how many files */
  interop?: { recordings: number; annotators: number; files: number };
  /** a de-identified export: the list's version, spans hidden per class, how the audio was hidden */
  deidentification?: { list_version: string; spans_by_class: Record<string, number>; audio: HiddenAudio; margin_ms: number };
  /** the project has deidentify.yaml and this export is not de-identified */
  not_deidentified?: true;
}

/** The gaps' reasons in the order the summary names them. */
export const EXPORT_GAP_ORDER: readonly ExportGapReason[] = ['no_audio', 'audio_file_missing', 'no_transcript', 'no_label'];

/** An export's summary facts, from its receipt (records or interop) and whether the project wanted it de-identified. */
export function exportSummaryFacts(
  receipt: { records: number; gaps: readonly ExportGap[]; deidentification?: DeidentificationReceipt },
  options: { interop?: { recordings: number; annotators: number; files: number }; notDeidentified: boolean },
): ExportSummaryFacts {
  const gaps: Partial<Record<ExportGapReason, number>> = {};
  for (const g of receipt.gaps) gaps[g.reason] = (gaps[g.reason] ?? 0) + 1;
  const d = receipt.deidentification;
  return {
    records: receipt.records,
    gaps,
    ...(options.interop ? { interop: options.interop } : {}),
    ...(d
      ? {
          deidentification: {
            list_version: d.list_version,
            spans_by_class: { ...d.spans_by_class },
            audio: d.audio,
            margin_ms: d.margin_ms,
          },
        }
      : {}),
    ...(options.notDeidentified ? { not_deidentified: true as const } : {}),
  };
}
