/**
 * Writes the generated part of docs/cli.md from the CLI's command table (`npm run docs:cli`); `--check` writes nothing
 * and exits 1 when docs/cli.md differs from what the table renders (the test does the same).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCliReference, withCliReference } from '../core/node/cli/cliReference';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'cli.md');
const doc = readFileSync(file, 'utf8');
const updated = withCliReference(doc, await renderCliReference());
if (process.argv.includes('--check')) {
  if (updated !== doc) {
    process.stderr.write('docs/cli.md differs from the CLI command table: run npm run docs:cli\n');
    process.exit(1);
  }
  process.stdout.write('docs/cli.md matches the CLI command table\n');
} else if (updated === doc) {
  process.stdout.write('docs/cli.md is up to date\n');
} else {
  writeFileSync(file, updated);
  process.stdout.write('docs/cli.md rewritten from the CLI command table\n');
}
