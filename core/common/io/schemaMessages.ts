import type { ErrorObject } from 'ajv/dist/2020.js';
import { say, type RefusalMessage, type RefusalValue } from '../refusal/refusalMessage';

/**
 * Ajv's own words for the keywords our schemas use, as catalog messages with Ajv's `params` as values: the English
 * is Ajv's message byte for byte (the CLI does not move), the app says it in the person's language. A keyword not
 * here keeps Ajv's English (test/i18n/schemaMessages.test.ts lists which keywords our schemas can produce).
 */
const AJV_MESSAGES: Record<string, (params: Record<string, unknown>) => RefusalMessage> = {
  additionalProperties: () => say('refusal.schema.additionalProperties'),
  anyOf: () => say('refusal.schema.anyOf'),
  const: () => say('refusal.schema.const'),
  enum: () => say('refusal.schema.enum'),
  format: (p) => say('refusal.schema.format', { format: String(p.format) }),
  minimum: limit,
  maximum: limit,
  exclusiveMinimum: limit,
  exclusiveMaximum: limit,
  maxItems: (p) => say('refusal.schema.maxItems', { limit: String(p.limit) }),
  minItems: (p) => say('refusal.schema.minItems', { limit: String(p.limit) }),
  maxLength: (p) => say('refusal.schema.maxLength', { limit: String(p.limit) }),
  minLength: (p) => say('refusal.schema.minLength', { limit: String(p.limit) }),
  oneOf: () => say('refusal.schema.oneOf'),
  pattern: (p) => say('refusal.schema.pattern', { pattern: String(p.pattern) }),
  propertyNames: () => say('refusal.schema.propertyNames'),
  required: (p) => say('refusal.schema.required', { key: String(p.missingProperty) }),
  type: (p) => say('refusal.schema.type', { type: String(p.type) }),
  uniqueItems: (p) => say('refusal.schema.uniqueItems', { i: String(p.i), j: String(p.j) }),
};

function limit(p: Record<string, unknown>): RefusalMessage {
  return say('refusal.schema.limit', { comparison: String(p.comparison), limit: String(p.limit) });
}

/** The keywords whose Ajv message has a catalog message. */
export const AJV_KEYWORDS_SAID: readonly string[] = Object.keys(AJV_MESSAGES);

/** Ajv's message of one error as a refusal value: a catalog message for a keyword we know, else Ajv's English. */
export function ajvMessage(e: ErrorObject): RefusalValue {
  const known = Object.hasOwn(AJV_MESSAGES, e.keyword) ? AJV_MESSAGES[e.keyword] : undefined;
  return known ? known(e.params as Record<string, unknown>) : (e.message ?? 'is invalid');
}

/** "must be one of "a", "b"": the allowed values as JSON, as both schema readers say it. */
export function oneOfValues(allowed: readonly unknown[]): RefusalMessage {
  return say('refusal.schema.oneOfValues', { allowed: allowed.map((v) => JSON.stringify(v)).join(', ') });
}
