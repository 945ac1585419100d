import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../../renderer/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** A file's folder as the renderer is laid out: each feature on its own, then app, shared, contract, capture. */
function folderOf(file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  if (parts[0] === 'features') return `features/${parts[1]}`;
  return parts.length > 1 ? parts[0]! : '(entry)';
}

/** Every import from one folder of renderer/src into another, as "from -> to". */
function folderImports(): Set<string> {
  const edges = new Set<string>();
  for (const file of sourceFiles(src)) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      // a message catalog is data, composed for every screen by shared/i18n/catalogs.ts (I18N.md): not a code dependency
      if (/\/messages\/[a-z]{2}\.json$/.test(spec!)) continue;
      const target = path.resolve(path.dirname(file), spec!);
      if (path.relative(src, target).startsWith('..')) continue;
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to) edges.add(`${from} -> ${to}`);
    }
  }
  return edges;
}

describe('the renderer by feature', () => {
  it('no two folders import each other: the shell composes features, features use shared pieces, never back', () => {
    const edges = folderImports();
    expect(edges.size).toBeGreaterThan(10);
    const twoWay = [...edges].filter((edge) => edges.has(edge.split(' -> ').reverse().join(' -> ')));
    expect(twoWay).toEqual([]);
    expect([...edges].filter((edge) => edge.startsWith('shared ->'))).toEqual(['shared -> contract']);
  });

  it('the Label screen is small parts: no file in features/label over 300 lines', () => {
    const long = sourceFiles(path.join(src, 'features/label'))
      .map((file) => ({ file: path.basename(file), lines: readFileSync(file, 'utf8').split('\n').length }))
      .filter((f) => f.lines > 300);
    expect(long).toEqual([]);
  });
});
