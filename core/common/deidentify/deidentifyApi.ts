/** The de-identification review of the app API; its handlers are core/node/deidentify/deidentifyHandlers.ts. */
import type { MethodTable } from '../apiSlice/methodSpec';
import { type ArgCheck, nonEmptyString, nonNegativeInteger, oneOf } from '../apiSlice/argChecks';
import { Refusal } from '../refusal/refusal';
import type { SpanRef } from './deidentifyRecord';
import type { ReviewDecisionKind } from './reviewDecisions';
import type { DeidentifyReviewView } from './reviewView';

export interface DeidentifyApi {
  /** what a de-identified export would hide in one item of the open session, with the review decisions in force */
  deidentifyReview(itemId: string): Promise<DeidentifyReviewView>;
  /** the open session's annotator accepts or rejects a match, or adds a span (words of one segment) with its class */
  decideDeidentify(itemId: string, decision: ReviewDecisionKind, span: SpanRef, cls: string): Promise<DeidentifyReviewView>;
}

const spanRef: ArgCheck = (value, where) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Refusal('bad_request', `${where} must be {utterance, segment, layer, start, end}`);
  const span = value as Record<string, unknown>;
  for (const key of Object.keys(span))
    if (!['utterance', 'segment', 'layer', 'start', 'end'].includes(key))
      throw new Refusal('bad_request', `${where}: unknown field "${key}"`);
  for (const key of ['utterance', 'segment', 'start', 'end']) nonNegativeInteger(span[key], `${where}.${key}`);
  oneOf(['verbatim', 'corrected'])(span.layer, `${where}.layer`);
};

export const DEIDENTIFY_METHODS = {
  deidentifyReview: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  decideDeidentify: {
    params: [
      ['itemId', nonEmptyString()],
      ['decision', oneOf(['accept', 'reject', 'add'])],
      ['span', spanRef],
      ['cls', nonEmptyString(32)],
    ],
    scope: 'session-page',
  },
} as const satisfies MethodTable<DeidentifyApi>;
