import { ADJUDICATION_METHODS } from '../adjudication/adjudicationApi';
import { AGREEMENT_METHODS } from '../agreement/agreementApi';
import type { MethodSpec } from '../apiSlice/methodSpec';
import { CODING_METHODS } from '../coding/codingApi';
import { DEIDENTIFY_METHODS } from '../deidentify/deidentifyApi';
import { EXPORT_METHODS } from '../export/exportApi';
import { GOLD_METHODS } from '../labelModels/goldApi';
import { MODELS_METHODS } from '../models/modelsApi';
import { PACKS_METHODS } from '../packs/packsApi';
import { PROJECT_METHODS } from '../project/projectApi';
import { Refusal } from '../refusal/refusal';
import { ROOMS_METHODS } from '../rooms/roomsApi';
import { SESSION_METHODS, type SessionPatch } from '../session/sessionApi';
import { SETTINGS_METHODS } from '../settings/settingsApi';
import type { AloudApi, AloudMethod } from './aloudApi';

export type { MethodScope, MethodSpec } from '../apiSlice/methodSpec';

/** The domains' argument tables, one per slice of AloudApi (aloudApi.ts), each declared beside its domain's code. */
export const API_SLICES = {
  settings: SETTINGS_METHODS,
  project: PROJECT_METHODS,
  session: SESSION_METHODS,
  export: EXPORT_METHODS,
  agreement: AGREEMENT_METHODS,
  gold: GOLD_METHODS,
  rooms: ROOMS_METHODS,
  models: MODELS_METHODS,
  packs: PACKS_METHODS,
  coding: CODING_METHODS,
  deidentify: DEIDENTIFY_METHODS,
  adjudication: ADJUDICATION_METHODS,
} as const;

/** A method answers with a patch exactly when the table says so: TypeScript holds the two together. */
type AnswerSpec<M extends AloudMethod> =
  Awaited<ReturnType<AloudApi[M]>> extends SessionPatch ? { answer: 'session-patch' } : { answer?: never };

/**
 * THE method table of the app API: the union of the slices' tables (a method in two slices is caught by
 * test/core/common/contract/apiComposition.test.ts). The dispatcher, both transports and the client are derived from it.
 */
export const API_METHODS: { readonly [M in AloudMethod]: MethodSpec & AnswerSpec<M> } = {
  ...SETTINGS_METHODS,
  ...PROJECT_METHODS,
  ...SESSION_METHODS,
  ...EXPORT_METHODS,
  ...AGREEMENT_METHODS,
  ...GOLD_METHODS,
  ...ROOMS_METHODS,
  ...MODELS_METHODS,
  ...PACKS_METHODS,
  ...CODING_METHODS,
  ...DEIDENTIFY_METHODS,
  ...ADJUDICATION_METHODS,
};

/** The method names, in table order. */
export const ALOUD_METHODS = Object.keys(API_METHODS) as readonly AloudMethod[];

/** The acts on the open session: each answers with a SessionPatch. */
export const SESSION_PATCH_METHODS: readonly AloudMethod[] = ALOUD_METHODS.filter(
  (method) => API_METHODS[method].answer === 'session-patch',
);

export function isAloudMethod(name: unknown): name is AloudMethod {
  return typeof name === 'string' && Object.hasOwn(API_METHODS, name);
}

/** Checks a call from outside the trusted side: a known method, exactly its arguments, each of the right shape. */
export function checkApiCall(method: unknown, args: unknown): { method: AloudMethod; args: unknown[] } {
  if (!isAloudMethod(method)) throw new Refusal('bad_request', `unknown method ${JSON.stringify(method) ?? String(method)}`);
  if (!Array.isArray(args)) throw new Refusal('bad_request', `${method}: arguments must be a list`);
  const { params } = API_METHODS[method];
  if (args.length !== params.length) {
    throw new Refusal(
      'bad_request',
      `${method}: expected ${params.length} argument(s) (${params.map(([n]) => n).join(', ') || 'none'}), got ${args.length}`,
    );
  }
  params.forEach(([name, check], i) => check(args[i], `${method}: ${name}`));
  return { method, args };
}

/** The typed API over one call function: every method of the table, none written out by hand. */
export function apiOverCall(call: (method: AloudMethod, args: unknown[]) => Promise<unknown>): AloudApi {
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of ALOUD_METHODS) api[method] = (...args) => call(method, args);
  return api as unknown as AloudApi;
}
