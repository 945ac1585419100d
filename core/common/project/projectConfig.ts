import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { DEFAULT_STEMS } from '../parser/defaultStems';
import type { LabelDef } from '../parser/parseTypes';
import { validateStemPattern } from '../parser/stemPattern';
import { REASONING_SPLITS } from '../reasoning/reasoningSteps';
import { REASONING_REVEALS, type ReasoningConfig } from '../reasoning/reasoningConfig';
import { DEFAULT_FILLERS, HESITATION_LIST_NAMES, type HesitationLists } from '../signals/hesitationLists';
import { LABEL_MODELS, type LabelModelName } from '../labelModels/labelModel';
import type { LineCounter, Node as YamlNode } from 'yaml';
import { ConfigError, configProblemWords, nodeAt, readStrictYaml, schemaConfigProblems, type ConfigProblem } from './strictYaml';
import { say } from '../refusal/refusalMessage';
import { caselessKey } from '../text/textFold';
import { guidelineProblems, guidelineSchemaProperties } from '../guidelines/guidelines';

export { ConfigError, formatConfigProblem, type ConfigProblem } from './strictYaml';

export interface LabelSchema {
  name: string;
  ordered: boolean;
  labels: LabelDef[];
}

export interface ThinkAloudConfig {
  model: string;
  languages: string[];
  /** language → stem patterns; a language listed here replaces that language's default stems */
  stems: Record<string, string[]>;
  /** the legacy single filler list behind filler_count */
  fillers: string[];
  /** language → hesitation lists that replace that language's built-in ones (signals/hesitationLists.ts) */
  hesitation: Record<string, Partial<HesitationLists>>;
  chunk_seconds: number;
  silence_threshold_dbfs: number;
  min_pause_ms: number;
  long_pause_ms: number;
  /**
   * with the Silero VAD, the least silence that ends an utterance whose speculative final ends a sentence, over a
   * clean pause longer than the speaker's own (ms, 160–300; 300: always the full 300 ms)
   */
  cut_floor_ms: number;
  require_spoken_label: boolean;
  /** how long completing an item waits for its pending transcriptions before it says so */
  complete_wait_seconds: number;
}

/** What a unit of coding is: an utterance as the cutter made it, or a sentence within it. */
export type CodingUnitKind = 'utterance' | 'sentence';
export const CODING_UNIT_KINDS: readonly CodingUnitKind[] = ['utterance', 'sentence'];

/** aloud.yaml `coding`: how protocols are cut into units, and who may see and code what. */
export interface CodingConfig {
  unit: CodingUnitKind;
  /** a coder sees other coders' codes on an item only once they have finished coding it themselves */
  blind: boolean;
  /** a coder may code their own protocols (false: only other annotators') */
  own_protocols: boolean;
}

export function defaultCoding(): CodingConfig {
  return { unit: 'utterance', blind: false, own_protocols: true };
}

/** The causes a lead may give for a disagreement unless aloud.yaml lists its own. */
export const DEFAULT_ADJUDICATION_CAUSES: readonly string[] = [
  'ambiguous text',
  'guideline gap',
  'annotator error',
  'edge case',
  'subjective disagreement',
];

/** aloud.yaml `adjudication`: which items need a lead's decision, and what a decision may say. */
export interface AdjudicationConfig {
  /** pairwise agreement on the final labels below which an item goes to the queue (1: every disagreement) */
  threshold: number;
  /** completed labels an item needs before it can be agreed or adjudicated */
  min_annotators: number;
  /** unanimous items are accepted as gold without a decision (false: they are queued too) */
  accept_unanimous: boolean;
  causes: string[];
  /** the lead sees "Annotator 1, 2, 3" instead of names, in an order of its own per item */
  blind_names: boolean;
  /** time on an item below which the side-by-side view marks the decision as fast */
  fast_decision_seconds: number;
  /** the queue's order: lowest agreement first (ties: least certain first), or least certain first (ties: agreement) */
  order: AdjudicationOrder;
  /** the label model whose posterior says how uncertain each item is */
  label_model: LabelModelName;
}

export type AdjudicationOrder = 'agreement' | 'uncertainty';
export const ADJUDICATION_ORDERS: readonly AdjudicationOrder[] = ['agreement', 'uncertainty'];

export function defaultAdjudication(): AdjudicationConfig {
  return {
    threshold: 1,
    min_annotators: 2,
    accept_unanimous: true,
    causes: [...DEFAULT_ADJUDICATION_CAUSES],
    blind_names: false,
    fast_decision_seconds: 3,
    order: 'agreement',
    label_model: 'dawid-skene',
  };
}

export interface ProjectConfig {
  name: string;
  schema: LabelSchema;
  /** items file, relative to the project folder */
  items: string;
  thinkaloud: ThinkAloudConfig;
  reasoning: ReasoningConfig;
  coding: CodingConfig;
  adjudication: AdjudicationConfig;
  time_on_item: TimeOnItemConfig;
}

/** `time_on_item.idle_gap_seconds` when aloud.yaml does not give it: a gap between acts over 2 minutes is idle. */
export const DEFAULT_IDLE_GAP_SECONDS = 120;

/** aloud.yaml `time_on_item`: how active time on an item is told from idle time (core/common/session/activeTime.ts). */
export interface TimeOnItemConfig {
  /** a gap between a person's acts longer than this (seconds) is idle and counts as nothing */
  idle_gap_seconds: number;
}

export function defaultThinkAloud(): ThinkAloudConfig {
  return {
    model: 'tiny.en',
    languages: ['en'],
    stems: {},
    fillers: [...DEFAULT_FILLERS],
    hesitation: {},
    chunk_seconds: 1.0,
    silence_threshold_dbfs: -45,
    min_pause_ms: 250,
    long_pause_ms: 1000,
    cut_floor_ms: 200,
    require_spoken_label: true,
    complete_wait_seconds: 15,
  };
}

const stringList = { type: 'array', items: { type: 'string', minLength: 1 } } as const;

/** JSON Schema (Draft 2020-12) of aloud.yaml. Unknown keys are errors; defaults are applied. */
export const projectConfigJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/aloud-project.json',
  title: 'Aloud project (aloud.yaml)',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'schema'],
  properties: {
    name: { type: 'string', minLength: 1 },
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'labels'],
      properties: {
        name: { type: 'string', minLength: 1 },
        ordered: { type: 'boolean', default: false },
        labels: {
          type: 'array',
          minItems: 2,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name'],
            properties: {
              name: { type: 'string', minLength: 1, pattern: '\\S' },
              key: { type: 'string', pattern: '^\\S$' },
              synonyms: {
                type: 'object',
                default: {},
                propertyNames: { pattern: '^[a-z]{2,3}$' },
                additionalProperties: stringList,
              },
              // what the label means, shown beside the item on one key: plain (the project's language) or per language
              ...guidelineSchemaProperties,
            },
          },
        },
      },
    },
    items: { type: 'string', minLength: 1, default: 'items.jsonl' },
    thinkaloud: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        model: { type: 'string', minLength: 1, default: 'tiny.en' },
        languages: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', pattern: '^[a-z]{2,3}$' },
          default: ['en'],
        },
        stems: {
          type: 'object',
          default: {},
          propertyNames: { pattern: '^[a-z]{2,3}$' },
          additionalProperties: { ...stringList, minItems: 1 },
        },
        fillers: { ...stringList, default: [...DEFAULT_FILLERS] },
        hesitation: {
          type: 'object',
          default: {},
          propertyNames: { pattern: '^[a-z]{2,3}$' },
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(HESITATION_LIST_NAMES.map((list) => [list, stringList])),
          },
        },
        // every number is bounded both ways: 1e26 ms is no pause, and 1e-300 s chunks would never end
        chunk_seconds: { type: 'number', minimum: 0.01, maximum: 60, default: 1.0 },
        silence_threshold_dbfs: { type: 'number', maximum: 0, minimum: -120, default: -45 },
        min_pause_ms: { type: 'integer', minimum: 20, maximum: 60_000, default: 250 },
        long_pause_ms: { type: 'integer', minimum: 20, maximum: 600_000, default: 1000 },
        cut_floor_ms: { type: 'integer', minimum: 160, maximum: 300, default: 200 },
        require_spoken_label: { type: 'boolean', default: true },
        complete_wait_seconds: { type: 'number', minimum: 0, maximum: 600, default: 15 },
      },
    },
    reasoning: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        split: { enum: [...REASONING_SPLITS], default: 'auto' },
        reveal: { enum: [...REASONING_REVEALS], default: 'after_blind' },
      },
    },
    coding: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        unit: { enum: [...CODING_UNIT_KINDS], default: 'utterance' },
        blind: { type: 'boolean', default: false },
        own_protocols: { type: 'boolean', default: true },
      },
    },
    adjudication: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        // at 0.5 or more pairwise agreement one label always has a strict majority, so an accepted item has one gold label
        threshold: { type: 'number', minimum: 0.5, maximum: 1, default: 1 },
        min_annotators: { type: 'integer', minimum: 2, maximum: 100, default: 2 },
        accept_unanimous: { type: 'boolean', default: true },
        causes: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', minLength: 1, maxLength: 80, pattern: '\\S' },
          default: [...DEFAULT_ADJUDICATION_CAUSES],
        },
        blind_names: { type: 'boolean', default: false },
        fast_decision_seconds: { type: 'number', minimum: 0, maximum: 3600, default: 3 },
        order: { enum: [...ADJUDICATION_ORDERS], default: 'agreement' },
        label_model: { enum: [...LABEL_MODELS], default: 'dawid-skene' },
      },
    },
    time_on_item: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        // a second at least (a shorter bound would call reading idle), a day at most (a longer one is no bound)
        idle_gap_seconds: { type: 'number', minimum: 1, maximum: 86_400, default: DEFAULT_IDLE_GAP_SECONDS },
      },
    },
  },
} as const;

const ajv = sharedAjv({ allErrors: true, useDefaults: true, strict: true });
const validateConfig = compileOnFirstUse(() => ajv.compile(projectConfigJsonSchema));

/**
 * Parse and validate the text of an aloud.yaml. Returns the config with defaults applied, or
 * throws ConfigError listing every problem with its key path and line.
 */
export function parseProjectConfig(text: string, file = 'aloud.yaml'): ProjectConfig {
  const { value, root, lineCounter } = readStrictYaml(text, file, 'aloud.yaml');
  // i18n-ignore: not English: ConfigError says its problems' catalog lines (each problem's say, test/i18n/schemaMessages.test.ts)
  if (!validateConfig(value)) throw new ConfigError(schemaConfigProblems(validateConfig.errors, file, root, lineCounter));
  const config = value as unknown as ProjectConfig;
  checkConfigRules(config, file, root, lineCounter);
  return config;
}

/** Control characters (NUL first) in names shown on screen and written into exports and file names. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** Keys the label screen already uses: r records (Space, Enter and arrows are not single characters). */
const RESERVED_KEYS = new Set(['r']);

/** Rules JSON Schema cannot say: unique label names and keys, no synonym claimed by two labels. */
function checkConfigRules(config: ProjectConfig, file: string, root: YamlNode | null, lc: LineCounter): void {
  const problems: ConfigProblem[] = [];
  const lineOf = (segments: string[]): number | null => {
    const offset = nodeAt(root, segments)?.range?.[0];
    return offset === undefined ? null : lc.linePos(offset).line;
  };
  const names = new Map<string, number>();
  const keys = new Map<string, number>();
  const synonymOwner = new Map<string, string>();
  config.schema.labels.forEach((label, i) => {
    if (CONTROL_CHARACTER.test(label.name)) {
      problems.push({
        file,
        line: lineOf(['schema', 'labels', String(i), 'name']),
        path: `schema.labels[${i}].name`,
        ...configProblemWords(say('refusal.config.labelControlCharacter', { name: JSON.stringify(label.name) })),
      });
    }
    const folded = caselessKey(label.name);
    if (names.has(folded)) {
      problems.push({
        file,
        line: lineOf(['schema', 'labels', String(i), 'name']),
        path: `schema.labels[${i}].name`,
        ...configProblemWords(say('refusal.config.duplicateLabel', { name: label.name, other: String(names.get(folded)) })),
      });
    }
    names.set(folded, i);
    for (const [part, message] of guidelineProblems(label as unknown as Record<string, unknown>)) {
      problems.push({
        file,
        line: lineOf(['schema', 'labels', String(i), part.split(/[.[]/)[0]!]),
        path: `schema.labels[${i}].${part}`,
        message,
      });
    }
    if (label.key !== undefined) {
      if (keys.has(label.key)) {
        problems.push({
          file,
          line: lineOf(['schema', 'labels', String(i), 'key']),
          path: `schema.labels[${i}].key`,
          ...configProblemWords(say('refusal.config.keyUsed', { key: label.key, other: String(keys.get(label.key)) })),
        });
      }
      keys.set(label.key, i);
    }
  });
  config.schema.labels.forEach((label, i) => {
    for (const [lang, synonyms] of Object.entries(label.synonyms)) {
      for (const synonym of synonyms) {
        const folded = caselessKey(synonym);
        const owner =
          names.has(folded) && names.get(folded) !== i
            ? config.schema.labels[names.get(folded)!]!.name
            : synonymOwner.get(`${lang}:${folded}`);
        if (owner !== undefined && owner !== label.name) {
          problems.push({
            file,
            line: lineOf(['schema', 'labels', String(i), 'synonyms', lang]),
            path: `schema.labels[${i}].synonyms.${lang}`,
            ...configProblemWords(say('refusal.config.synonymOwned', { synonym, owner })),
          });
        }
        synonymOwner.set(`${lang}:${folded}`, label.name);
      }
    }
  });
  for (const [lang, patterns] of Object.entries(config.thinkaloud.stems)) {
    patterns.forEach((pattern, i) => {
      const problem = validateStemPattern(pattern);
      if (problem !== null) {
        problems.push({
          file,
          line: lineOf(['thinkaloud', 'stems', lang, String(i)]),
          path: `thinkaloud.stems.${lang}[${i}]`,
          ...configProblemWords(say('refusal.config.badStemPattern', { problem })),
        });
      }
    });
  }
  for (const [lang, lists] of Object.entries(config.thinkaloud.hesitation)) {
    for (const [list, terms] of Object.entries(lists)) {
      terms.forEach((term, i) => {
        if (!/[\p{L}\p{N}]/u.test(term)) {
          problems.push({
            file,
            line: lineOf(['thinkaloud', 'hesitation', lang, list, String(i)]),
            path: `thinkaloud.hesitation.${lang}.${list}[${i}]`,
            ...configProblemWords(say('refusal.config.noWordToCount', { term: JSON.stringify(term) })),
          });
        }
      });
    }
  }
  config.schema.labels.forEach((label, i) => {
    if (label.key !== undefined && RESERVED_KEYS.has(label.key.toLowerCase())) {
      problems.push({
        file,
        line: lineOf(['schema', 'labels', String(i), 'key']),
        path: `schema.labels[${i}].key`,
        ...configProblemWords(say('refusal.config.recordShortcut', { key: label.key })),
      });
    }
  });
  config.thinkaloud.languages.forEach((lang, i) => {
    if (DEFAULT_STEMS[lang] === undefined && config.thinkaloud.stems[lang] === undefined) {
      problems.push({
        file,
        line: lineOf(['thinkaloud', 'languages', String(i)]),
        path: `thinkaloud.languages[${i}]`,
        ...configProblemWords(say('refusal.config.noCommitPhrases', { lang, builtIn: Object.keys(DEFAULT_STEMS).join(', ') })),
      });
    }
  });
  const itemsPath = config.items.replace(/\\/g, '/');
  if (itemsPath.startsWith('/') || /^[a-zA-Z]:/.test(itemsPath) || itemsPath.split('/').includes('..')) {
    problems.push({
      file,
      line: lineOf(['items']),
      path: 'items',
      ...configProblemWords(say('refusal.config.itemsInsideProject')),
    });
  }
  const causes = new Map<string, number>();
  config.adjudication.causes.forEach((cause, i) => {
    const folded = caselessKey(cause.trim());
    const path = `adjudication.causes[${i}]`;
    if (CONTROL_CHARACTER.test(cause))
      problems.push({
        file,
        line: lineOf(['adjudication', 'causes', String(i)]),
        path,
        ...configProblemWords(say('refusal.config.causeControlCharacter', { cause: JSON.stringify(cause) })),
      });
    // the CLI takes causes as --cause a,b: a comma inside one would split it in two
    else if (cause.includes(','))
      problems.push({
        file,
        line: lineOf(['adjudication', 'causes', String(i)]),
        path,
        ...configProblemWords(say('refusal.config.causeComma', { cause: JSON.stringify(cause) })),
      });
    else if (causes.has(folded))
      problems.push({
        file,
        line: lineOf(['adjudication', 'causes', String(i)]),
        path,
        ...configProblemWords(say('refusal.config.duplicateCause', { cause, other: String(causes.get(folded)) })),
      });
    causes.set(folded, i);
  });
  if (config.thinkaloud.long_pause_ms < config.thinkaloud.min_pause_ms) {
    problems.push({
      file,
      line: lineOf(['thinkaloud', 'long_pause_ms']),
      path: 'thinkaloud.long_pause_ms',
      ...configProblemWords(say('refusal.config.longPauseTooShort', { minPauseMs: String(config.thinkaloud.min_pause_ms) })),
    });
  }
  // i18n-ignore: not English: ConfigError says its problems' catalog lines (each problem's say, test/i18n/schemaMessages.test.ts)
  if (problems.length > 0) throw new ConfigError(problems);
}
