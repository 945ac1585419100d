import { compileOnFirstUse, sharedAjv } from '../io/schemaValidator';
import { stringify } from 'yaml';
import { ConfigError, configProblemWords, lineAt, readStrictYaml, schemaConfigProblems, type ConfigProblem } from '../project/strictYaml';
import { say, type RefusalMessage } from '../refusal/refusalMessage';
import { nameFormProblem, shownName, TakenNames } from '../names/personNames';
import { caselessKey } from '../text/textFold';
import { canonicalText, guidelineProblems, type CodeGuidelineFields } from '../guidelines/guidelines';

/** The project's codebook file, beside aloud.yaml. */
export const CODEBOOK_FILE = 'codebook.yaml';

/** One code of the codebook: what it means, an example and a counter-example (its guideline), its parent code, its key while coding. */
export interface CodeDef extends CodeGuidelineFields {
  /** the name of the code this one is nested under */
  parent?: string;
  /** one character that applies the code while coding */
  key?: string;
  /** the code's REFI-QDA GUID, kept from an imported codebook so that a QDA tool's codings still point at it */
  guid?: string;
}

export interface Codebook {
  codes: CodeDef[];
  /** one code per unit (a coder choosing another code replaces the first); agreement then also has an overall α */
  exclusive?: boolean;
}

/** Keys the coding view uses itself (memo, new code from the selected words, the definitions list): no code may take them. */
export const CODING_VIEW_KEYS: Readonly<Record<string, string>> = {
  m: 'memo',
  n: 'new code from the selected words',
  '?': 'definitions and shortcuts',
};

const name = { type: 'string', minLength: 1, pattern: '\\S' } as const;
/** REFI-QDA's GUIDType: plain or in braces */
const guid = { type: 'string', pattern: '^\\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\}?$' } as const;

export const codebookJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://aloud.local/schemas/codebook.json',
  title: 'Aloud codebook (codebook.yaml)',
  type: 'object',
  additionalProperties: false,
  required: ['codes'],
  properties: {
    exclusive: { type: 'boolean' },
    codes: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'definition'],
        properties: {
          name,
          // shapes (plain or per language) are checked by guidelineProblems: one line per wrong key
          definition: {},
          example: {},
          counter_example: {},
          examples: {},
          counter_examples: {},
          parent: name,
          key: { type: 'string', pattern: '^\\S$' },
          guid,
        },
      },
    },
  },
} as const;

const ajv = sharedAjv({ allErrors: true, strict: true });
const validateCodebook = compileOnFirstUse(() => ajv.compile(codebookJsonSchema));

/** Names are compared as people read them: "Doubt" and "ｄoubt" (full width) or "doubt" are one code. */
const folded = caselessKey;

/**
 * codebook.yaml read strictly (plain YAML, no unknown keys) and checked: every code has a name and a definition,
 * names are unique, a parent names another code and no code is its own ancestor, keys are single characters used once.
 * Throws ConfigError with every problem located by key path and line.
 */
export function parseCodebook(source: string, file = CODEBOOK_FILE): Codebook {
  if (source.length > CODEBOOK_LIMITS.chars)
    // i18n-ignore: not English: ConfigError says its problems' catalog lines (each problem's say, test/i18n/schemaMessages.test.ts)
    throw new ConfigError([
      {
        file,
        line: null,
        path: '',
        ...configProblemWords(say('refusal.codebook.tooLarge', { length: String(source.length), max: String(CODEBOOK_LIMITS.chars) })),
      },
    ]);
  const { value, root, lineCounter } = readStrictYaml(source, file, CODEBOOK_FILE);
  // i18n-ignore: not English: ConfigError says its problems' catalog lines (each problem's say, test/i18n/schemaMessages.test.ts)
  if (!validateCodebook(value)) throw new ConfigError(schemaConfigProblems(validateCodebook.errors, file, root, lineCounter));
  const codebook = value as unknown as Codebook;
  const problems = codebookProblems(codebook, file, (segments) => lineAt(root, lineCounter, segments));
  // i18n-ignore: not English: ConfigError says its problems' catalog lines (each problem's say, test/i18n/schemaMessages.test.ts)
  if (problems.length > 0) throw new ConfigError(problems);
  return codebook;
}

/** How large a codebook may be: its text, its codes, how deep codes nest under parents. */
export const CODEBOOK_LIMITS = { chars: 4 * 1024 * 1024, codes: 10_000, depth: 64 } as const;

/** The rules a schema cannot say, on a codebook from any source (a file, an import); lines where known. */
export function codebookProblems(
  codebook: Codebook,
  file: string,
  lineOf: (segments: string[]) => number | null = () => null,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  // a problem of ours is a catalog message; another check's words (name form, guideline) stay its English
  const at = (i: number, key: string, problem: string | RefusalMessage): void => {
    const words = typeof problem === 'string' ? { message: problem } : configProblemWords(problem);
    problems.push({ file, line: lineOf(['codes', String(i), key]), path: `codes[${i}].${key}`, ...words });
  };
  if (codebook.codes.length > CODEBOOK_LIMITS.codes) {
    return [
      {
        file,
        line: lineOf(['codes']),
        path: 'codes',
        ...configProblemWords(
          say('refusal.codebook.tooManyCodes', { count: String(codebook.codes.length), max: String(CODEBOOK_LIMITS.codes) }),
        ),
      },
    ];
  }
  const byName = new Map<string, number>();
  const lookAlikes = new TakenNames();
  const keys = new Map<string, number>();
  const guids = new Map<string, number>();
  codebook.codes.forEach((code, i) => {
    // the one rule for names of people and codes: no controls, invisibles or text-direction characters, not over-long
    const formProblem = nameFormProblem(code.name, 'code name');
    if (formProblem) at(i, 'name', formProblem);
    if (code.name !== code.name.trim()) at(i, 'name', say('refusal.codebook.spaces', { name: shownName(code.name) }));
    const seen = byName.get(folded(code.name));
    if (seen !== undefined) at(i, 'name', say('refusal.codebook.duplicateName', { name: code.name, other: String(seen) }));
    else {
      byName.set(folded(code.name), i);
      const like = lookAlikes.add(code.name);
      if (like !== null)
        at(i, 'name', say('refusal.codebook.looksLike', { name: shownName(code.name), like, other: String(byName.get(folded(like))) }));
    }
    // an empty plain definition is a code not defined yet (the coding view says so)
    const parts = ['definition', 'example', 'counter_example', 'examples', 'counter_examples'].filter(
      (p) => !(p === 'definition' && code.definition === ''),
    );
    for (const [part, message] of guidelineProblems(code as unknown as Record<string, unknown>, parts)) {
      problems.push({ file, line: lineOf(['codes', String(i), part.split(/[.[]/)[0]!]), path: `codes[${i}].${part}`, message });
    }
    if (code.key !== undefined) {
      const other = keys.get(code.key);
      const reserved = CODING_VIEW_KEYS[code.key.toLowerCase()];
      if (reserved !== undefined) at(i, 'key', `key "${code.key}" is the coding view's shortcut for the ${reserved}; choose another`);
      else if (other !== undefined) at(i, 'key', say('refusal.codebook.keyUsed', { key: code.key, other: String(other) }));
      else keys.set(code.key, i);
    }
    if (code.guid !== undefined) {
      const bare = code.guid.replace(/^\{|\}$/g, '').toLowerCase();
      const other = guids.get(bare);
      if (other !== undefined) at(i, 'guid', say('refusal.codebook.guidUsed', { guid: code.guid, other: String(other) }));
      else guids.set(bare, i);
    }
  });
  let tooDeep = false;
  codebook.codes.forEach((code, i) => {
    if (code.parent === undefined) return;
    const parent = byName.get(folded(code.parent));
    if (parent === undefined) return at(i, 'parent', say('refusal.codebook.noParent', { parent: code.parent }));
    if (parent === i) return at(i, 'parent', say('refusal.codebook.ownParent', { name: code.name }));
    // walk up, at most the depth limit: a cycle would make a code its own ancestor, a chain past it is refused once
    const visited = new Set<number>([i]);
    for (let up: number | undefined = parent; up !== undefined;) {
      if (visited.has(up)) return at(i, 'parent', say('refusal.codebook.cycle', { name: code.name }));
      if (visited.size >= CODEBOOK_LIMITS.depth) {
        if (!tooDeep) at(i, 'parent', say('refusal.codebook.tooDeep', { name: code.name, depth: String(CODEBOOK_LIMITS.depth) }));
        tooDeep = true;
        return undefined;
      }
      visited.add(up);
      const next: string | undefined = codebook.codes[up]!.parent;
      up = next === undefined ? undefined : byName.get(folded(next));
    }
    return undefined;
  });
  return problems;
}

/** codebook.yaml's text: a comment saying what it is, then `codes:` with each code's keys in a fixed order. */
export function formatCodebook(codebook: Codebook, header: string): string {
  const order: ReadonlyArray<keyof CodeDef> = [
    'name',
    'definition',
    'example',
    'counter_example',
    'examples',
    'counter_examples',
    'parent',
    'key',
    'guid',
  ];
  const codes = codebook.codes.map((c) => Object.fromEntries(order.filter((k) => c[k] !== undefined).map((k) => [k, c[k]])));
  const comments = header
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n');
  return `${comments}\n${stringify({ ...(codebook.exclusive !== undefined ? { exclusive: codebook.exclusive } : {}), codes }, { lineWidth: 0 })}`;
}

/**
 * The codebook's version: a hash of what its codes mean (names, definitions, examples, counter-examples, nesting)
 * and whether it is exclusive, so it changes whenever a definition changes; the order of the codes, their keys and
 * their QDA GUIDs do not change it. Every coding act records the version it was made under.
 */
export function codebookVersion(codebook: Codebook, sha256: (text: string) => string): string {
  const meaning = [...codebook.codes]
    .sort((a, b) => (folded(a.name) < folded(b.name) ? -1 : folded(a.name) > folded(b.name) ? 1 : 0))
    .map((c) => {
      const meaning: unknown[] = [
        c.name,
        canonicalText(c.definition),
        canonicalText(c.example),
        canonicalText(c.counter_example),
        c.parent ?? null,
      ];
      // lists of examples came later: a codebook without them keeps the version it had
      if (c.examples !== undefined || c.counter_examples !== undefined)
        meaning.push(canonicalText(c.examples), canonicalText(c.counter_examples));
      return meaning;
    });
  return sha256(JSON.stringify({ exclusive: codebook.exclusive ?? false, codes: meaning })).slice(0, 12);
}

/** A code of the codebook by name as people read it ("doubts" finds "Doubts"), or undefined. */
export function findCode(codebook: Codebook, name: string): CodeDef | undefined {
  let index = codesByName.get(codebook.codes);
  // a list grown in place since (a code added) is indexed anew
  if (!index || index.size !== codebook.codes.length) {
    const byName = new Map<string, CodeDef>();
    // the first of two codes read alike wins, as a scan in order would find it (validation refuses such a pair anyway)
    for (const code of codebook.codes) if (!byName.has(folded(code.name))) byName.set(folded(code.name), code);
    index = { size: codebook.codes.length, byName };
    codesByName.set(codebook.codes, index);
  }
  return index.byName.get(folded(name));
}
/** each code list by folded name, made on first lookup: an import looks a code up once per row */
const codesByName = new WeakMap<readonly CodeDef[], { size: number; byName: Map<string, CodeDef> }>();
