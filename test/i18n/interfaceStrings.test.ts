/**
 * Every string the interface shows a person comes from a catalog. The scan reads each renderer and room-page source
 * with TypeScript's parser and flags: JSX text with a letter in it; a person-facing attribute (title, placeholder,
 * aria-label, alt, …) given a literal with a letter; and any other string literal that reads as words (two words of
 * letters), which is how messages reach the screen through state (`setError('…')`). Not flagged: imports, CSS class
 * names and other non-person attributes, console calls, and a line (or the line after a comment) marked
 * `i18n-ignore: <why>` (a comment line above counts too) — for text that is not language (a unit symbol, a keyboard key name, a file extension).
 * One test per feature folder, so a failure names where to look (`-t features/label`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');

const PERSON_ATTRIBUTES = new Set([
  'title',
  'placeholder',
  'alt',
  'label',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'aria-placeholder',
]);
const WORDS = /\p{L}{2,}[\s\u00a0]+\p{L}{2,}/u;
/** Where even one word reaches the screen: the argument (by position) of these calls, and these properties. */
const TEXT_ARGUMENT: Readonly<Record<string, number>> = { el: 1, button: 0, confirm: 0, alert: 0, prompt: 0, createTextNode: 0 };
const TEXT_PROPERTIES = new Set(['textContent', 'innerText', 'title', 'placeholder', 'ariaLabel', 'alt']);

/** What of a string a person reads: in HTML, the text between the tags (attribute soup is not language). */
function readable(text: string): string {
  return /<[a-z!/]/i.test(text) ? text.replace(/<style[^>]*>[^]*?<\/style>/gi, ' ').replace(/<[^>]*>/g, ' ') : text;
}

/** The string (literal or template) lands on the screen as text, one word or many. */
function reachesScreen(node: ts.Node, sf: ts.SourceFile): boolean {
  const parent = node.parent;
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
    const index = parent.arguments.indexOf(node as ts.Expression);
    if (TEXT_ARGUMENT[name] === index) return true;
    if (name === 'setAttribute' && index === 1) return PERSON_ATTRIBUTES.has(parent.arguments[0]!.getText(sf).slice(1, -1));
  }
  if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
    return ts.isPropertyAccessExpression(parent.left) && TEXT_PROPERTIES.has(parent.left.name.text);
  if (ts.isConditionalExpression(parent) && parent.condition !== node) return reachesScreen(parent, sf);
  return false;
}
const LETTER = /\p{L}/u;

function walk(dir: string, out: string[] = []): string[] {
  if (/\.tsx?$/.test(dir)) return [dir];
  for (const entry of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'messages') continue;
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(rel, out);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The strings a file would show a person without a catalog, as "file:line: text". */
export function bareStrings(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lines = source.split('\n');
  const ignored = (node: ts.Node) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    return /i18n-ignore/.test(lines[line] ?? '') || /^\s*(\/\/|\{?\/\*).*i18n-ignore/.test(lines[line - 1] ?? '');
  };
  const found: string[] = [];
  const flag = (node: ts.Node, text: string) => {
    if (ignored(node)) return;
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    found.push(`${file}:${line}: ${JSON.stringify(text.trim().slice(0, 80))}`);
  };
  const inSkippedContext = (node: ts.Node): boolean => {
    for (let p = node.parent; p; p = p.parent) {
      if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isLiteralTypeNode(p)) return true;
      if (ts.isJsxAttribute(p)) return !PERSON_ATTRIBUTES.has(p.name.getText(sf));
      if (ts.isCallExpression(p) && /^console\./.test(p.expression.getText(sf))) return true;
      if (ts.isPropertyAssignment(p) && p.name.getText(sf) === 'className') return true;
    }
    return false;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      if (LETTER.test(node.text)) flag(node, node.text);
    } else if (ts.isJsxAttribute(node) && PERSON_ATTRIBUTES.has(node.name.getText(sf))) {
      const init = node.initializer;
      if (init && ts.isStringLiteral(init) && LETTER.test(init.text)) flag(init, init.text);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const text = readable(node.text);
      if (
        (WORDS.test(text) || (LETTER.test(text) && reachesScreen(node, sf))) &&
        !ts.isJsxAttribute(node.parent) &&
        !inSkippedContext(node)
      )
        flag(node, text);
    } else if (ts.isTemplateExpression(node)) {
      const pieces = readable([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('\u0001')).replaceAll('\u0001', ' ');
      if ((WORDS.test(pieces) || (LETTER.test(pieces) && reachesScreen(node, sf))) && !inSkippedContext(node)) flag(node, pieces);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** A module's exported constants (objects, arrays) holding a string that reads as words, with that string. */
function wordTablesIn(file: string, source: string): Map<string, string> {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const tables = new Map<string, string>();
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of statement.declarationList.declarations) {
      let init = d.initializer;
      while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
      if (!init || !ts.isIdentifier(d.name) || !(ts.isObjectLiteralExpression(init) || ts.isArrayLiteralExpression(init))) continue;
      let phrase: string | null = null;
      const look = (node: ts.Node): void => {
        if (phrase === null && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && WORDS.test(node.text))
          phrase = node.text;
        ts.forEachChild(node, look);
      };
      look(init);
      if (phrase !== null) tables.set(d.name.text, phrase);
    }
  }
  return tables;
}
const wordTableCache = new Map<string, Map<string, string>>();
function wordTables(file: string): Map<string, string> {
  if (!wordTableCache.has(file))
    wordTableCache.set(
      file,
      existsSync(path.join(REPO, file)) ? wordTablesIn(file, readFileSync(path.join(REPO, file), 'utf8')) : new Map(),
    );
  return wordTableCache.get(file)!;
}

/** Folders judged one by one: each feature, and the renderer's other top folders, and the room pages. */
const FOLDERS = [
  ...readdirSync(path.join(REPO, 'renderer/src/features')).map((f) => `renderer/src/features/${f}`),
  ...['app', 'shared', 'capture', 'contract', 'screens'].map((f) => `renderer/src/${f}`),
  'renderer/roomPages',
  // the room pages' HTML the host serves
  'core/node/rooms/roomPage.ts',
  'core/node/rooms/shadowPage.ts',
  'core/node/rooms/roomPageBase.ts',
  // the room servers' refusals a person reads (the room page shows them, a browser opens them as a page)
  'core/node/rooms/roomHttp.ts',
  'core/node/rooms/roomListener.ts',
  'core/node/rooms/shadowListener.ts',
  'core/node/http/localHttpServer.ts',
  // the lead's agreement report (aloud agreement --html [--lang])
  'core/common/agreement/agreementHtml.ts',
  'core/common/coding/codeAgreementHtml.ts',
  'core/common/adjudication/goldAgreementHtml.ts',
  'core/common/agreement/timeOnItemHtml.ts',
].filter((dir) => existsSync(path.join(REPO, dir)));

describe('interface strings come from the catalogs', () => {
  it('the scan sees what it must', () => {
    const sample = [
      'const a = <p>Recording stopped</p>;',
      'const b = <button title="Play it" className="big button">{x}</button>;',
      "setError('The recording could not be played');",
      'setError(`No waveform: ${e}`);',
      "console.log('not for a person here');",
      "const c = <p>{intl.formatMessage({ id: 'label.stop' })}</p>;",
      "const d = 'kbd'; // one word, not a sentence",
      "const e = <kbd>Esc</kbd>; // i18n-ignore: a key's name",
      "box.appendChild(el('h2', 'Chat'));",
      "b.textContent = on ? 'Stop' : 'Listen';",
      'if (confirm(`Remove ${name}?`)) go();',
      "span.setAttribute('aria-label', 'partial');",
      "span.setAttribute('data-kind', 'partial');",
      'const html = `<section id="a" class="b c"><h2>${t(x)}</h2><p>Say hello</p></section>`;',
      "if (!viewer) throw new HttpFailure(401, 'join the room first');",
      "throw roomFailure(403, 'room.error.wrongCode');",
    ].join('\n');
    expect(bareStrings('sample.tsx', sample).map((s) => s.split(': ')[1])).toEqual([
      '"Recording stopped"',
      '"Play it"',
      '"The recording could not be played"',
      '"No waveform:"',
      '"Chat"',
      '"Stop"',
      '"Listen"',
      '"Remove  ?"',
      '"partial"',
      '"Say hello"',
      '"join the room first"',
    ]);
  });

  it("no screen shows core's English word tables (a constant of phrases imported from core/)", () => {
    const found: string[] = [];
    for (const file of FOLDERS.filter((f) => f.startsWith('renderer/')).flatMap((dir) => walk(dir))) {
      const source = readFileSync(path.join(REPO, file), 'utf8');
      const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
      for (const statement of sf.statements) {
        if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
        const from = (statement.moduleSpecifier as ts.StringLiteral).text;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), from));
        const bindings = statement.importClause?.namedBindings;
        if (!target.startsWith('core/') || !bindings || !ts.isNamedImports(bindings)) continue;
        const words = wordTables(`${target}.ts`);
        for (const e of bindings.elements) {
          const name = (e.propertyName ?? e.name).text;
          if (!e.isTypeOnly && words.has(name)) found.push(`${file}: ${name} from ${target} (${words.get(name)})`);
        }
      }
    }
    expect(found, 'give each phrase a catalog id at the screen, and keep the table for the CLI').toEqual([]);
  });

  it('the word-table check sees a table of phrases, and not a table of names', () => {
    const tables = wordTablesIn(
      't.ts',
      "export const TITLES = { a: 'REFI-QDA project (.qdpx)' };\nexport const FORMATS = ['eaf', 'qdpx'];",
    );
    expect([...tables.keys()]).toEqual(['TITLES']);
  });

  for (const dir of FOLDERS) {
    it(dir, () => {
      const found = walk(dir).flatMap((file) => bareStrings(file, readFileSync(path.join(REPO, file), 'utf8')));
      expect(found, `${found.length} strings shown without a catalog`).toEqual([]);
    });
  }
});
