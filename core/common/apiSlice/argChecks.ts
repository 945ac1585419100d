import { Refusal } from '../refusal/refusal';

/** Checks one argument of a call from outside the trusted side; refuses (bad_request) naming where. */
export type ArgCheck = (value: unknown, where: string) => void;

/** the longest text a call may carry (a note, a correction, a memo) */
export const MAX_TEXT = 100_000;

export const nonEmptyString =
  (max = 1000): ArgCheck =>
  (value, where) => {
    if (typeof value !== 'string' || value.trim() === '') throw new Refusal('bad_request', `${where} must be a non-empty string`);
    if (value.length > max) throw new Refusal('bad_request', `${where} is longer than ${max} characters`);
  };
export const oneOf =
  (choices: readonly string[]): ArgCheck =>
  (value, where) => {
    if (typeof value !== 'string' || !choices.includes(value))
      throw new Refusal('bad_request', `${where} must be one of ${choices.join(', ')}`);
  };
export const nullableString: ArgCheck = (value, where) => {
  if (value !== null) nonEmptyString()(value, where);
};
export const bytes: ArgCheck = (value, where) => {
  if (!(value instanceof Uint8Array)) throw new Refusal('bad_request', `${where} must be binary audio (a chunk frame or a WAV)`);
};
export const text: ArgCheck = (value, where) => {
  if (typeof value !== 'string') throw new Refusal('bad_request', `${where} must be a string`);
  if (value.length > MAX_TEXT) throw new Refusal('bad_request', `${where} is longer than ${MAX_TEXT} characters`);
};

export const nonEmptyStrings =
  (max: number): ArgCheck =>
  (value, where) => {
    if (!Array.isArray(value) || value.length === 0 || value.length > max)
      throw new Refusal('bad_request', `${where} must be a list of 1–${max} strings`);
    value.forEach((v, i) => nonEmptyString(200)(v, `${where}[${i}]`));
  };
export const nullableText: ArgCheck = (value, where) => {
  if (value !== null) text(value, where);
};
export const boolean: ArgCheck = (value, where) => {
  if (typeof value !== 'boolean') throw new Refusal('bad_request', `${where} must be true or false`);
};
export const nonNegativeInteger: ArgCheck = (value, where) => {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new Refusal('bad_request', `${where} must be a whole number ≥ 0`);
};
export const offsetOrNull: ArgCheck = (value, where) => {
  if (value !== null && (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_TEXT))
    throw new Refusal('bad_request', `${where} must be a text offset (a whole number ≥ 0) or null`);
};
export const nonNegativeNumber: ArgCheck = (value, where) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Refusal('bad_request', `${where} must be a number ≥ 0`);
};
