/**
 * Refusals a person meets in the app say what they say from the refusal catalog (core/common/refusal/messages): the
 * scan reads the folders of the app's acts with TypeScript's parser and fails on a construction of a Refusal class
 * whose arguments hold no catalog message — neither a `say(…)` call, a carried `….say` (a refusal re-thrown as
 * another) nor a message carried by name (`said`, `…Said`). Allowed: an argument-shape check (a function typed ArgCheck: a caller's bug, not a person's act) and a
 * line marked `// i18n-ignore: <why>` (on the line or the line above). The CLI's own UsageError is not scanned.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');

const FOLDERS = [
  'core/common/session',
  'core/node/session',
  'core/common/coding',
  'core/node/coding',
  'core/common/adjudication',
  'core/node/adjudication',
  'core/common/deidentify',
  'core/node/deidentify',
  'core/common/rooms',
  'core/node/rooms',
  'core/node/projects',
  'core/node/models',
  'core/common/project',
  'core/node/settings',
  'core/common/models',
  'core/node/engine',
  'core/node/project',
  'core/common/codebook',
  'core/node/fs',
  'core/node/audio',
];

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) sources(rel, out);
    else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** Every class of core that is a Refusal, through any chain of `extends`. */
function refusalClasses(): Set<string> {
  const parent = new Map<string, string>();
  for (const file of sources('core')) {
    for (const m of readFileSync(path.join(REPO, file), 'utf8').matchAll(/class (\w+) extends (\w+)/g)) parent.set(m[1]!, m[2]!);
  }
  const isRefusal = (name: string | undefined): boolean => name === 'Refusal' || (name !== undefined && isRefusal(parent.get(name)));
  return new Set(['Refusal', ...[...parent.keys()].filter((name) => isRefusal(name))]);
}
const REFUSALS = refusalClasses();

function saysFromCatalog(node: ts.Node): boolean {
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'say') return true;
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'say') return true;
  // a catalog message carried by name: `said`, `reasonSaid` (typed RefusalMessage where it is made)
  if (ts.isIdentifier(node) && /^said$|Said$/.test(node.text) && !ts.isPropertyAccessExpression(node.parent)) return true;
  return ts.forEachChild(node, (child) => saysFromCatalog(child) || undefined) ?? false;
}

function inArgumentCheck(node: ts.Node): boolean {
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
    if (ts.isVariableDeclaration(p) && p.type && /\bArgCheck\b/.test(p.type.getText())) return true;
  }
  return false;
}

/** Refusal constructions in `file` without a catalog message, as "file:line: code". */
export function refusalsWithoutCatalog(file: string, text = readFileSync(path.join(REPO, file), 'utf8')): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && REFUSALS.has(node.expression.text)) {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const marked = /i18n-ignore:\s*\S/.test(lines[line] ?? '') || /i18n-ignore:\s*\S/.test(lines[line - 1] ?? '');
      if (!marked && !inArgumentCheck(node) && !(node.arguments ?? []).some(saysFromCatalog)) {
        found.push(`${file}:${line + 1}: ${node.getText(sf).slice(0, 100)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('refusals a person meets come from the refusal catalog', () => {
  it('knows the refusal classes (the scan would pass vacuously otherwise)', () => {
    for (const name of ['SessionUsageError', 'RoomRuleError', 'ProjectError', 'ConfigError', 'SessionLockedError', 'ModelStoreError'])
      expect(REFUSALS.has(name), name).toBe(true);
  });

  it('flags a refusal in English and accepts say(…), a carried say, an argument check and a marked line', () => {
    const flagged = refusalsWithoutCatalog(
      'x.ts',
      [
        "throw new SessionUsageError('no item is open');",
        "throw new SessionUsageError(say('refusal.session.notRecording'));",
        'throw new RoomRuleError(404, e.say ?? e.message);',
        'throw new ModelFileError(file, reasonSaid);',
        'throw new ModelFileError(file, said.reason);',
        "const check: ArgCheck = (v) => { throw new Refusal('bad_request', 'must be a number'); };",
        "throw new ProjectError(problem); // i18n-ignore: a test's reason",
        'throw new Error(`not a refusal`);',
      ].join('\n'),
    );
    expect(flagged).toEqual(["x.ts:1: new SessionUsageError('no item is open')", 'x.ts:5: new ModelFileError(file, said.reason)']);
  });

  for (const folder of FOLDERS) {
    it(folder, () => {
      expect(sources(folder).flatMap((file) => refusalsWithoutCatalog(file))).toEqual([]);
    });
  }
});
