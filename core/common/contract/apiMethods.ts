import { EXPORT_FORMATS } from '../export/exportFormats';
import { INTEROP_FORMATS } from '../export/interop/interopFormats';
import { Refusal } from './refusal';
import { PATH_KINDS, type AloudApi, type AloudMethod, type SessionPatch } from './aloudApi';

type ArgCheck = (value: unknown, where: string) => void;

const MAX_TEXT = 100_000;

const nonEmptyString =
  (max = 1000): ArgCheck =>
  (value, where) => {
    if (typeof value !== 'string' || value.trim() === '') throw new Refusal('bad_request', `${where} must be a non-empty string`);
    if (value.length > max) throw new Refusal('bad_request', `${where} is longer than ${max} characters`);
  };
const oneOf =
  (choices: readonly string[]): ArgCheck =>
  (value, where) => {
    if (typeof value !== 'string' || !choices.includes(value))
      throw new Refusal('bad_request', `${where} must be one of ${choices.join(', ')}`);
  };
const nullableString: ArgCheck = (value, where) => {
  if (value !== null) nonEmptyString()(value, where);
};
const stepIndex: ArgCheck = (value, where) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 10_000)
    throw new Refusal('bad_request', `${where} must be a step number from 1`);
};
const stepReward: ArgCheck = (value, where) => {
  if (value !== 1 && value !== 0 && value !== -1 && value !== null) throw new Refusal('bad_request', `${where} must be 1, 0, -1 or null`);
};
const bytes: ArgCheck = (value, where) => {
  if (!(value instanceof Uint8Array)) throw new Refusal('bad_request', `${where} must be binary audio (a chunk frame or a WAV)`);
};
const text: ArgCheck = (value, where) => {
  if (typeof value !== 'string') throw new Refusal('bad_request', `${where} must be a string`);
  if (value.length > MAX_TEXT) throw new Refusal('bad_request', `${where} is longer than ${MAX_TEXT} characters`);
};

const nonEmptyStrings =
  (max: number): ArgCheck =>
  (value, where) => {
    if (!Array.isArray(value) || value.length === 0 || value.length > max)
      throw new Refusal('bad_request', `${where} must be a list of 1–${max} strings`);
    value.forEach((v, i) => nonEmptyString(200)(v, `${where}[${i}]`));
  };
const nullableText: ArgCheck = (value, where) => {
  if (value !== null) text(value, where);
};
const boolean: ArgCheck = (value, where) => {
  if (typeof value !== 'boolean') throw new Refusal('bad_request', `${where} must be true or false`);
};
const itemIdsOrNull: ArgCheck = (value, where) => {
  if (value === null) return;
  if (!Array.isArray(value) || value.length > 10_000) throw new Refusal('bad_request', `${where} must be a list of item ids, or null`);
  value.forEach((id, i) => nonEmptyString()(id, `${where}[${i}]`));
};
/** the shape only; aloud.yaml's own validation judges the values */
const thinkAloudPatch: ArgCheck = (value, where) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('bad_request', `${where} must be an object`);
  const types: Record<string, string> = {
    model: 'string',
    chunk_seconds: 'number',
    silence_threshold_dbfs: 'number',
    min_pause_ms: 'number',
    long_pause_ms: 'number',
    require_spoken_label: 'boolean',
  };
  for (const [key, v] of Object.entries(value)) {
    if (!(key in types)) throw new Refusal('bad_request', `${where}: thinkaloud.${key} cannot be changed from the app`);
    if (typeof v !== types[key]) throw new Refusal('bad_request', `${where}: thinkaloud.${key} must be a ${types[key]}`);
  }
};
const newProjectSpec: ArgCheck = (value, where) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('bad_request', `${where} must be an object`);
  const spec = value as Record<string, unknown>;
  const known = new Set(['dir', 'name', 'labels', 'items_file']);
  for (const key of Object.keys(spec)) if (!known.has(key)) throw new Refusal('bad_request', `${where}: unknown field "${key}"`);
  nonEmptyString(4096)(spec.dir, `${where}.dir`);
  nonEmptyString(200)(spec.name, `${where}.name`);
  nullableString(spec.items_file ?? null, `${where}.items_file`);
  if (!Array.isArray(spec.labels) || spec.labels.length === 0 || spec.labels.length > 50)
    throw new Refusal('bad_request', `${where}.labels must list 1–50 labels`);
  spec.labels.forEach((label: unknown, i) => {
    if (typeof label !== 'object' || label === null) throw new Refusal('bad_request', `${where}.labels[${i}] must be an object`);
    const l = label as Record<string, unknown>;
    nonEmptyString(100)(l.name, `${where}.labels[${i}].name`);
    if (l.key !== null && (typeof l.key !== 'string' || l.key.length !== 1))
      throw new Refusal('bad_request', `${where}.labels[${i}].key must be one character or null`);
  });
};
const unitId: ArgCheck = (value, where) => {
  if (typeof value !== 'string' || !/^u(0|[1-9]\d{0,8})(\.s(0|[1-9]\d{0,5}))?$/.test(value))
    throw new Refusal('bad_request', `${where} must be a unit id such as u3 or u3.s1`);
};
/** a protocol to code: whose (the annotator) and which item */
const protocolParams: ReadonlyArray<readonly [string, ArgCheck]> = [
  ['annotator', nonEmptyString(200)],
  ['itemId', nonEmptyString()],
];
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

const nonNegativeInteger: ArgCheck = (value, where) => {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new Refusal('bad_request', `${where} must be a whole number ≥ 0`);
};
const offsetOrNull: ArgCheck = (value, where) => {
  if (value !== null && (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_TEXT))
    throw new Refusal('bad_request', `${where} must be a text offset (a whole number ≥ 0) or null`);
};
const nonNegativeNumber: ArgCheck = (value, where) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Refusal('bad_request', `${where} must be a number ≥ 0`);
};

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

/**
 * What a call may touch, for hosts that serve several pages at once (browser mode): `any-page` reads the app or
 * the project, `session-page` acts on the open session (only the page that opened it), `takes-session` opens one.
 */
export type MethodScope = 'any-page' | 'session-page' | 'takes-session';

export interface MethodSpec {
  /** each parameter's name and check, in order; every host runs them before the handler */
  params: ReadonlyArray<readonly [string, ArgCheck]>;
  scope: MethodScope;
  /** the one argument is raw bytes (sent as a binary body over HTTP, a Buffer over IPC) */
  binary?: true;
  /** the answer is a SessionPatch (aloudApi.ts): what the act changed, to apply to the view the page holds (sessionPatch.ts) */
  answer?: 'session-patch';
}

/** A method answers with a patch exactly when the table says so: TypeScript holds the two together. */
type AnswerSpec<M extends AloudMethod> =
  Awaited<ReturnType<AloudApi[M]>> extends SessionPatch ? { answer: 'session-patch' } : { answer?: never };

/**
 * THE method table of the app API: adding a method is an entry here (TypeScript insists, because the table is keyed
 * by AloudApi) plus its handler in AppService. The dispatcher, both transports and the client are derived from it.
 */
export const API_METHODS: { readonly [M in AloudMethod]: MethodSpec & AnswerSpec<M> } = {
  appInfo: { params: [], scope: 'any-page' },
  project: { params: [], scope: 'any-page' },
  openSession: { params: [['annotator', nonEmptyString(200)]], scope: 'takes-session' },
  reviewSession: {
    params: [
      ['annotator', nonEmptyString(200)],
      ['reviewer', nonEmptyString(200)],
    ],
    scope: 'takes-session',
  },
  session: { params: [], scope: 'session-page' },
  sessionItem: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  openItem: { params: [['itemId', nonEmptyString()]], scope: 'session-page', answer: 'session-patch' },
  startRecording: { params: [['device', nullableString]], scope: 'session-page', answer: 'session-patch' },
  appendAudio: { params: [['frame', bytes]], scope: 'session-page', binary: true },
  stopRecording: { params: [], scope: 'session-page', answer: 'session-patch' },
  commitLabel: {
    params: [
      ['label', nonEmptyString()],
      ['source', oneOf(['click', 'key'])],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  confirmLabelChange: {
    params: [
      ['label', nonEmptyString()],
      ['source', oneOf(['click', 'key'])],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  completeItem: { params: [], scope: 'session-page', answer: 'session-patch' },
  addNote: { params: [['text', text]], scope: 'session-page', answer: 'session-patch' },
  showReasoning: { params: [], scope: 'session-page' },
  judgeStep: {
    params: [
      ['index', stepIndex],
      ['reward', stepReward],
      ['source', oneOf(['click', 'key'])],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  selectText: {
    params: [
      ['start', offsetOrNull],
      ['end', offsetOrNull],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  logCue: {
    params: [
      ['cue', oneOf(['keep_talking'])],
      ['silenceMs', nonNegativeNumber],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  exportSession: { params: [['format', oneOf(EXPORT_FORMATS)]], scope: 'session-page' },
  agreement: { params: [], scope: 'any-page' },
  goldLabels: { params: [], scope: 'any-page' },
  openRoom: {
    params: [
      ['itemIds', itemIdsOrNull],
      ['lan', boolean],
    ],
    scope: 'any-page',
  },
  room: { params: [], scope: 'any-page' },
  revealRoomItem: { params: [['itemId', nonEmptyString()]], scope: 'any-page' },
  removeRoomMember: { params: [['memberId', nonEmptyString(100)]], scope: 'any-page' },
  closeRoom: { params: [], scope: 'any-page' },
  writeBackRoom: { params: [['code', nonEmptyString(20)]], scope: 'any-page' },
  // a shadow room shows the open session: only the page that opened it opens, steers and closes the room
  openShadowRoom: { params: [['lan', boolean]], scope: 'session-page' },
  shadowRoom: { params: [], scope: 'session-page' },
  shareShadowAudio: { params: [['on', boolean]], scope: 'session-page' },
  removeShadowTrainee: { params: [['memberId', nonEmptyString(100)]], scope: 'session-page' },
  closeShadowRoom: { params: [], scope: 'session-page' },
  annotators: { params: [], scope: 'any-page' },
  exportProject: {
    params: [
      ['format', oneOf([...EXPORT_FORMATS, ...INTEROP_FORMATS])],
      ['annotator', nullableString],
    ],
    scope: 'session-page',
  },
  models: { params: [['rehash', boolean]], scope: 'any-page' },
  downloadModel: { params: [['name', nonEmptyString(200)]], scope: 'session-page' },
  cancelModelDownload: { params: [['name', nonEmptyString(200)]], scope: 'session-page' },
  importModel: { params: [['file', nonEmptyString(4096)]], scope: 'session-page' },
  removeModel: { params: [['name', nonEmptyString(200)]], scope: 'session-page' },
  updateThinkAloud: { params: [['patch', thinkAloudPatch]], scope: 'session-page' },
  correctSegment: {
    params: [
      ['itemId', nonEmptyString()],
      ['utterance', nonNegativeInteger],
      ['segment', nonNegativeInteger],
      ['text', text],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  rederiveLabelsFromCorrections: { params: [['itemId', nonEmptyString()]], scope: 'session-page', answer: 'session-patch' },
  labelFromCorrections: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  transcribeLater: { params: [['itemId', nullableString]], scope: 'session-page', answer: 'session-patch' },
  recentProjects: { params: [], scope: 'any-page' },
  choosePath: { params: [['kind', oneOf(PATH_KINDS)]], scope: 'session-page' },
  openProject: { params: [['dir', nonEmptyString(4096)]], scope: 'session-page' },
  createProject: { params: [['spec', newProjectSpec]], scope: 'session-page' },
  importItems: {
    params: [
      ['file', nonEmptyString(4096)],
      ['mode', oneOf(['append', 'replace'])],
    ],
    scope: 'session-page',
  },
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
  collectPack: { params: [['file', nonEmptyString(4096)]], scope: 'session-page' },
  exportDeidentified: {
    params: [
      ['format', oneOf([...EXPORT_FORMATS, ...INTEROP_FORMATS])],
      ['annotator', nullableString],
    ],
    scope: 'session-page',
  },
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
