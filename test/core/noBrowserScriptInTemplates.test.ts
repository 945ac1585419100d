import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** What browser code looks like inside a string: an inline script element, or statements only a page runs. */
const BROWSER_SCRIPT: ReadonlyArray<[string, RegExp]> = [
  ['an inline <script>', /<script(?![^>]*\bsrc=)[^>]*>/i],
  ['a function expression', /\bfunction\s*\w*\s*\([^)]*\)\s*\{/],
  ['the DOM', /\bdocument\s*\.\s*(getElementById|createElement|querySelector|addEventListener)\b/],
  ['an event listener', /\.addEventListener\s*\(/],
  ['web storage', /\b(sessionStorage|localStorage)\s*\.\s*(getItem|setItem)\b/],
];

/** Each template literal of a TypeScript source that holds browser script: its line and what it holds. */
export function browserScriptInTemplates(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let text: string | null = null;
    if (ts.isNoSubstitutionTemplateLiteral(node)) text = node.rawText ?? node.text;
    else if (ts.isTemplateExpression(node))
      text = [node.head.rawText ?? node.head.text, ...node.templateSpans.map((s) => s.literal.rawText ?? s.literal.text)].join('${…}');
    if (text !== null) {
      for (const [what, pattern] of BROWSER_SCRIPT) {
        if (pattern.test(text)) {
          const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
          found.push(`${file}:${line}: a template string holds ${what}`);
          break;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'native' ? [] : tsFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

describe('browser code is code: no page script inside a template string under core/', () => {
  it('finds none in core/ (the member pages live in renderer/roomPages, typed, linted and tested)', () => {
    const files = tsFiles(path.join(repoRoot, 'core'));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => {
      const source = readFileSync(f, 'utf8');
      // only a file with something script-like anywhere is parsed
      return BROWSER_SCRIPT.some(([, pattern]) => pattern.test(source)) ? browserScriptInTemplates(path.relative(repoRoot, f), source) : [];
    });
    expect(found).toEqual([]);
  });

  it('the check sees a page script the way the room pages used to hold theirs, and lets markup with a script file pass', () => {
    const oldPage = [
      'export const PAGE_JS = String.raw`',
      '(function () {',
      '  var $ = function (id) { return document.getElementById(id); };',
      "  $('join-button').addEventListener('click', function () { join(); });",
      '})();`;',
    ].join('\n');
    expect(browserScriptInTemplates('old.ts', oldPage)).toEqual(['old.ts:1: a template string holds a function expression']);
    expect(browserScriptInTemplates('inline.ts', 'const html = `<p>${name}</p><script>go()</script>`;')).toEqual([
      'inline.ts:1: a template string holds an inline <script>',
    ]);
    expect(browserScriptInTemplates('arrow.ts', "const js = `document.querySelector('#x')`;")).toHaveLength(1);
    expect(browserScriptInTemplates('page.ts', 'const html = `<head><script src="/room.js" defer></script></head><p>${x}</p>`;')).toEqual(
      [],
    );
  });
});
