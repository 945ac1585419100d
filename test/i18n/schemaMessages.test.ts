/**
 * The problems a person reads in the app when aloud.yaml, codebook.yaml or an items file is refused: Ajv's words for
 * the keywords our schemas use are catalog messages (Ajv's English byte for byte, German in the app), our own kinds of
 * problem too, and a refusal with several problems is one nested message, one line each.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { codebookJsonSchema, parseCodebook } from '../../core/common/codebook/codebook';
import { deidentifyJsonSchema } from '../../core/common/deidentify/deidentifyList';
import { createTranslator } from '../../core/common/i18n/translator';
import { inputProblemSaid } from '../../core/common/io/inputProblem';
import { AJV_KEYWORDS_SAID, ajvMessage } from '../../core/common/io/schemaMessages';
import { InputError } from '../../core/common/io/inputProblem';
import { conversationMessageJsonSchema } from '../../core/common/items/conversations';
import { itemRecordJsonSchema, parseItemsText } from '../../core/common/items/itemsSource';
import { ConfigError, parseProjectConfig, projectConfigJsonSchema } from '../../core/common/project/projectConfig';
import { englishRefusal, formatRefusal, type RefusalMessage } from '../../core/common/refusal/refusalMessage';
import refusalDe from '../../core/common/refusal/messages/de.json';

const german = createTranslator('de', refusalDe);
const inGerman = (m: RefusalMessage): string => formatRefusal(german, m)!;

/** Keywords that describe or structure a schema and never fail on their own. */
const STRUCTURE = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'title',
  'description',
  'default',
  'examples',
  'properties',
  'items',
  'prefixItems',
  '$comment',
]);
/** Keywords our schemas use whose Ajv message stays English on purpose (none today: add one here only deliberately). */
const ENGLISH_ON_PURPOSE = new Set<string>();

function keywordsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) keywordsOf(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      out.add(key);
      // the children of these are names or values, not schemas
      if (key === 'properties' || key === '$defs') for (const child of Object.values(value as object)) keywordsOf(child, out);
      else if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples' && key !== 'required') keywordsOf(value, out);
    }
  }
  return out;
}

describe("Ajv's words as catalog messages", () => {
  it('every keyword the config, codebook, de-identify and items schemas use is said from the catalog (or English on purpose)', () => {
    const used = new Set<string>();
    for (const schema of [
      projectConfigJsonSchema,
      codebookJsonSchema,
      deidentifyJsonSchema,
      itemRecordJsonSchema,
      conversationMessageJsonSchema,
    ])
      keywordsOf(schema, used);
    const unsaid = [...used].filter((k) => !STRUCTURE.has(k) && !AJV_KEYWORDS_SAID.includes(k) && !ENGLISH_ON_PURPOSE.has(k));
    expect(unsaid).toEqual([]);
    expect(used.has('minLength') && used.has('pattern') && used.has('required')).toBe(true);
  });

  it("each keyword's English is Ajv's message byte for byte; German differs", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const cases: Array<[object, unknown]> = [
      [{ type: 'string' }, 3],
      [{ type: ['string', 'null'] }, 3],
      [{ minimum: 1 }, 0],
      [{ maximum: 1 }, 2],
      [{ exclusiveMinimum: 0 }, 0],
      [{ exclusiveMaximum: 0 }, 0],
      [{ minLength: 1 }, ''],
      [{ maxLength: 1 }, 'ab'],
      [{ minItems: 1 }, []],
      [{ maxItems: 0 }, [1]],
      [{ pattern: '^[a-z]+$' }, 'A'],
      [{ uniqueItems: true }, [1, 1]],
      [{ enum: ['a'] }, 'b'],
      [{ const: 'a' }, 'b'],
      [{ oneOf: [{ type: 'string' }, { type: 'string' }] }, 'x'],
      [{ anyOf: [{ type: 'string' }] }, 1],
      [{ type: 'object', required: ['name'] }, {}],
      [{ type: 'object', additionalProperties: false }, { x: 1 }],
      [{ type: 'object', propertyNames: { pattern: '^[a-z]{2}$' } }, { English: 1 }],
    ];
    const seen = new Set<string>();
    for (const [schema, value] of cases) {
      const validate = ajv.compile(schema);
      expect(validate(value), JSON.stringify(schema)).toBe(false);
      for (const e of validate.errors as ErrorObject[]) {
        const said = ajvMessage(e);
        if (typeof said !== 'object') throw new Error(`no catalog message for ${e.keyword}`);
        seen.add(e.keyword);
        expect(englishRefusal(said), e.keyword).toBe(e.message);
        expect(inGerman(said), e.keyword).not.toBe(e.message);
      }
    }
    expect([...AJV_KEYWORDS_SAID].filter((k) => !seen.has(k) && k !== 'format')).toEqual([]);
    expect(
      inGerman(
        ajvMessage({ keyword: 'minLength', params: { limit: 1 }, instancePath: '', schemaPath: '' } as ErrorObject) as RefusalMessage,
      ),
    ).toBe('darf nicht weniger als 1 Zeichen haben');
  });

  it('an unknown keyword keeps English (the fallback)', () => {
    expect(
      ajvMessage({
        keyword: 'dependentSchemas',
        params: {},
        message: 'must match a schema',
        instancePath: '',
        schemaPath: '',
      } as ErrorObject),
    ).toBe('must match a schema');
  });
});

function refusalOf(act: () => unknown): ConfigError | InputError {
  try {
    act();
  } catch (e) {
    if (e instanceof ConfigError || e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no refusal');
}

describe('a refused configuration file in the app', () => {
  it('aloud.yaml with several schema problems: one message, the English lines as before, each line German', () => {
    const e = refusalOf(() =>
      parseProjectConfig(
        'name: t\nitems: items.jsonl\nschema:\n  labels:\n    - name: a\nthinkaloud:\n  min_pause_ms: -5\n  colour: red\n',
        'p/aloud.yaml',
      ),
    ) as ConfigError;
    expect(e.problems.length).toBeGreaterThan(1);
    expect(englishRefusal(e.say!)).toBe(e.message);
    const lines = inGerman(e.say!).split('\n');
    expect(lines).toHaveLength(e.problems.length);
    expect(lines).toContain('p/aloud.yaml:8: thinkaloud.colour: unbekannter Schlüssel (hier nicht erlaubt)');
    expect(lines.some((l) => /^p\/aloud\.yaml:7: thinkaloud\.min_pause_ms: muss >= \d+ sein$/.test(l))).toBe(true);
  });

  it('codebook.yaml: a missing key said in German', () => {
    const e = refusalOf(() => parseCodebook('codes:\n  - definition: no name\n', 'codebook.yaml')) as ConfigError;
    expect(englishRefusal(e.say!)).toBe(e.message);
    expect(inGerman(e.say!)).toMatch(/Pflichtschlüssel „name“ fehlt/);
  });

  it("an items file's schema problem: the row's English as before, its catalog message beside it", () => {
    const e = refusalOf(() => parseItemsText('{"id": 5, "text": "x"}\n', 'items.jsonl', 'jsonl')) as InputError;
    const typeProblem = e.problems.find((p) => p.field === 'id')!;
    expect(typeProblem.message).toBe('must be string, not number');
    const said = inputProblemSaid(typeProblem) as RefusalMessage;
    expect(englishRefusal(said)).toBe(typeProblem.message);
    expect(inGerman(said)).toBe('muss vom Typ string sein, nicht number');
    expect(JSON.stringify(typeProblem)).not.toContain('said');
  });
});

describe('the import problem table', () => {
  it("an items file refused by the app's import: each row carries its catalog message (German in the app)", async () => {
    const { cp, mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { loadProjectConfig } = await import('../../core/node/project/projectFolder');
    const { importItemsInto } = await import('../../core/node/projects/projectsPanel');
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-import-said-'));
    await cp(path.resolve(import.meta.dirname, '../../demo-project'), dir, { recursive: true });
    const file = path.join(dir, 'bad.jsonl');
    await writeFile(file, '{"id": 5, "text": "x"}\n');
    const outcome = await importItemsInto(await loadProjectConfig(dir), file, 'append');
    expect(outcome.ok).toBe(false);
    const row = outcome.problems.find((p) => p.field === 'id')!;
    expect(row.message).toBe('must be string, not number');
    expect(formatRefusal(german, row.said!)).toBe('muss vom Typ string sein, nicht number');
  });
});

describe('our own kinds of config problem', () => {
  it('aloud.yaml rules and codebook rules: English as before, German in the app', () => {
    const config = refusalOf(() =>
      parseProjectConfig('name: t\nitems: ../items.jsonl\nschema:\n  name: s\n  labels:\n    - name: a\n    - name: A\n', 'aloud.yaml'),
    ) as ConfigError;
    expect(config.message).toBe(
      'aloud.yaml:7: schema.labels[1].name: duplicate label name "A" (also labels[0])\naloud.yaml:2: items: must be a path inside the project folder (relative, without "..")',
    );
    expect(englishRefusal(config.say!)).toBe(config.message);
    expect(inGerman(config.say!)).toBe(
      'aloud.yaml:7: schema.labels[1].name: doppelter Labelname „A“ (auch labels[0])\naloud.yaml:2: items: muss ein Pfad innerhalb des Projektordners sein (relativ, ohne „..“)',
    );
    const codebook = refusalOf(() =>
      parseCodebook('codes:\n  - name: x\n    definition: d\n    parent: y\n', 'codebook.yaml'),
    ) as ConfigError;
    expect(codebook.message).toBe('codebook.yaml:4: codes[0].parent: parent "y" is not a code of this codebook');
    expect(inGerman(codebook.say!)).toBe('codebook.yaml:4: codes[0].parent: das übergeordnete Element „y“ ist kein Code dieses Codebuchs');
  });
});

describe('an input refusal line (the first problem and how many more)', () => {
  it('English as summarizeProblems wrote it, German in the app', () => {
    const e = refusalOf(() => parseItemsText('{"id": 5, "text": "x"}\n{"id": 6, "text": "y"}\n', 'items.jsonl', 'jsonl')) as InputError;
    expect(e.message).toBe('items.jsonl:1: must be string, not number (field "id", stage schema) (+1 more problem)');
    expect(englishRefusal(e.say!)).toBe(e.message);
    expect(inGerman(e.say!)).toBe('items.jsonl:1: muss vom Typ string sein, nicht number (Feld „id“, Stufe schema) (+1 weiteres Problem)');
  });
});
