// Prints how long `aloud import --codings` takes for a table of N rows by C coders: the check alone (--dry-run: every
// row checked against the project, the coders' names against the one name rule), then the import itself (each coder's
// session made and her events appended). One import takes at most 1,000 coders (each a session of her own).
// Usage: npx tsx bench/codingsImport.ts [rows=200000] [coders=1000]
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importCodings } from '../core/node/coding/codingsImport';
import { DEMO_PROJECT_DIR, loadProjectConfig } from '../core/node/project/projectFolder';
import { recordSession } from '../test/core/node/export/recordSession';

const rows = Number(process.argv[2] ?? 200_000);
const coderCount = Number(process.argv[3] ?? 1_000);
// each coder codes the one unit with her share of the codes: every row is a distinct coding
const codeCount = Math.ceil(rows / coderCount);
const root = await mkdtemp(path.join(tmpdir(), 'aloud-bench-codings-'));
try {
  const dir = path.join(root, 'project');
  await cp(DEMO_PROJECT_DIR, dir, { recursive: true });
  const project = await loadProjectConfig(dir);
  await recordSession(project, 'ana', [{ id: 'demo-01', said: [' I label this polite.'], complete: true }]);
  await writeFile(
    path.join(dir, 'codebook.yaml'),
    `codes:\n${Array.from({ length: codeCount }, (_, c) => `  - name: Code ${c}\n    definition: d\n`).join('')}`,
  );
  const csv = path.join(root, 'codings.csv');
  const lines = ['item,annotator,unit,coder,code'];
  for (let i = 0; i < rows; i++) lines.push(`demo-01,ana,u0,coder-${i % coderCount},Code ${Math.floor(i / coderCount)}`);
  await writeFile(csv, `${lines.join('\n')}\n`);
  for (const n of [rows / 4, rows / 2, rows].map(Math.round)) {
    const part = path.join(root, `codings-${n}.csv`);
    await writeFile(part, `${lines.slice(0, n + 1).join('\n')}\n`);
    const started = performance.now();
    const summary = await importCodings({ project, source: part, dryRun: true });
    const ms = performance.now() - started;
    console.log(
      `codings import --dry-run: ${n} rows, ${summary.coders.length} coders: ${(ms / 1000).toFixed(2)} s (${((ms * 1000) / n).toFixed(1)} µs per row)`,
    );
  }
  const started = performance.now();
  const summary = await importCodings({ project, source: csv, dryRun: false });
  const ms = performance.now() - started;
  console.log(
    `codings import: ${rows} rows, ${summary.coders.length} coders: ${(ms / 1000).toFixed(2)} s (${((ms * 1000) / rows).toFixed(1)} µs per row)`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
