import type { ExportGap } from '../exportRecord';
import type { DeidentificationReceipt } from '../../deidentified/deidentifyReceipt';

/** Exports for the tools researchers work in: ELAN, Praat, REFI-QDA (ATLAS.ti, NVivo, MAXQDA, QualCoder), Hugging Face, MAXQDA/NVivo transcripts. */
export type InteropFormat = 'eaf' | 'textgrid' | 'qdpx' | 'hf' | 'maxqda';
export const INTEROP_FORMATS: readonly InteropFormat[] = ['eaf', 'textgrid', 'qdpx', 'hf', 'maxqda'];

export function isInteropFormat(format: string): format is InteropFormat {
  return (INTEROP_FORMATS as readonly string[]).includes(format);
}

/** Which tool opens each format, in words (CLI help, app menu, README). */
export const INTEROP_FORMAT_TITLES: Readonly<Record<InteropFormat, string>> = {
  eaf: 'ELAN (.eaf)',
  textgrid: 'Praat (.TextGrid)',
  qdpx: 'REFI-QDA project (.qdpx)',
  hf: 'Hugging Face dataset',
  maxqda: 'MAXQDA/NVivo transcripts',
};

/** One file an interop export wrote, relative to its folder ("/" separated). */
export interface InteropFileEntry {
  path: string;
  sha256: string;
  bytes: number;
}

/** `<format>.receipt.json` in the export folder, written last: every file the export wrote, with its sha256. */
export interface InteropReceipt {
  receipt_version: 1;
  kind: 'interop';
  format: InteropFormat;
  /** the export record schema the files were made from */
  schema_version: number;
  project: string;
  /** records (annotator × item) the export was made from, and those of them with a recording */
  records: number;
  recordings: number;
  annotators: string[];
  files: InteropFileEntry[];
  /** records the files cannot carry or carry in part: no audio (no ELAN/Praat/audio source), a missing or changed WAV */
  gaps: ExportGap[];
  warnings: string[];
  app_version: string;
  created_at: string;
  /** present only on a de-identified export (core/common/deidentify) */
  deidentification?: DeidentificationReceipt;
}

export function interopReceiptFileName(format: InteropFormat): string {
  return `${format}.receipt.json`;
}
