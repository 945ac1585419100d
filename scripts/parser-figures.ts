/**
 * The commit grammar's figures on any parser tree: the think-aloud corpus (false commits and misses, each sentence
 * parsed with its own language and with en and de active), the commit examples of docs/commit-grammar.md and the rows of the report
 * that asked for the grammar, each listed where the tree's parser gets it wrong. The corpus, the examples and the
 * labels come from this tree; only the parser comes from --tree, so the parser before the grammar (any checkout of
 * it, read only) is measured on the same sentences. Figures only; nothing is asserted or written.
 * Run: npx tsx scripts/parser-figures.ts [--tree DIR] [--list]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ParseOptions, ParseResult } from '../core/common/parser/parseTypes';
import { parseProjectConfig } from '../core/common/project/projectConfig';
import { politeness } from '../test/core/common/parser/parserTestSupport';
import { ISSUE_REPORT_ROWS, judge, loadCorpus, commitGrammarExamples, REPO_ROOT } from '../test/core/common/parser/thinkAloudCorpus';

const { values } = parseArgs({ options: { tree: { type: 'string', default: REPO_ROOT }, list: { type: 'boolean', default: false } } });
const tree = path.resolve(values.tree!);
const parserModule = (await import(pathToFileURL(path.join(tree, 'core/common/parser/commitPhrase.ts')).href)) as {
  createCommitParser(options: ParseOptions): (transcript: string) => ParseResult;
};
const versionModule = (await import(pathToFileURL(path.join(tree, 'core/common/parser/parserVersion.ts')).href)) as {
  PARSER_VERSION: string;
};
const labelsOf = (parse: (t: string) => ParseResult, text: string): string[] => parse(text).commitments.map((c) => c.label);

console.log(`parser ${versionModule.PARSER_VERSION} (${tree})`);
const corpus = loadCorpus();
for (const active of ['own', 'both'] as const) {
  const parsers = {
    en: parserModule.createCommitParser({ labels: politeness, languages: active === 'own' ? ['en'] : ['en', 'de'] }),
    de: parserModule.createCommitParser({ labels: politeness, languages: active === 'own' ? ['de'] : ['en', 'de'] }),
  };
  const tally = { en: { false_commit: 0, miss: 0 }, de: { false_commit: 0, miss: 0 } };
  const wrong: string[] = [];
  for (const row of corpus) {
    const committed = labelsOf(parsers[row.lang], row.text);
    const outcome = judge(committed, row.expect);
    if (outcome === 'right') continue;
    tally[row.lang][outcome]++;
    wrong.push(
      `  ${outcome === 'false_commit' ? 'false commit' : 'miss'} (${row.lang} ${row.kind}): ${JSON.stringify(row.text)} → ${JSON.stringify(committed)}, expected ${JSON.stringify(row.expect)}`,
    );
  }
  const count = (lang: 'en' | 'de') => corpus.filter((r) => r.lang === lang).length;
  console.log(
    `corpus, ${active === 'own' ? "each sentence's own language" : 'en and de active'}: ${corpus.length} sentences (en ${count('en')}, de ${count('de')}): ` +
      `${tally.en.false_commit + tally.de.false_commit} false commits (en ${tally.en.false_commit}, de ${tally.de.false_commit}), ` +
      `${tally.en.miss + tally.de.miss} misses (en ${tally.en.miss}, de ${tally.de.miss})`,
  );
  if (values.list) console.log(wrong.join('\n'));
}

const demo = parseProjectConfig(readFileSync(path.join(REPO_ROOT, 'demo-project/aloud.yaml'), 'utf8'));
const demoParse = parserModule.createCommitParser({ labels: demo.schema.labels, languages: ['en', 'de'] });
for (const [name, rows] of [
  ['commit-grammar examples', commitGrammarExamples()],
  ["the report's table", ISSUE_REPORT_ROWS],
] as const) {
  const wrong = rows.filter(([said, expected]) => JSON.stringify(labelsOf(demoParse, said)) !== JSON.stringify(expected));
  console.log(`${name}: ${rows.length - wrong.length} of ${rows.length} right`);
  for (const [said, expected] of wrong)
    console.log(`  ${JSON.stringify(said)} → ${JSON.stringify(labelsOf(demoParse, said))}, expected ${JSON.stringify(expected)}`);
}
