/** The agreement domain of the app API (the Agreement tab's figures); its handlers are core/node/agreement/agreementHandlers.ts. */
import type { MethodTable } from '../apiSlice/methodSpec';
import type { AlphaResult } from './krippendorff';
import type { TimeOnItemReport } from './timeOnItem';

export interface AgreementReport {
  annotators: string[];
  items: number;
  blind: AlphaResult;
  final: AlphaResult;
  /** per item: each annotator's blind and final label */
  table: Array<{ item_id: string; labels: Record<string, { blind: string | null; final: string | null }> }>;
  /** each annotator's active and wall time on the items she completed (timeOnItem.ts) */
  time_on_item: TimeOnItemReport;
}

export interface AgreementApi {
  agreement(): Promise<AgreementReport>;
}

export const AGREEMENT_METHODS = {
  agreement: { params: [], scope: 'any-page' },
} as const satisfies MethodTable<AgreementApi>;
