import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['core/common', 'core/node'];

/** Every module a source names: static imports (type-only too), `export … from`, `import()` and `require()` with a literal. */
function importedSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** The first-level folder of core/common or core/node a repo-relative path lies in, or null (outside, or a file at the top). */
function folderOf(file: string): string | null {
  const m = /^core\/(common|node)\/([^/]+)\//.exec(file);
  return m ? `core/${m[1]}/${m[2]}` : null;
}

/** Folder → folder → the imports (file -> module) behind that edge, from repo-relative paths and their sources. */
function folderEdges(files: ReadonlyMap<string, string>): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const [file, source] of files) {
    const from = folderOf(file);
    if (!from) continue;
    for (const spec of importedSpecifiers(source)) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const to = folderOf(target) ?? folderOf(`${target}/`);
      if (!to || to === from) continue;
      const byTarget = edges.get(from) ?? new Map<string, string[]>();
      edges.set(from, byTarget);
      byTarget.set(to, [...(byTarget.get(to) ?? []), `${file} -> ${target}`]);
    }
  }
  return edges;
}

/** Each pair of folders that import each other, as "a <-> b" (a < b), with the imports both ways. */
function twoWayPairs(edges: Map<string, Map<string, string[]>>): Map<string, string[]> {
  const pairs = new Map<string, string[]>();
  for (const [a, targets] of edges) {
    for (const [b, there] of targets) {
      const back = edges.get(b)?.get(a);
      if (a < b && back) pairs.set(`${a} <-> ${b}`, [...there, ...back]);
    }
  }
  return pairs;
}

function sourcesUnder(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!['node_modules', 'build', 'generated'].includes(entry.name)) sourcesUnder(rel, out);
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.set(rel, readFileSync(path.join(REPO, rel), 'utf8'));
    }
  }
  return out;
}

describe('folder import graph of core/common and core/node', () => {
  it('sees every form of import: static, type-only, export-from, dynamic with a literal', () => {
    const files = new Map([
      ['core/common/a/one.ts', "import { b } from '../b/b';\nexport const one = b;"],
      ['core/common/b/b.ts', "import type { C } from '../c/c';\nexport const b = 1 as unknown as C;"],
      ['core/common/c/c.ts', "export * from '../d/d';\nexport type C = number;"],
      ['core/common/d/d.ts', "export const load = () => import('../a/one');\nexport { b } from '../b/b';"],
      ['core/node/x/x.ts', "import { b } from '../../common/b/b';\nimport 'node:fs';"],
    ]);
    const edges = folderEdges(files);
    expect([...edges.get('core/common/a')!.keys()]).toEqual(['core/common/b']);
    expect([...edges.get('core/common/b')!.keys()]).toEqual(['core/common/c']);
    expect([...edges.get('core/common/c')!.keys()]).toEqual(['core/common/d']);
    expect([...edges.get('core/common/d')!.keys()].sort()).toEqual(['core/common/a', 'core/common/b']);
    expect([...edges.get('core/node/x')!.keys()]).toEqual(['core/common/b']);
    expect([...twoWayPairs(edges).keys()]).toEqual([]);
    files.set('core/common/b/back.ts', "import { load } from '../d/d';");
    expect([...twoWayPairs(folderEdges(files)).keys()]).toEqual(['core/common/b <-> core/common/d']);
  });

  const pairs = twoWayPairs(folderEdges(new Map(ROOTS.flatMap((root) => [...sourcesUnder(root)]))));

  it('has no two folders that import each other', () => {
    const unlisted = [...pairs];
    expect(unlisted.map(([pair, imports]) => [pair, ...imports.map((i) => `   ${i}`)].join('\n')).join('\n')).toBe('');
  });
});
