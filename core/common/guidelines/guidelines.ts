import { caselessKey } from '../text/textFold';

/**
 * A text of a guideline: a plain string, in the project's language (thinkaloud.languages[0]), or one text per
 * language (`{en: …, de: …}`).
 */
export type LocalizedText = string | Readonly<Record<string, string>>;
/** A list of a guideline (examples, counter-examples): a plain list in the project's language, or one list per language. */
export type LocalizedList = readonly string[] | Readonly<Record<string, readonly string[]>>;

/** What a label or a code means, as aloud.yaml or codebook.yaml write it: each part optional. */
export interface GuidelineFields {
  definition?: LocalizedText;
  examples?: LocalizedList;
  counter_examples?: LocalizedList;
}

/** One label's or code's guideline as the log records it: every part present (null: not written). */
export interface LoggedGuideline {
  name: string;
  definition: LocalizedText | null;
  examples: LocalizedList | null;
  counter_examples: LocalizedList | null;
}

/** Whose guidelines: the labels of aloud.yaml, or the codes of codebook.yaml. */
export type GuidelineScope = 'labels' | 'codes';
export const GUIDELINE_SCOPES: readonly GuidelineScope[] = ['labels', 'codes'];

/**
 * The `guideline_in_force` event's data: the guidelines in force from here on in this log, logged before the first
 * label (or code) act under them. `language`: what a plain text's language is (the project's). Labels' version is the
 * hash below; codes' is the codebook version each coding act records too.
 */
export interface GuidelineInForce {
  scope: GuidelineScope;
  version: string;
  language: string;
  guidelines: LoggedGuideline[];
}

/**
 * The guideline keys of a label in aloud.yaml: their shape (plain or per language) is checked by guidelineProblems, so
 * that a wrong one gets one line naming the key, not one line per alternative of a schema.
 */
export const guidelineSchemaProperties = { definition: {}, examples: {}, counter_examples: {} } as const;

const LANGUAGE = /^[a-z]{2,3}$/;
const isText = (v: unknown): v is string => typeof v === 'string' && /\S/.test(v);
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with a plain text or list: [path suffix, message], or null. */
function plainProblem(value: unknown, list: boolean): [string, string] | null {
  if (!list) return isText(value) ? null : ['', 'must be a text that is not empty'];
  if (!Array.isArray(value)) return ['', 'must be a list of texts'];
  const bad = value.findIndex((e) => !isText(e));
  return bad < 0 ? null : [`[${bad}]`, 'must be a text that is not empty'];
}

/** What is wrong with a guideline part's shape, as [key path, message] pairs (path relative to the label or code). */
export function guidelineProblems(
  g: Readonly<Record<string, unknown>>,
  parts: readonly string[] = ['definition', 'examples', 'counter_examples'],
): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  for (const part of parts) {
    const value = g[part];
    if (value === undefined) continue;
    const list = part === 'examples' || part === 'counter_examples';
    if (!isMap(value)) {
      const bad = plainProblem(value, list);
      if (bad) problems.push([`${part}${bad[0]}`, bad[0] === '' ? `${bad[1]}, or one per language ({en: …, de: …})` : bad[1]]);
      continue;
    }
    if (Object.keys(value).length === 0) problems.push([part, 'names no language: write a text, or one per language ({en: …, de: …})']);
    for (const [lang, text] of Object.entries(value)) {
      if (!LANGUAGE.test(lang)) {
        problems.push([`${part}.${lang}`, `"${lang}" is not a language code (two or three lower-case letters, e.g. en, de)`]);
        continue;
      }
      const bad = plainProblem(text, list);
      if (bad) problems.push([`${part}.${lang}${bad[0]}`, bad[1]]);
    }
  }
  return problems;
}

/** A guideline part in canonical form for hashing: per-language maps with their keys sorted; absent: null. */
export function canonicalText(value: LocalizedText | LocalizedList | null | undefined): unknown {
  return canonical(value as never);
}

/** A per-language map with its keys sorted, so the same meaning always has the same text. */
function canonical<T>(value: string | readonly string[] | Readonly<Record<string, T>> | null | undefined): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const map = value as Readonly<Record<string, T>>;
  return Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, map[k]]),
  );
}

/** True when a label or code carries any guideline text. */
export function hasGuideline(g: GuidelineFields): boolean {
  return g.definition !== undefined || g.examples !== undefined || g.counter_examples !== undefined;
}

/** What the log keeps of each label's guideline, in the project's order. */
export function loggedGuidelines(labels: ReadonlyArray<{ name: string } & GuidelineFields>): LoggedGuideline[] {
  return labels.map((l) => ({
    name: l.name,
    definition: l.definition ?? null,
    examples: l.examples ?? null,
    counter_examples: l.counter_examples ?? null,
  }));
}

/**
 * The labels' guideline version: 12 hex digits of the sha256 of their meanings in a canonical form (names with their
 * definitions, examples and counter-examples, sorted by name, per-language maps by language, and the language a plain
 * text is in). Keys, synonyms and the order of labels do not change it. null when no label carries any guideline text:
 * a project without guidelines logs none.
 */
export function labelGuidelineVersion(
  labels: ReadonlyArray<{ name: string } & GuidelineFields>,
  language: string,
  sha256: (text: string) => string,
): string | null {
  if (!labels.some(hasGuideline)) return null;
  const meaning = [...labels]
    .sort((a, b) => (caselessKey(a.name) < caselessKey(b.name) ? -1 : caselessKey(a.name) > caselessKey(b.name) ? 1 : 0))
    .map((l) => [l.name, canonical(l.definition), canonical(l.examples), canonical(l.counter_examples)]);
  return sha256(JSON.stringify({ language, labels: meaning })).slice(0, 12);
}

/** A guideline's texts in one language: the asked one, else English, else the project's, else any written. */
export interface GuidelineShown {
  name: string;
  definition: string | null;
  examples: string[];
  counter_examples: string[];
  /** the language of the definition shown (null: none written) */
  language: string | null;
}

function textIn(value: LocalizedText | null | undefined, order: readonly string[], projectLanguage: string): [string, string] | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return [value, projectLanguage];
  const map = value as Readonly<Record<string, string>>;
  const lang = order.find((l) => map[l] !== undefined) ?? Object.keys(map).sort()[0];
  return lang === undefined ? null : [map[lang]!, lang];
}

function listIn(value: LocalizedList | null | undefined, order: readonly string[]): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return [...(value as readonly string[])];
  const map = value as Readonly<Record<string, readonly string[]>>;
  const lang = order.find((l) => map[l] !== undefined) ?? Object.keys(map).sort()[0];
  return lang === undefined ? [] : [...map[lang]!];
}

/** The guideline to show to someone reading `uiLanguage`, falling back to English, then the project's language. */
export function guidelineIn(g: { name: string } & GuidelineFields, uiLanguage: string, projectLanguage: string): GuidelineShown {
  // a plain text counts as written in the project's language
  const asMap = <T>(v: string | readonly string[] | Readonly<Record<string, T>> | undefined) =>
    v === undefined ? undefined : typeof v === 'string' || Array.isArray(v) ? { [projectLanguage]: v } : v;
  const order = [uiLanguage, 'en', projectLanguage];
  const definition = textIn(asMap(g.definition) as LocalizedText | undefined, order, projectLanguage);
  return {
    name: g.name,
    definition: definition?.[0] ?? null,
    examples: listIn(asMap(g.examples) as LocalizedList | undefined, order),
    counter_examples: listIn(asMap(g.counter_examples) as LocalizedList | undefined, order),
    language: definition?.[1] ?? null,
  };
}

/** One text of a guideline part in the first of `languages` it is written in, else English, else any; '' when absent. */
export function textInLanguage(value: LocalizedText | undefined, languages: readonly string[]): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  const map = value as Readonly<Record<string, string>>;
  const lang = [...languages, 'en'].find((l) => map[l] !== undefined) ?? Object.keys(map).sort()[0];
  return lang === undefined ? '' : map[lang]!;
}

/** True when a code's guideline is more than one plain text per part (per-language texts or lists of examples). */
export function hasRichGuideline(g: {
  definition?: unknown;
  example?: unknown;
  counter_example?: unknown;
  examples?: unknown;
  counter_examples?: unknown;
}): boolean {
  return (
    [g.definition, g.example, g.counter_example].some((v) => v !== undefined && typeof v !== 'string') ||
    g.examples !== undefined ||
    g.counter_examples !== undefined
  );
}

/** One change between two versions: which label or code, which part in which language, the text before and after. */
export interface GuidelineChange {
  name: string;
  part: 'definition' | 'examples' | 'counter_examples' | 'added' | 'removed';
  /** the language of the texts (null for a label or code added or removed) */
  language: string | null;
  /** a definition as written; a list of examples as its items joined with " | "; null: not written */
  from: string | null;
  to: string | null;
}

/** A guideline part as one text per language (a plain text or list in the version's language; a list joined with " | "). */
function perLanguage(value: LocalizedText | LocalizedList | null, language: string): Map<string, string> {
  if (value === null) return new Map();
  const shown = (v: string | readonly string[]) => (typeof v === 'string' ? v : v.join(' | '));
  if (typeof value === 'string' || Array.isArray(value)) return new Map([[language, shown(value as string | readonly string[])]]);
  return new Map(Object.entries(value as Readonly<Record<string, string | readonly string[]>>).map(([l, v]) => [l, shown(v)]));
}

/** What changed from one version's guidelines to the next's, name by name (names compared as people read them), part by part and language by language. */
export function guidelineChanges(
  before: readonly LoggedGuideline[],
  after: readonly LoggedGuideline[],
  languages: { before: string; after: string } = { before: 'en', after: 'en' },
): GuidelineChange[] {
  const old = new Map(before.map((g) => [caselessKey(g.name), g]));
  const changes: GuidelineChange[] = [];
  const definitionOf = (g: LoggedGuideline, language: string) => [...perLanguage(g.definition, language).values()].join(' / ') || null;
  for (const g of after) {
    const was = old.get(caselessKey(g.name));
    old.delete(caselessKey(g.name));
    if (!was) {
      changes.push({ name: g.name, part: 'added', language: null, from: null, to: definitionOf(g, languages.after) });
      continue;
    }
    for (const part of ['definition', 'examples', 'counter_examples'] as const) {
      const from = perLanguage(was[part], languages.before);
      const to = perLanguage(g[part], languages.after);
      for (const language of [...new Set([...from.keys(), ...to.keys()])].sort()) {
        if (from.get(language) !== to.get(language))
          changes.push({ name: g.name, part, language, from: from.get(language) ?? null, to: to.get(language) ?? null });
      }
    }
  }
  for (const g of old.values())
    changes.push({ name: g.name, part: 'removed', language: null, from: definitionOf(g, languages.before), to: null });
  return changes;
}

/** The labels' guidelines in force under an aloud.yaml, or null when no label carries any guideline text. */
export function labelGuidelinesInForce(
  config: { schema: { labels: ReadonlyArray<{ name: string } & GuidelineFields> }; thinkaloud: { languages: readonly string[] } },
  sha256: (text: string) => string,
): GuidelineInForce | null {
  const language = config.thinkaloud.languages[0] ?? 'en';
  const version = labelGuidelineVersion(config.schema.labels, language, sha256);
  return version === null ? null : { scope: 'labels', version, language, guidelines: loggedGuidelines(config.schema.labels) };
}

/** A code as the guidelines see it (the codebook's CodeDef extends it): a single example and counter-example are the first of their lists. */
export interface CodeGuidelineFields {
  name: string;
  /** what a unit must show to get this code (a QDA tool's code description): plain (the project's language) or per language */
  definition: LocalizedText;
  example?: LocalizedText;
  counter_example?: LocalizedText;
  /** more examples and counter-examples, plain lists or per language (guidelines) */
  examples?: LocalizedList;
  counter_examples?: LocalizedList;
}

/** Joins a single text and a list (plain or per language) into one list per language. */
function joinedList(one: LocalizedText | undefined, many: LocalizedList | undefined, language: string): LocalizedList | null {
  if (one === undefined && many === undefined) return null;
  const asMap = <T>(v: T | Readonly<Record<string, T>> | undefined, plain: (x: unknown) => boolean): Record<string, T> =>
    v === undefined ? {} : plain(v) ? { [language]: v as T } : { ...(v as Readonly<Record<string, T>>) };
  const single = asMap<string>(one, (x) => typeof x === 'string');
  const lists = asMap<readonly string[]>(many, (x) => Array.isArray(x));
  const langs = [...new Set([...Object.keys(single), ...Object.keys(lists)])];
  const joined = Object.fromEntries(langs.map((l) => [l, [...(single[l] !== undefined ? [single[l]!] : []), ...(lists[l] ?? [])]]));
  // all in the project's language: the plain list it was written as
  return langs.length === 1 && langs[0] === language && typeof one !== 'object' && !(many && !Array.isArray(many))
    ? joined[language]!
    : joined;
}

/** A code's guideline as labels have theirs: definition, examples and counter-examples (an empty definition: none). */
export function codeGuideline(code: CodeGuidelineFields, language: string): LoggedGuideline {
  return {
    name: code.name,
    definition: code.definition === '' ? null : code.definition,
    examples: joinedList(code.example, code.examples, language),
    counter_examples: joinedList(code.counter_example, code.counter_examples, language),
  };
}

/** The codes' guidelines in force: the codebook's texts under its version (the one every coding act records). */
export function codeGuidelinesInForce(codes: readonly CodeGuidelineFields[], version: string, language: string): GuidelineInForce {
  return { scope: 'codes', version, language, guidelines: codes.map((c) => codeGuideline(c, language)) };
}
