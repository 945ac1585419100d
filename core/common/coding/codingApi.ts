/**
 * The coding domain of the app API: the open session's annotator codes protocols with the project's codebook; its
 * handlers are core/node/coding/codingHandlers.ts.
 */
import type { MethodTable } from '../apiSlice/methodSpec';
import { type ArgCheck, nonEmptyString, oneOf, text } from '../apiSlice/argChecks';
import type { CodeDef } from '../codebook/codebook';
import { Refusal } from '../refusal/refusal';
import type { CodeAgreement } from './codeAgreement';
import type { CodingItemView, CodingOverview } from './codingViews';

/** `agreement --codes` as the Agreement tab gets it: the figures, the codebook it was computed under, the unit rule. */
export type CodeAgreementReport = CodeAgreement & { codebook_version: string | null; exclusive: boolean; unit: string };

export interface CodingApi {
  /** coding: the codebook, the coding settings, the protocols with this coder's progress, the in-vivo proposals */
  codingOverview(): Promise<CodingOverview>;
  /** one annotator's protocol of an item as this coder may see it (others' codes only when blind coding allows) */
  codingItem(annotator: string, itemId: string): Promise<CodingItemView>;
  /** apply, remove or toggle a code on a unit (a code_applied / code_removed event in the coder's own log) */
  codeUnit(
    annotator: string,
    itemId: string,
    unit: string,
    code: string,
    action: 'apply' | 'remove' | 'toggle',
    source: 'key' | 'click',
  ): Promise<CodingItemView>;
  /** the coder's memo on a code standing on a unit ('' clears it) */
  writeCodingMemo(annotator: string, itemId: string, unit: string, code: string, text: string): Promise<CodingItemView>;
  /** words of a unit proposed as a new code (in vivo); the lead adds it to the codebook */
  proposeCode(annotator: string, itemId: string, unit: string, quote: string): Promise<CodingItemView>;
  /** the coder has finished coding the protocol (in blind coding, the others' codes may then be seen) */
  finishCoding(annotator: string, itemId: string): Promise<CodingItemView>;
  /** takes back the coder's last code act; answers with the protocol it was on */
  undoCoding(): Promise<CodingItemView>;
  /** adds a code to codebook.yaml (validated like the file; its comments kept) */
  addCode(code: CodeDef): Promise<CodingOverview>;
  /** agreement on codes: α per code, overall when exclusive, the units coders disagree on, codes beside labels and pauses */
  codeAgreement(): Promise<CodeAgreementReport>;
  /**
   * the lead sees every coder's codes, on items she has not finished coding too (blind coding hides them until then):
   * logged in her own log (codings_revealed); her own codes from then on are not blind. Answers the agreement as she now sees it.
   */
  revealCodingsAsLead(): Promise<CodeAgreementReport>;
}

const unitId: ArgCheck = (value, where) => {
  if (typeof value !== 'string' || !/^u(0|[1-9]\d{0,8})(\.s(0|[1-9]\d{0,5}))?$/.test(value))
    throw new Refusal('bad_request', `${where} must be a unit id such as u3 or u3.s1`);
};
/** a protocol to code: whose (the annotator) and which item */
const protocolParams = [
  ['annotator', nonEmptyString(200)],
  ['itemId', nonEmptyString()],
] as const;
/** a new code: the codebook's own validation judges the values */
const codeSpec: ArgCheck = (value, where) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('bad_request', `${where} must be an object`);
  const spec = value as Record<string, unknown>;
  const known = new Set(['name', 'definition', 'example', 'counter_example', 'parent', 'key']);
  for (const key of Object.keys(spec)) if (!known.has(key)) throw new Refusal('bad_request', `${where}: unknown field "${key}"`);
  nonEmptyString(200)(spec.name, `${where}.name`);
  text(spec.definition, `${where}.definition`);
  for (const key of ['example', 'counter_example', 'parent', 'key']) if (spec[key] !== undefined) text(spec[key], `${where}.${key}`);
};

export const CODING_METHODS = {
  codingOverview: { params: [], scope: 'session-page' },
  codingItem: { params: [...protocolParams], scope: 'session-page' },
  codeUnit: {
    params: [
      ...protocolParams,
      ['unit', unitId],
      ['code', nonEmptyString(200)],
      ['action', oneOf(['apply', 'remove', 'toggle'])],
      ['source', oneOf(['key', 'click'])],
    ],
    scope: 'session-page',
  },
  writeCodingMemo: { params: [...protocolParams, ['unit', unitId], ['code', nonEmptyString(200)], ['text', text]], scope: 'session-page' },
  proposeCode: { params: [...protocolParams, ['unit', unitId], ['quote', nonEmptyString(1000)]], scope: 'session-page' },
  finishCoding: { params: [...protocolParams], scope: 'session-page' },
  undoCoding: { params: [], scope: 'session-page' },
  addCode: { params: [['code', codeSpec]], scope: 'session-page' },
  codeAgreement: { params: [], scope: 'session-page' },
  revealCodingsAsLead: { params: [], scope: 'session-page' },
} as const satisfies MethodTable<CodingApi>;
