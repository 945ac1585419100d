/**
 * Every string the interface shows a person comes from a catalog. The scan reads each renderer and room-page source
 * with TypeScript's parser and flags: JSX text with a letter in it; a person-facing attribute (title, placeholder,
 * aria-label, alt, …) given a literal with a letter; and any other string literal that reads as words (two words of
 * letters), which is how messages reach the screen through state (`setError('…')`). Not flagged: imports, CSS class
 * names and other non-person attributes, console calls, and a line (or the line after a comment) marked
 * `i18n-ignore: <why>` — for text that is not language (a unit symbol, a keyboard key name, a file extension).
 * One test per feature folder, so a failure names where to look (`-t features/label`).
 */
import { readdirSync, readFileSync } from 'node:fs';
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
const LETTER = /\p{L}/u;

function walk(dir: string, out: string[] = []): string[] {
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
    return /i18n-ignore/.test(lines[line] ?? '') || /i18n-ignore/.test(lines[line - 1] ?? '');
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
    } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && WORDS.test(node.text)) {
      if (!ts.isJsxAttribute(node.parent) && !inSkippedContext(node)) flag(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
      if (WORDS.test(pieces) && !inSkippedContext(node)) flag(node, pieces);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Folders judged one by one: each feature, and the renderer's other top folders, and the room pages. */
const FOLDERS = [
  ...readdirSync(path.join(REPO, 'renderer/src/features')).map((f) => `renderer/src/features/${f}`),
  ...['app', 'shared', 'capture', 'contract', 'screens'].map((f) => `renderer/src/${f}`),
  'renderer/roomPages',
].filter((dir) => {
  try {
    return readdirSync(path.join(REPO, dir)).length > 0;
  } catch {
    return false;
  }
});

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
    ].join('\n');
    expect(bareStrings('sample.tsx', sample).map((s) => s.split(': ')[1])).toEqual([
      '"Recording stopped"',
      '"Play it"',
      '"The recording could not be played"',
      '"No waveform:"',
    ]);
  });

  for (const dir of FOLDERS) {
    it(dir, () => {
      const found = walk(dir).flatMap((file) => bareStrings(file, readFileSync(path.join(REPO, file), 'utf8')));
      expect(found, `${found.length} strings shown without a catalog`).toEqual([]);
    });
  }
});
