import type { ErrorObject } from 'ajv/dist/2020.js';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Node as YamlNode } from 'yaml';
import { pointerToField } from '../io/inputProblem';
import { Refusal } from '../refusal/refusal';
import { englishRefusal, say, type RefusalMessage, type RefusalValue } from '../refusal/refusalMessage';
import { ajvMessage, oneOfValues } from '../io/schemaMessages';

/** A problem in a configuration file, located by key path and (where known) line. */
export interface ConfigProblem {
  file: string;
  line: number | null;
  path: string;
  message: string;
  /** the message as a catalog message whose text is the whole line, `{where}: {field}: …` (ConfigError fills both) */
  say?: RefusalMessage;
}

export class ConfigError extends Refusal {
  constructor(readonly problems: ConfigProblem[]) {
    super('bad_request', problems.map(formatConfigProblem).join('\n'), configProblemsSaid(problems, 'lines'));
    this.name = 'ConfigError';
  }
}

/**
 * The problems as one catalog message, one line each (a list is nested messages: the first line, then the rest); a
 * problem without catalog words keeps its English line among the others.
 */
export function configProblemsSaid(problems: readonly ConfigProblem[], list: 'lines' | 'inline'): RefusalMessage | undefined {
  const lines = problems.map((p): RefusalValue => {
    if (!p.say) return formatConfigProblem(p);
    const where = p.line === null ? p.file : `${p.file}:${p.line}`;
    return { id: p.say.id, values: { ...p.say.values, where, field: p.path || '(top level)' } };
  });
  const last = lines.at(-1);
  if (last === undefined || lines.every((line) => typeof line === 'string')) return undefined;
  // a list ends in a message: an English-only last line is wrapped as the words it is
  const tail: RefusalMessage = typeof last === 'object' ? last : say('refusal.config.asWritten', { text: last });
  return lines.length === 1
    ? tail
    : lines.slice(0, -1).reduceRight<RefusalMessage>((rest, first) => say(LIST_MESSAGE[list], { first, rest }), tail);
}

/** How the lines of a list are joined: one a line (the refusal), or after semicolons (a problem in a sentence). */
const LIST_MESSAGE = { lines: 'refusal.config.lines', inline: 'refusal.config.linesInline' } as const;

/** A problem of ours: its English message and its catalog line (`{where}: {field}: …`, filled in by ConfigError). */
export function configProblemWords(problem: RefusalMessage): { message: string; say: RefusalMessage } {
  return { message: englishRefusal(problem), say: say('refusal.config.line', { problem }) };
}

export function formatConfigProblem(p: ConfigProblem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}`;
  return `${where}: ${p.path || '(top level)'}: ${p.message}`;
}

/** Key path like "thinkaloud.min_pause_ms" or "schema.labels[2].name" from a JSON pointer. */
export function pointerToPath(pointer: string): string {
  // the same conversion as an input problem's field; a config problem at the top level has the empty path
  return pointerToField(pointer) ?? '';
}

export function nodeAt(root: YamlNode | null, segments: string[]): YamlNode | null {
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

export function describeAjvError(e: ErrorObject): { path: string; message: string; pointer: string; said: RefusalValue } {
  let pointer = e.instancePath;
  let said: RefusalValue = ajvMessage(e);
  if (e.keyword === 'additionalProperties') {
    const key = String((e.params as { additionalProperty: string }).additionalProperty);
    pointer = `${pointer}/${key}`;
    said = say('refusal.config.unknownKey');
  } else if (e.keyword === 'required') {
    said = say('refusal.config.missingKey', { key: String((e.params as { missingProperty: string }).missingProperty) });
  } else if (e.keyword === 'enum') {
    said = oneOfValues((e.params as { allowedValues: unknown[] }).allowedValues);
  } else if (e.keyword === 'propertyNames') {
    said = say('refusal.config.languageKey', { name: String((e.params as { propertyName: string }).propertyName) });
  }
  return { path: pointerToPath(pointer), message: typeof said === 'object' ? englishRefusal(said) : String(said), pointer, said };
}

const MAX_YAML_ALIASES = 100;
const CORE_TAGS: ReadonlySet<string> = new Set(['str', 'int', 'float', 'bool', 'null', 'seq', 'map'].map((t) => `tag:yaml.org,2002:${t}`));

/**
 * Plain YAML read strictly, as every Aloud configuration file is (aloud.yaml, codebook.yaml): syntax errors, unknown
 * or foreign tags and alias bombs are located problems; the value comes with its node tree to locate later problems.
 */
export function readStrictYaml(
  text: string,
  file: string,
  what: string,
): { value: unknown; root: YamlNode | null; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((err) => ({
        file,
        line: err.linePos?.[0]?.line ?? lineCounter.linePos(err.pos[0]).line,
        path: '',
        message: `YAML syntax: ${err.message.split('\n')[0] ?? err.code}`,
        say: say('refusal.config.yamlSyntax', { detail: err.message.split('\n')[0] ?? err.code }),
      })),
    );
  }
  // A tag we do not know would be read as a plain string: say so instead of guessing what was meant.
  const unknownTag = doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (unknownTag) {
    throw new ConfigError([
      {
        file,
        line: unknownTag.linePos?.[0]?.line ?? lineCounter.linePos(unknownTag.pos[0]).line,
        path: '',
        message: `YAML: ${unknownTag.message.split('\n')[0]} (${what} uses plain YAML: no tags)`,
        say: say('refusal.config.yamlUnknownTag', { detail: String(unknownTag.message.split('\n')[0]), what }),
      },
    ]);
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
    throw new ConfigError([
      {
        file,
        line,
        path: '',
        message: `YAML: the tag ${tag} is not used in ${what} (plain YAML: no tags)`,
        say: say('refusal.config.yamlForeignTag', { tag, what }),
      },
    ]);
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
    throw new ConfigError([
      {
        file,
        line,
        path: '',
        message: `YAML: too many aliases expand (more than ${MAX_YAML_ALIASES}: an alias bomb?); write the values out`,
        say: say('refusal.config.yamlAliasBomb', { max: MAX_YAML_ALIASES }),
      },
    ]);
  }
  return { value, root: doc.contents as YamlNode | null, lineCounter };
}

/** JSON Schema errors as located problems (key path and line), one per distinct path and message. */
export function schemaConfigProblems(
  errors: readonly ErrorObject[] | null | undefined,
  file: string,
  root: YamlNode | null,
  lineCounter: LineCounter,
): ConfigProblem[] {
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const e of errors ?? []) {
    // propertyNames reports twice (the name and the wrapper); keep the informative one.
    if (e.keyword === 'propertyNames' && e.propertyName === undefined) continue;
    const { path, message, pointer, said } = describeAjvError(e);
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const node = nodeAt(root, pointer.split('/').slice(1));
    const offset = node?.range?.[0];
    problems.push({
      file,
      line: offset === undefined ? null : lineCounter.linePos(offset).line,
      path,
      message,
      say: say('refusal.config.line', { problem: said }),
    });
  }
  return problems;
}

/** The line of the node at a key path, or null. */
export function lineAt(root: YamlNode | null, lineCounter: LineCounter, segments: readonly string[]): number | null {
  const offset = nodeAt(root, [...segments])?.range?.[0];
  return offset === undefined ? null : lineCounter.linePos(offset).line;
}
