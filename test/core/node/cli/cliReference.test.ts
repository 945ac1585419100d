import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI_REFERENCE_END, CLI_REFERENCE_START, renderCliReference, withCliReference } from '../../../../core/node/cli/cliReference';
import { commands } from '../../../../core/node/cli/main';
import { cli } from '../../../helpers/cli';

const CLI_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/cli.md');

describe('docs/cli.md, the CLI reference generated from the command table', () => {
  const doc = readFileSync(CLI_DOC, 'utf8');
  let rendered = '';
  // Rendering loads every command's module (as each command's --help does): a hook's longer budget, not a test's.
  beforeAll(async () => {
    rendered = await renderCliReference();
  });

  it('is what the command table renders now (else: npm run docs:cli)', async () => {
    expect(withCliReference(doc, rendered)).toBe(doc);
  });

  it('holds, for every command of the table, exactly what `--help` prints', async () => {
    const top = await cli('--help');
    expect(doc).toContain(top.out.replace(/\n+$/, ''));
    for (const { name } of commands) {
      const help = await cli(name, '--help');
      expect(help.code, name).toBe(0);
      expect(doc, name).toContain(`### \`${name}\`\n\n\`\`\`text\n${help.out.replace(/\n+$/, '')}\n\`\`\``);
    }
  });

  it('is told apart from a reference the table no longer renders', () => {
    const stale = withCliReference(doc, rendered.replace('Usage: aloud init', 'Usage: aloud init --old-flag'));
    expect(withCliReference(stale, rendered)).toBe(doc);
    expect(stale).not.toBe(doc);
  });

  it('refuses a docs/cli.md without its markers, naming the file', () => {
    expect(() => withCliReference(doc.replace(CLI_REFERENCE_END, ''), '')).toThrow(/docs\/cli\.md: the cli-reference markers/);
    expect(() => withCliReference(doc.replace(CLI_REFERENCE_START, ''), '')).toThrow(/markers are missing/);
  });

  it('has a hand-written overview whose rows name only commands of the table, and every command of the table', () => {
    const overview = doc.slice(0, doc.indexOf(CLI_REFERENCE_START));
    const named = new Set(Array.from(overview.matchAll(/^\| `([a-z]+)[ `]/gm), (m) => String(m[1])));
    const table = new Set(commands.map((c) => c.name));
    expect([...named].filter((n) => !table.has(n))).toEqual([]);
    expect([...table].filter((n) => !named.has(n))).toEqual([]);
  });
});
