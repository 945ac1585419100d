import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { InputProblem } from '../io/inputProblem';
import { InputError } from '../io/inputProblem';
import { xmlGuardProblem } from '../io/xmlGuard';
import { codebookProblems, type CodeDef, type Codebook } from './codebook';
import { escapeXmlText, xmlAttributes } from '../io/xmlText';
import { textInLanguage } from '../guidelines/guidelines';

/** The REFI-QDA namespaces a codebook comes in: a codebook file (.qdc) or a project (.qde inside a .qdpx). */
export const QDA_CODEBOOK_NAMESPACE = 'urn:QDA-XML:codebook:1.0';
export const QDA_PROJECT_NAMESPACE = 'urn:QDA-XML:project:1.0';

const GUID_PLAIN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A GUID as the standard's GUIDType allows: plain, or in braces. */
const isGuid = (s: string): boolean => GUID_PLAIN.test(s) || (s.startsWith('{') && s.endsWith('}') && GUID_PLAIN.test(s.slice(1, -1)));

/** A code as the QDA tool wrote it, with where it sits in the tree. */
export interface QdaCode {
  guid: string;
  name: string;
  isCodable: boolean;
  description: string | null;
  /** names from the top of the tree down to this code's parent */
  path: string[];
}

export interface QdaCodebookImport {
  codebook: Codebook;
  /** the codebook version Aloud wrote into the origin of a .qdc it exported; null for another tool's file */
  originVersion: string | null;
  /** every code read, in document order (depth first) */
  codes: QdaCode[];
  /** which namespace the file was in: a codebook file or a project */
  kind: 'codebook' | 'project';
}

type XmlNode = Record<string, unknown>;

/**
 * Reads the CodeBook of a REFI-QDA codebook (.qdc: `<CodeBook xmlns="urn:QDA-XML:codebook:1.0">`) or project
 * (.qde: `<Project xmlns="urn:QDA-XML:project:1.0">`, any namespace prefix), as ATLAS.ti, NVivo, MAXQDA, QualCoder
 * and Transana write them: nested `<Code guid name isCodable>` with `<Description>`. Codes become the plain codebook
 * (description → definition, example, counter-example and key as `describedCode` reads them, nesting → parent, GUID
 * kept); GUIDs are checked (well formed, unique). A .qdc Aloud wrote also brings back whether the codebook is
 * exclusive (its origin says so). Every problem is located by the code's path in the tree; none → the codebook, else
 * InputError and nothing.
 */
export function parseQdaCodebook(xml: string, file: string): QdaCodebookImport {
  const hazard = xmlGuardProblem(xml);
  // i18n-ignore: a .qdc file's problems (the QDA reader's words) stay English for now
  if (hazard) throw new InputError([{ file, line: hazard.line, field: null, stage: 'input', message: hazard.message }]);
  const syntax = XMLValidator.validate(xml, { allowBooleanAttributes: false });
  if (syntax !== true)
    // i18n-ignore: a .qdc file's problems (the QDA reader's words) stay English for now
    throw new InputError([{ file, line: syntax.err.line, field: null, stage: 'parse', message: `not well-formed XML: ${syntax.err.msg}` }]);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    htmlEntities: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    isArray: (name) => /(^|:)Code$/.test(name),
  });
  const doc = parser.parse(xml) as XmlNode;
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  const fail = (message: string, field: string | null = null): never => {
    // i18n-ignore: a .qdc file's problems (the QDA reader's words) stay English for now
    throw new InputError([{ file, line: null, field, stage: 'schema', message }]);
  };
  if (rootName === undefined) return fail('no root element');
  const [prefix, local] = rootName.includes(':')
    ? [rootName.slice(0, rootName.indexOf(':')), rootName.slice(rootName.indexOf(':') + 1)]
    : ['', rootName];
  const root = doc[rootName] as XmlNode;
  const namespace = typeof root === 'object' ? (root[prefix ? `@_xmlns:${prefix}` : '@_xmlns'] as string | undefined) : undefined;
  const tag = (name: string): string => (prefix ? `${prefix}:${name}` : name);
  let codebookNode: XmlNode | undefined;
  let kind: QdaCodebookImport['kind'];
  if (local === 'CodeBook' && namespace === QDA_CODEBOOK_NAMESPACE) {
    kind = 'codebook';
    codebookNode = root;
  } else if (local === 'Project' && namespace === QDA_PROJECT_NAMESPACE) {
    kind = 'project';
    codebookNode = root[tag('CodeBook')] as XmlNode | undefined;
    // CodeBook is optional in a REFI-QDA project: a valid file, just not one that carries codes
    if (codebookNode === undefined || typeof codebookNode !== 'object')
      // i18n-ignore: a .qdc file's problems (the QDA reader's words) stay English for now
      throw new InputError([
        {
          file,
          line: null,
          field: 'Project',
          stage: 'input',
          message:
            'the project is a REFI-QDA project without a codebook (it has no <CodeBook>, which the standard allows): there are no codes to import; export the codebook from the QDA tool (a .qdc file, or a project with codes) and import that',
        },
      ]);
  } else {
    return fail(
      `the root element is <${rootName}>${namespace ? ` in namespace ${namespace}` : ' without a namespace'}: a REFI-QDA codebook is <CodeBook xmlns="${QDA_CODEBOOK_NAMESPACE}"> (.qdc) or <Project xmlns="${QDA_PROJECT_NAMESPACE}"> (.qdpx)`,
    );
  }
  const codesNode = codebookNode[tag('Codes')] as XmlNode | undefined;
  if (codesNode === undefined || typeof codesNode !== 'object') return fail('the CodeBook has no <Codes>', 'CodeBook');

  const problems: InputProblem[] = [];
  const codes: QdaCode[] = [];
  const guids = new Map<string, string>();
  const walk = (list: unknown, path: string[]): void => {
    for (const node of (list ?? []) as XmlNode[]) {
      const name = typeof node['@_name'] === 'string' ? (node['@_name'] as string) : '';
      const where = [...path, name || '(no name)'].join(' / ');
      const say = (message: string): void => {
        problems.push({ file, line: null, field: where, stage: 'schema', message });
      };
      const guid = typeof node['@_guid'] === 'string' ? (node['@_guid'] as string) : '';
      if (guid === '') say('the Code has no guid');
      else if (!isGuid(guid)) say(`guid "${guid}" is not a GUID`);
      else if (guids.has(guid.toLowerCase())) say(`guid ${guid} is also the guid of ${guids.get(guid.toLowerCase())}`);
      else guids.set(guid.toLowerCase(), where);
      if (name.trim() === '') say('the Code has no name');
      const codable = node['@_isCodable'];
      if (codable !== 'true' && codable !== 'false' && codable !== '1' && codable !== '0')
        say(`isCodable is ${codable === undefined ? 'missing' : `"${String(codable)}"`} (the standard requires true or false)`);
      const description = textOf(node[tag('Description')]);
      codes.push({ guid, name: name.trim(), isCodable: codable === 'true' || codable === '1', description, path });
      walk(node[tag('Code')], [...path, name.trim()]);
    }
  };
  walk(codesNode[tag('Code')], []);
  if (codes.length === 0 && problems.length === 0)
    problems.push({ file, line: null, field: 'CodeBook', stage: 'schema', message: 'the CodeBook has no codes' });
  // i18n-ignore: a .qdc file's problems (the QDA reader's words) stay English for now
  if (problems.length > 0) throw new InputError(problems);

  const origin =
    typeof root['@_origin'] === 'string'
      ? /^Aloud \S+ \(codebook version ([0-9a-f]{12})(; one code per unit)?\)$/.exec(root['@_origin'] as string)
      : null;
  const codebook: Codebook = {
    ...(origin?.[2] ? { exclusive: true } : {}),
    codes: codes.map((c): CodeDef => ({
      name: c.name,
      ...describedCode(c.description ?? ''),
      ...(c.path.length > 0 ? { parent: c.path.at(-1)! } : {}),
      guid: c.guid,
    })),
  };
  const rules = codebookProblems(codebook, file).map((p): InputProblem => {
    const index = Number(/^codes\[(\d+)\]/.exec(p.path)?.[1] ?? -1);
    const code = codes[index];
    return {
      file,
      line: null,
      field: code ? [...code.path, code.name].join(' / ') : p.path,
      stage: 'rule',
      message: `${p.message.replace(/\(also codes\[(\d+)\]\)/, (_m, j: string) => `(also ${[...codes[Number(j)]!.path, codes[Number(j)]!.name].join(' / ')})`)}; Aloud's codebook names each code once`,
    };
  });
  // i18n-ignore: a .qdc file's problems (the QDA reader's words) stay English for now
  if (rules.length > 0) throw new InputError(rules);
  return { codebook, originVersion: origin?.[1] ?? null, codes, kind };
}

/**
 * A code's description as `codeDescription` writes it: the definition, then lines "Example: …", "Counter-example: …"
 * and "Key: k" when the code has them (another tool's description without such lines is all definition).
 */
export function describedCode(description: string): Pick<CodeDef, 'definition' | 'example' | 'counter_example' | 'key'> {
  const parts =
    /^(?<definition>[\s\S]*?)(?:(?:^|\n)Example: (?<example>[\s\S]*?))?(?:(?:^|\n)Counter-example: (?<counter>[\s\S]*?))?(?:(?:^|\n)Key: (?<key>\S))?$/u.exec(
      description,
    )!.groups!;
  return {
    definition: parts.definition!,
    ...(parts.example !== undefined ? { example: parts.example } : {}),
    ...(parts.counter !== undefined ? { counter_example: parts.counter } : {}),
    ...(parts.key !== undefined ? { key: parts.key } : {}),
  };
}

/** What a QDA tool shows as the code's description: the definition, then its example, counter-example and key, one per line. */
export function codeDescription(code: CodeDef): string {
  return [
    // a QDA description is one text: per-language guidelines give their English (else first) text
    textInLanguage(code.definition, []),
    code.example !== undefined ? `Example: ${textInLanguage(code.example, [])}` : '',
    code.counter_example !== undefined ? `Counter-example: ${textInLanguage(code.counter_example, [])}` : '',
    code.key !== undefined ? `Key: ${code.key}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The origin of a .qdc Aloud writes: its version, and what the CodeBook element cannot say (version, exclusive). */
export function aloudCodebookOrigin(appVersion: string, codebookVersion: string, exclusive: boolean): string {
  return `Aloud ${appVersion} (codebook version ${codebookVersion}${exclusive ? '; one code per unit' : ''})`;
}

/** An element's text: a string, or an object's #text (mixed content), trimmed; null when absent or empty. */
function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'object' && typeof (value as XmlNode)['#text'] === 'string'
        ? ((value as XmlNode)['#text'] as string)
        : '';
  return text.trim() === '' ? null : text.trim();
}

/** Each code's GUID: the one it was imported with, else one made stable from its name. */
export function codebookGuids(codes: readonly CodeDef[], guidOf: (key: string) => string): Map<string, string> {
  return new Map(codes.map((c) => [c.name, c.guid ?? guidOf(`code:codebook:${c.name}`)]));
}

/** The codebook's codes as nested Code elements (a code under its parent, as codebook.yaml nests them). */
export function codebookTree(codes: readonly CodeDef[], guids: ReadonlyMap<string, string>, indent: string): string[] {
  const lines: string[] = [];
  const names = new Set(codes.map((c) => c.name));
  // each code's children, once: a walk that filtered the whole list per code was quadratic in the codebook
  const childrenOf = new Map<string | undefined, CodeDef[]>();
  for (const code of codes) {
    const parent = code.parent === undefined || !names.has(code.parent) ? undefined : code.parent;
    const siblings = childrenOf.get(parent);
    if (siblings) siblings.push(code);
    else childrenOf.set(parent, [code]);
  }
  const emit = (parent: string | undefined, depth: string): void => {
    for (const code of childrenOf.get(parent) ?? []) {
      const description = codeDescription(code);
      const children = childrenOf.has(code.name);
      const open = `${depth}<Code${xmlAttributes({ guid: guids.get(code.name), name: code.name, isCodable: true })}>${description ? `<Description>${escapeXmlText(description)}</Description>` : ''}`;
      if (!children) {
        lines.push(`${open}</Code>`);
        continue;
      }
      lines.push(open);
      emit(code.name, `${depth}  `);
      lines.push(`${depth}</Code>`);
    }
  };
  emit(undefined, indent);
  return lines;
}

/**
 * The codebook as a REFI-QDA codebook file (.qdc: `<CodeBook xmlns="urn:QDA-XML:codebook:1.0">`), the way QDA tools
 * exchange codebooks: each code with its GUID (the one it was imported with, else stable: `guidOf`), its definition,
 * example, counter-example and key as the description (`codeDescription`), nested under its parent.
 */
export function formatQdaCodebook(codebook: Codebook, guidOf: (key: string) => string, origin: string): string {
  const guids = codebookGuids(codebook.codes, guidOf);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<CodeBook${xmlAttributes({ xmlns: QDA_CODEBOOK_NAMESPACE, origin })}>`,
    '  <Codes>',
    ...codebookTree(codebook.codes, guids, '    '),
    '  </Codes>',
    '</CodeBook>',
    '',
  ].join('\n');
}
