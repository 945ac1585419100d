import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { ConfigError, lineAt, readStrictYaml, schemaConfigProblems, type ConfigProblem } from '../project/strictYaml';
import { PATTERN_NAMES, type PatternName } from './deidentifyPatterns';

/** The project's de-identification list, beside aloud.yaml. */
export const DEIDENTIFY_FILE = 'deidentify.yaml';

/** A placeholder class: PERSON, PLACE, ORG or a custom one in capitals ("[PERSON-1]"). */
export const CLASS_PATTERN = '^[A-Z][A-Z0-9_]{0,31}$';

/** One listed term: every occurrence (case-insensitive, on word boundaries) becomes its class's placeholder. */
export interface DeidentifyTerm {
  text: string;
  class: string;
}

/** How a hidden audio span sounds in a de-identified export. */
export type HiddenAudio = 'silence' | 'tone';
export const HIDDEN_AUDIO: readonly HiddenAudio[] = ['silence', 'tone'];

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
    version: { anyOf: [{ type: 'string', minLength: 1, maxLength: 64, pattern: '^\\S(.*\\S)?$' }, { type: 'integer', minimum: 0, maximum: 1_000_000_000 }] },
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

/** Terms are compared as the matcher reads them: case and width folded, spaces collapsed. */
export function foldTerm(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * deidentify.yaml read strictly (plain YAML, no unknown keys, every number bounded) and checked: every term has
 * a letter or digit, no control or invisible character, no leading or trailing spaces, and is listed once.
 * Throws ConfigError with every problem located by key path and line. `version` defaults to "unversioned".
 */
export function parseDeidentifyList(source: string, file = DEIDENTIFY_FILE): DeidentifyList {
  const { value, root, lineCounter } = readStrictYaml(source, file, DEIDENTIFY_FILE);
  if (!validateList(value)) throw new ConfigError(schemaConfigProblems(validateList.errors, file, root, lineCounter));
  const raw = value as { version?: string | number; terms: DeidentifyTerm[]; patterns?: PatternName[]; languages?: Array<'en' | 'de'>; audio?: HiddenAudio; margin_ms?: number };
  const problems: ConfigProblem[] = [];
  const at = (i: number, key: string, message: string): void => {
    problems.push({ file, line: lineAt(root, lineCounter, ['terms', String(i), key]), path: `terms[${i}].${key}`, message });
  };
  const seen = new Map<string, number>();
  raw.terms.forEach((term, i) => {
    if (CONTROL_CHARACTER.test(term.text)) return at(i, 'text', `term ${JSON.stringify(term.text)} contains a control or invisible character`);
    if (term.text !== term.text.trim()) return at(i, 'text', `term ${JSON.stringify(term.text)} has leading or trailing spaces`);
    if (!WORD_CHARACTER.test(term.text)) return at(i, 'text', `term ${JSON.stringify(term.text)} has no letter or digit, so it can never stand on word boundaries`);
    const key = foldTerm(term.text);
    const other = seen.get(key);
    if (other !== undefined) return at(i, 'text', `term ${JSON.stringify(term.text)} is listed twice (also terms[${other}], compared case-insensitively)`);
    seen.set(key, i);
    return undefined;
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    version: raw.version === undefined ? 'unversioned' : String(raw.version),
    terms: raw.terms.map((t) => ({ text: t.text, class: t.class })),
    patterns: raw.patterns ?? [...PATTERN_NAMES],
    languages: raw.languages ?? ['en', 'de'],
    audio: raw.audio ?? 'silence',
    margin_ms: raw.margin_ms ?? DEFAULT_MARGIN_MS,
  };
}
