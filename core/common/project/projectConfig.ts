import type { ErrorObject } from 'ajv/dist/2020.js';
import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { DEFAULT_STEMS } from '../parser/commitPhrase';
import { validateStemPattern } from '../parser/stemPattern';
import { REASONING_SPLITS, type ReasoningSplit } from '../reasoning/reasoningSteps';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Node as YamlNode } from 'yaml';

/** One label of the annotation schema, e.g. Polite with key "1" and per-language synonyms. */
export interface LabelDef {
  name: string;
  key?: string;
  /** language code → synonyms, e.g. { de: ["höflich"] } */
  synonyms: Record<string, string[]>;
}

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
  fillers: string[];
  chunk_seconds: number;
  silence_threshold_dbfs: number;
  min_pause_ms: number;
  long_pause_ms: number;
  require_spoken_label: boolean;
  /** how long completing an item waits for its pending transcriptions before it says so */
  complete_wait_seconds: number;
}

/** When the Label screen shows a model's reasoning: after the annotator's own (blind) label, always, or never. */
export type ReasoningReveal = 'after_blind' | 'always' | 'never';
export const REASONING_REVEALS: readonly ReasoningReveal[] = ['after_blind', 'always', 'never'];

/** aloud.yaml `reasoning`: how a model's reasoning text becomes steps, and when the annotator sees it. */
export interface ReasoningConfig {
  split: ReasoningSplit;
  reveal: ReasoningReveal;
}

export function defaultReasoning(): ReasoningConfig {
  return { split: 'auto', reveal: 'after_blind' };
}

export interface ProjectConfig {
  name: string;
  schema: LabelSchema;
  /** items file, relative to the project folder */
  items: string;
  thinkaloud: ThinkAloudConfig;
  reasoning: ReasoningConfig;
}

export const DEFAULT_FILLERS: readonly string[] = [
  'um', 'uh', 'hmm', 'er', 'like', 'i guess', 'maybe', 'i think', 'sort of', 'kind of',
];

export function defaultThinkAloud(): ThinkAloudConfig {
  return {
    model: 'tiny.en',
    languages: ['en'],
    stems: {},
    fillers: [...DEFAULT_FILLERS],
    chunk_seconds: 1.0,
    silence_threshold_dbfs: -45,
    min_pause_ms: 250,
    long_pause_ms: 1000,
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
        // every number is bounded both ways: 1e26 ms is no pause, and 1e-300 s chunks would never end
        chunk_seconds: { type: 'number', minimum: 0.01, maximum: 60, default: 1.0 },
        silence_threshold_dbfs: { type: 'number', maximum: 0, minimum: -120, default: -45 },
        min_pause_ms: { type: 'integer', minimum: 20, maximum: 60_000, default: 250 },
        long_pause_ms: { type: 'integer', minimum: 20, maximum: 600_000, default: 1000 },
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
  },
} as const;

/** A problem in a configuration file, located by key path and (where known) line. */
export interface ConfigProblem {
  file: string;
  line: number | null;
  path: string;
  message: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map(formatConfigProblem).join('\n'));
    this.name = 'ConfigError';
  }
}

export function formatConfigProblem(p: ConfigProblem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}`;
  return `${where}: ${p.path || '(top level)'}: ${p.message}`;
}

const ajv = sharedAjv({ allErrors: true, useDefaults: true, strict: true });
const validateConfig = compileOnFirstUse(() => ajv.compile(projectConfigJsonSchema));

/** Key path like "thinkaloud.min_pause_ms" or "schema.labels[2].name" from a JSON pointer. */
function pointerToPath(pointer: string): string {
  const parts = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

function nodeAt(root: YamlNode | null, segments: string[]): YamlNode | null {
  let node: YamlNode | null = root;
  for (const seg of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) return node;
      node = (pair.value as YamlNode | null) ?? (pair.key as YamlNode);
    } else if (isSeq(node)) {
      const child = node.items[Number(seg)] as YamlNode | undefined;
      if (!child) return node;
      node = child;
    } else {
      return node;
    }
  }
  return node;
}

function describeAjvError(e: ErrorObject): { path: string; message: string; pointer: string } {
  let pointer = e.instancePath;
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'additionalProperties') {
    const key = String((e.params as { additionalProperty: string }).additionalProperty);
    pointer = `${pointer}/${key}`;
    message = 'unknown key (not allowed here)';
  } else if (e.keyword === 'required') {
    message = `missing required key "${String((e.params as { missingProperty: string }).missingProperty)}"`;
  } else if (e.keyword === 'enum') {
    message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (e.keyword === 'propertyNames') {
    message = `key ${String((e.params as { propertyName: string }).propertyName)} must be a language code like "en"`;
  }
  return { path: pointerToPath(pointer), message, pointer };
}

/**
 * Parse and validate the text of an aloud.yaml. Returns the config with defaults applied, or
 * throws ConfigError listing every problem with its key path and line.
 */
export function parseProjectConfig(text: string, file = 'aloud.yaml'): ProjectConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((err) => ({
        file,
        line: err.linePos?.[0]?.line ?? lineCounter.linePos(err.pos[0]).line,
        path: '',
        message: `YAML syntax: ${err.message.split('\n')[0] ?? err.code}`,
      })),
    );
  }
  // A tag we do not know would be read as a plain string: say so instead of guessing what was meant.
  const unknownTag = doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (unknownTag) {
    throw new ConfigError([{ file, line: unknownTag.linePos?.[0]?.line ?? lineCounter.linePos(unknownTag.pos[0]).line, path: '', message: `YAML: ${unknownTag.message.split('\n')[0]} (aloud.yaml uses plain YAML: no tags)` }]);
  }
  // Known but foreign tags (!!binary, !!set, !!timestamp …) turn text into other types: only the JSON-like core ones pass.
  let foreignTag: { tag: string; line: number | null } | null = null;
  visit(doc, {
    Node(_key, node) {
      const tag = (node as { tag?: string }).tag;
      if (tag === undefined || CORE_TAGS.has(tag)) return undefined;
      foreignTag = { tag, line: node.range ? lineCounter.linePos(node.range[0]).line : null };
      return visit.BREAK;
    },
  });
  if (foreignTag !== null) {
    const { tag, line } = foreignTag as { tag: string; line: number | null };
    throw new ConfigError([{ file, line, path: '', message: `YAML: the tag ${tag} is not used in aloud.yaml (plain YAML: no tags)` }]);
  }
  let value: unknown;
  try {
    // An alias bomb ("billion laughs") expands exponentially; a project config needs at most a handful of aliases.
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    let line: number | null = null;
    visit(doc, {
      Alias(_key, node) {
        if (node.range) line = lineCounter.linePos(node.range[0]).line;
        return visit.BREAK;
      },
    });
    throw new ConfigError([{ file, line, path: '', message: `YAML: too many aliases expand (more than ${MAX_YAML_ALIASES}: an alias bomb?); write the values out` }]);
  }
  if (!validateConfig(value)) {
    const seen = new Set<string>();
    const problems: ConfigProblem[] = [];
    for (const e of validateConfig.errors ?? []) {
      // propertyNames reports twice (the name and the wrapper); keep the informative one.
      if (e.keyword === 'propertyNames' && e.propertyName === undefined) continue;
      const { path, message, pointer } = describeAjvError(e);
      const key = `${path}|${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const node = nodeAt(doc.contents as YamlNode | null, pointer.split('/').slice(1));
      const offset = node?.range?.[0];
      problems.push({ file, line: offset === undefined ? null : lineCounter.linePos(offset).line, path, message });
    }
    throw new ConfigError(problems);
  }
  const config = value as unknown as ProjectConfig;
  checkConfigRules(config, file, doc.contents as YamlNode | null, lineCounter);
  return config;
}

const MAX_YAML_ALIASES = 100;
const CORE_TAGS: ReadonlySet<string> = new Set(['str', 'int', 'float', 'bool', 'null', 'seq', 'map'].map((t) => `tag:yaml.org,2002:${t}`));
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
      problems.push({ file, line: lineOf(['schema', 'labels', String(i), 'name']), path: `schema.labels[${i}].name`, message: `label name ${JSON.stringify(label.name)} contains a control character` });
    }
    const folded = label.name.normalize('NFKC').toLowerCase();
    if (names.has(folded)) {
      problems.push({ file, line: lineOf(['schema', 'labels', String(i), 'name']), path: `schema.labels[${i}].name`, message: `duplicate label name "${label.name}" (also labels[${names.get(folded)}])` });
    }
    names.set(folded, i);
    if (label.key !== undefined) {
      if (keys.has(label.key)) {
        problems.push({ file, line: lineOf(['schema', 'labels', String(i), 'key']), path: `schema.labels[${i}].key`, message: `key "${label.key}" is already used by labels[${keys.get(label.key)}]` });
      }
      keys.set(label.key, i);
    }
  });
  config.schema.labels.forEach((label, i) => {
    for (const [lang, synonyms] of Object.entries(label.synonyms)) {
      for (const synonym of synonyms) {
        const folded = synonym.normalize('NFKC').toLowerCase();
        const owner = names.has(folded) && names.get(folded) !== i ? config.schema.labels[names.get(folded)!]!.name : synonymOwner.get(`${lang}:${folded}`);
        if (owner !== undefined && owner !== label.name) {
          problems.push({ file, line: lineOf(['schema', 'labels', String(i), 'synonyms', lang]), path: `schema.labels[${i}].synonyms.${lang}`, message: `synonym "${synonym}" also names label "${owner}"` });
        }
        synonymOwner.set(`${lang}:${folded}`, label.name);
      }
    }
  });
  for (const [lang, patterns] of Object.entries(config.thinkaloud.stems)) {
    patterns.forEach((pattern, i) => {
      const problem = validateStemPattern(pattern);
      if (problem !== null) {
        problems.push({ file, line: lineOf(['thinkaloud', 'stems', lang, String(i)]), path: `thinkaloud.stems.${lang}[${i}]`, message: `bad commit phrase pattern: ${problem}` });
      }
    });
  }
  config.schema.labels.forEach((label, i) => {
    if (label.key !== undefined && RESERVED_KEYS.has(label.key.toLowerCase())) {
      problems.push({ file, line: lineOf(['schema', 'labels', String(i), 'key']), path: `schema.labels[${i}].key`, message: `"${label.key}" is the record shortcut; choose another key` });
    }
  });
  config.thinkaloud.languages.forEach((lang, i) => {
    if (DEFAULT_STEMS[lang] === undefined && config.thinkaloud.stems[lang] === undefined) {
      problems.push({
        file,
        line: lineOf(['thinkaloud', 'languages', String(i)]),
        path: `thinkaloud.languages[${i}]`,
        message: `no commit phrases for "${lang}": built in are ${Object.keys(DEFAULT_STEMS).join(', ')}; add thinkaloud.stems.${lang} to use another language`,
      });
    }
  });
  const itemsPath = config.items.replace(/\\/g, '/');
  if (itemsPath.startsWith('/') || /^[a-zA-Z]:/.test(itemsPath) || itemsPath.split('/').includes('..')) {
    problems.push({ file, line: lineOf(['items']), path: 'items', message: 'must be a path inside the project folder (relative, without "..")' });
  }
  if (config.thinkaloud.long_pause_ms < config.thinkaloud.min_pause_ms) {
    problems.push({ file, line: lineOf(['thinkaloud', 'long_pause_ms']), path: 'thinkaloud.long_pause_ms', message: `must be at least min_pause_ms (${config.thinkaloud.min_pause_ms})` });
  }
  if (problems.length > 0) throw new ConfigError(problems);
}
