import yaml from 'js-yaml';
import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { ConfigError, configProblemWords, lineAt, readStrictYaml, schemaConfigProblems, type ConfigProblem } from '../project/strictYaml';
import { foldedKey, foldedKeys } from '../text/textFold';
import { HIDDEN_AUDIO, PATTERN_NAMES, type HiddenAudio, type PatternName } from '../deidentified/deidentifyTerms';
import { say, type RefusalMessage } from '../refusal/refusalMessage';

/** The project's de-identification list, beside aloud.yaml. */
export const DEIDENTIFY_FILE = 'deidentify.yaml';

/** A placeholder class: PERSON, PLACE, ORG or a custom one in capitals ("[PERSON-1]"). */
export const CLASS_PATTERN = '^[A-Z][A-Z0-9_]{0,31}$';

/** One listed term: every occurrence (case-insensitive, on word boundaries) becomes its class's placeholder. */
export interface DeidentifyTerm {
  text: string;
  class: string;
}

export interface DeidentifyList {
  /** the list's version as its author states it; receipts carry it beside the file's sha256 */
  version: string;
  terms: DeidentifyTerm[];
  /** built-in patterns in force (default all) */
  patterns: PatternName[];
  /** languages whose date forms the patterns know (default en and de) */
  languages: Array<'en' | 'de'>;
  audio: HiddenAudio;
  /** each hidden audio span is widened by this much on both sides */
  margin_ms: number;
}

export const DEFAULT_MARGIN_MS = 150;
export const MAX_MARGIN_MS = 2000;

export const deidentifyJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/deidentify.json',
  title: 'Aloud de-identification list (deidentify.yaml)',
  type: 'object',
  additionalProperties: false,
  required: ['terms'],
  properties: {
    version: {
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 64, pattern: '^\\S(.*\\S)?$' },
        { type: 'integer', minimum: 0, maximum: 1_000_000_000 },
      ],
    },
    terms: {
      type: 'array',
      maxItems: 100_000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['text', 'class'],
        properties: {
          text: { type: 'string', minLength: 1, maxLength: 200 },
          class: { type: 'string', pattern: CLASS_PATTERN },
        },
      },
    },
    patterns: { type: 'array', uniqueItems: true, items: { enum: [...PATTERN_NAMES] } },
    languages: { type: 'array', uniqueItems: true, minItems: 1, items: { enum: ['en', 'de'] } },
    audio: { enum: [...HIDDEN_AUDIO] },
    margin_ms: { type: 'integer', minimum: 0, maximum: MAX_MARGIN_MS },
  },
} as const;

// compiled when first used (an import costs nothing), its schema checked against the meta-schema by a test
const validateList = compileOnFirstUse(() => sharedAjv({ allErrors: true, strict: true }).compile(deidentifyJsonSchema));

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** Each parsed term's canonical forms, computed once when the list is checked and used again by its matcher. */
const TERM_KEYS = new WeakMap<DeidentifyTerm, string[]>();

/** A term's canonical forms (textFold: one per reading of a capital I). */
export function termKeys(term: DeidentifyTerm): string[] {
  let keys = TERM_KEYS.get(term);
  if (keys === undefined) TERM_KEYS.set(term, (keys = foldedKeys(term.text)));
  return keys;
}

/** Terms are compared as the matcher reads them: in textFold's canonical form (case, width, marks, look-alikes). */
export function foldTerm(text: string): string {
  return foldedKey(text);
}

/** Above this size the list is read by js-yaml first: the yaml package takes seconds for 100 000 terms. */
const LARGE_LIST_CHARS = 256 * 1024;

/**
 * A large list read quickly, or null when it is not a plain tree of JSON-like values (js-yaml refuses unknown tags,
 * duplicate keys and merge keys' excess; an alias shares a node, so a node seen twice sends it to the strict reader).
 */
function quickTree(source: string): unknown {
  let value: unknown;
  try {
    value = yaml.load(source, { schema: yaml.CORE_SCHEMA });
  } catch {
    return null;
  }
  const seen = new Set<object>();
  const plain = (v: unknown): boolean => {
    if (typeof v !== 'object' || v === null) return typeof v !== 'function';
    if (seen.has(v)) return false;
    seen.add(v);
    return Object.values(v).every(plain);
  };
  return plain(value) ? value : null;
}

/**
 * deidentify.yaml read strictly (plain YAML, no unknown keys, every number bounded) and checked: every term has
 * a letter or digit, no control or invisible character, no leading or trailing spaces, and is listed once (in the
 * matcher's canonical form). Throws ConfigError with every problem located by key path and line. `version`
 * defaults to "unversioned". A large list that is well formed is read quickly; any problem is located by the
 * strict reader.
 */
export function parseDeidentifyList(source: string, file = DEIDENTIFY_FILE): DeidentifyList {
  if (source.length > LARGE_LIST_CHARS) {
    const value = quickTree(source);
    if (value !== null && validateList(value)) {
      try {
        return checkedList(value, file, () => null);
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        // located by the strict reader below
      }
    }
  }
  const { value, root, lineCounter } = readStrictYaml(source, file, DEIDENTIFY_FILE);
  // i18n-ignore: not English: ConfigError says its problems' catalog lines (each problem's say, test/i18n/schemaMessages.test.ts)
  if (!validateList(value)) throw new ConfigError(schemaConfigProblems(validateList.errors, file, root, lineCounter));
  return checkedList(value, file, (keys) => lineAt(root, lineCounter, keys));
}

/** The checks a schema cannot make, on a value the schema accepted; `lineOf` locates a key path. */
function checkedList(value: unknown, file: string, lineOf: (keys: string[]) => number | null): DeidentifyList {
  const raw = value as {
    version?: string | number;
    terms: DeidentifyTerm[];
    patterns?: PatternName[];
    languages?: Array<'en' | 'de'>;
    audio?: HiddenAudio;
    margin_ms?: number;
  };
  const problems: ConfigProblem[] = [];
  const at = (i: number, key: string, problem: RefusalMessage): void => {
    problems.push({ file, line: lineOf(['terms', String(i), key]), path: `terms[${i}].${key}`, ...configProblemWords(problem) });
  };
  const seen = new Map<string, number>();
  raw.terms.forEach((term, i) => {
    if (CONTROL_CHARACTER.test(term.text))
      return at(i, 'text', say('refusal.deidentify.termControlCharacter', { term: JSON.stringify(term.text) }));
    if (term.text !== term.text.trim()) return at(i, 'text', say('refusal.deidentify.termSpaces', { term: JSON.stringify(term.text) }));
    if (!WORD_CHARACTER.test(term.text)) return at(i, 'text', say('refusal.deidentify.termNoWord', { term: JSON.stringify(term.text) }));
    const keys = termKeys(term);
    const other = keys.map((k) => seen.get(k)).find((o) => o !== undefined);
    if (other !== undefined)
      return at(i, 'text', say('refusal.deidentify.termTwice', { term: JSON.stringify(term.text), other: String(other) }));
    for (const k of keys) seen.set(k, i);
    return undefined;
  });
  // i18n-ignore: not English: ConfigError says its problems' catalog lines (each problem's say, test/i18n/schemaMessages.test.ts)
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    version: raw.version === undefined ? 'unversioned' : String(raw.version),
    terms: raw.terms.map((t) => {
      const term = { text: t.text, class: t.class };
      TERM_KEYS.set(term, termKeys(t));
      return term;
    }),
    patterns: raw.patterns ?? [...PATTERN_NAMES],
    languages: raw.languages ?? ['en', 'de'],
    audio: raw.audio ?? 'silence',
    margin_ms: raw.margin_ms ?? DEFAULT_MARGIN_MS,
  };
}
