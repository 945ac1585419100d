import { ApiError, isAloudMethod, type AloudMethod, type ExportFormat } from './aloudApi';

type ArgCheck = (value: unknown, where: string) => void;

const MAX_TEXT = 100_000;

const nonEmptyString =
  (max = 1000): ArgCheck =>
  (value, where) => {
    if (typeof value !== 'string' || value.trim() === '') throw new ApiError('bad_request', `${where} must be a non-empty string`);
    if (value.length > max) throw new ApiError('bad_request', `${where} is longer than ${max} characters`);
  };
const oneOf =
  (choices: readonly string[]): ArgCheck =>
  (value, where) => {
    if (typeof value !== 'string' || !choices.includes(value)) throw new ApiError('bad_request', `${where} must be one of ${choices.join(', ')}`);
  };
const nullableString: ArgCheck = (value, where) => {
  if (value !== null) nonEmptyString()(value, where);
};
const bytes: ArgCheck = (value, where) => {
  if (!(value instanceof Uint8Array)) throw new ApiError('bad_request', `${where} must be binary audio (a chunk frame)`);
};
const text: ArgCheck = (value, where) => {
  if (typeof value !== 'string') throw new ApiError('bad_request', `${where} must be a string`);
  if (value.length > MAX_TEXT) throw new ApiError('bad_request', `${where} is longer than ${MAX_TEXT} characters`);
};

export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'json', 'csv'];

/** Each method's parameters: name and check. Every transport's server side runs these before a handler. */
const parameters: Record<AloudMethod, ReadonlyArray<readonly [string, ArgCheck]>> = {
  appInfo: [],
  project: [],
  openSession: [['annotator', nonEmptyString(200)]],
  session: [],
  openItem: [['itemId', nonEmptyString()]],
  startRecording: [['device', nullableString]],
  appendAudio: [['frame', bytes]],
  stopRecording: [],
  commitLabel: [
    ['label', nonEmptyString()],
    ['source', oneOf(['click', 'key'])],
  ],
  completeItem: [],
  addNote: [['text', text]],
  exportSession: [['format', oneOf(EXPORT_FORMATS)]],
  agreement: [],
};

/** Checks a call from outside the trusted side: a known method, exactly its arguments, each of the right shape. */
export function checkApiCall(method: unknown, args: unknown): { method: AloudMethod; args: unknown[] } {
  if (!isAloudMethod(method)) throw new ApiError('bad_request', `unknown method ${JSON.stringify(method)}`);
  if (!Array.isArray(args)) throw new ApiError('bad_request', `${method}: arguments must be a list`);
  const params = parameters[method];
  if (args.length !== params.length) {
    throw new ApiError('bad_request', `${method}: expected ${params.length} argument(s) (${params.map(([n]) => n).join(', ') || 'none'}), got ${args.length}`);
  }
  params.forEach(([name, check], i) => check(args[i], `${method}: ${name}`));
  return { method, args };
}
