import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCommitParser } from '../../../../core/common/parser/commitPhrase';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { expectQuotesExact } from './parserTestSupport';
import { ISSUE_REPORT_ROWS, commitGrammarExamples, REPO_ROOT } from './thinkAloudCorpus';

describe("the commit examples of docs/commit-grammar.md, row by row (the demo project's labels, en and de active)", () => {
  const demo = parseProjectConfig(readFileSync(path.join(REPO_ROOT, 'demo-project/aloud.yaml'), 'utf8'));
  const parse = createCommitParser({ labels: demo.schema.labels, languages: ['en', 'de'] });
  const rows = commitGrammarExamples();

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

  it.each(ISSUE_REPORT_ROWS)('the report that asked for the grammar: %s → %j, a row of the commit-grammar table', (said, labels) => {
    expect(rows).toContainEqual([said, labels]);
    expect(parse(said).commitments.map((c) => c.label)).toEqual(labels);
  });
});
