import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCommitParser } from '../../../../core/common/parser/commitPhrase';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { expectQuotesExact } from './parserTestSupport';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');

/** The rows of the README's commit-example table: what was said, and the labels it commits ("nothing", "A, then B"). */
function exampleRows(): Array<[string, string[]]> {
  const start = readme.indexOf('<!-- commit-examples: start -->');
  const end = readme.indexOf('<!-- commit-examples: end -->');
  if (start < 0 || end < start) throw new Error('README.md: the commit-examples table markers are missing');
  const lines = readme.slice(start, end).split('\n').filter((l) => l.startsWith('|')).slice(2);
  return lines.map((line) => {
    const [said, commits] = line.split('|').slice(1, -1).map((cell) => cell.trim()) as [string, string];
    return [said, commits === 'nothing' ? [] : commits.split(', then ')];
  });
}

describe("the README's commit examples, row by row (the demo project's labels, en and de active)", () => {
  const demo = parseProjectConfig(readFileSync(path.join(repo, 'demo-project/aloud.yaml'), 'utf8'));
  const parse = createCommitParser({ labels: demo.schema.labels, languages: ['en', 'de'] });
  const rows = exampleRows();

  it('has rows that commit and rows that do not, English and German', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows.filter(([, labels]) => labels.length === 0).length).toBeGreaterThanOrEqual(10);
    expect(rows.filter(([, labels]) => labels.length > 0).length).toBeGreaterThanOrEqual(10);
  });

  it.each(rows)('%s → %j', (said, labels) => {
    const result = parse(said);
    expectQuotesExact(said, result);
    expect(result.commitments.map((c) => c.label)).toEqual(labels);
  });
});
