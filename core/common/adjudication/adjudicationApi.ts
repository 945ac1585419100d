/** The adjudication domain of the app API; its handlers are core/node/adjudication/adjudicationHandlers.ts. */
import type { MethodTable } from '../apiSlice/methodSpec';
import { bytes, nonEmptyString, nonEmptyStrings, nullableText, oneOf } from '../apiSlice/argChecks';
import type { AdjudicationItemView, AdjudicationQueueView } from './adjudicationViews';

export interface AdjudicationApi {
  /** items an adjudicator assigned to the open session's annotator, in the order assigned (the Label screen shows them first) */
  assignedItems(): Promise<string[]>;
  /** the lead's adjudication queue (annotators by shown name only: "Annotator n" with adjudication.blind_names) */
  adjudicationQueue(): Promise<AdjudicationQueueView>;
  /** one item side by side: each annotator's protocol, commit phrase, changes of mind, time on item, the decisions */
  adjudicationItem(itemId: string): Promise<AdjudicationItemView>;
  /** the open session's annotator decides (or revises) the item's gold label, in her own adjudication log */
  decideGoldLabel(
    itemId: string,
    label: string,
    confidence: string,
    causes: string[],
    rationale: string | null,
    guidelineFlag: string | null,
  ): Promise<AdjudicationItemView>;
  /** the lead is about to speak her rationale for this item (the recording that follows is for it) */
  beginSpokenRationale(itemId: string): Promise<null>;
  /** her spoken rationale as a WAV: transcribed verbatim, held (not yet kept) until she decides with it */
  spokenRationaleAudio(wav: Uint8Array): Promise<SpokenRationaleView>;
  /** decides (or revises) the item's gold label with the spoken rationale transcribed for it; the WAV is kept then */
  decideGoldLabelSpoken(
    itemId: string,
    label: string,
    confidence: string,
    causes: string[],
    guidelineFlag: string | null,
  ): Promise<AdjudicationItemView>;
}

/** A spoken rationale as transcribed, before the decision it goes with. */
export interface SpokenRationaleView {
  item_id: string;
  text: string;
  audio_ms: number;
}

export const ADJUDICATION_METHODS = {
  assignedItems: { params: [], scope: 'session-page' },
  adjudicationQueue: { params: [], scope: 'session-page' },
  adjudicationItem: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  decideGoldLabel: {
    params: [
      ['itemId', nonEmptyString()],
      ['label', nonEmptyString(200)],
      ['confidence', oneOf(['high', 'medium', 'low'])],
      ['causes', nonEmptyStrings(20)],
      ['rationale', nullableText],
      ['guidelineFlag', nullableText],
    ],
    scope: 'session-page',
  },
  beginSpokenRationale: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  spokenRationaleAudio: { params: [['wav', bytes]], scope: 'session-page', binary: true },
  decideGoldLabelSpoken: {
    params: [
      ['itemId', nonEmptyString()],
      ['label', nonEmptyString(200)],
      ['confidence', oneOf(['high', 'medium', 'low'])],
      ['causes', nonEmptyStrings(20)],
      ['guidelineFlag', nullableText],
    ],
    scope: 'session-page',
  },
} as const satisfies MethodTable<AdjudicationApi>;
