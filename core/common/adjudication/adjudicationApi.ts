/** The adjudication domain of the app API; its handlers are core/node/adjudication/adjudicationHandlers.ts. */
import type { MethodTable } from '../apiSlice/methodSpec';
import { nonEmptyString, nonEmptyStrings, nullableText, oneOf } from '../apiSlice/argChecks';
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
} as const satisfies MethodTable<AdjudicationApi>;
