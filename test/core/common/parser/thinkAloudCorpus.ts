import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The think-aloud corpus and the commit examples of docs/commit-grammar.md, as the tests and `scripts/parser-figures.ts` (the same
 * figures for any parser tree, the one before the grammar included) read them.
 */
export interface CorpusRow {
  lang: 'en' | 'de';
  kind: string;
  text: string;
  expect: string[];
  /** why the grammar misses this one (documented, expected) */
  known_miss?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '../../../..');

export function loadCorpus(): CorpusRow[] {
  return readFileSync(path.join(here, 'fixtures', 'thinkAloudCorpus.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as CorpusRow);
}

export type Outcome = 'right' | 'false_commit' | 'miss';

/** A false commit is a committed label the expected sequence does not hold at that point; a miss, an expected label not committed. */
export function judge(committed: readonly string[], expected: readonly string[]): Outcome {
  let at = 0;
  for (const label of committed) {
    while (at < expected.length && expected[at] !== label) at++;
    if (at === expected.length) return 'false_commit';
    at++;
  }
  return committed.length === expected.length ? 'right' : 'miss';
}

/** The rows of the commit-example table in docs/commit-grammar.md: what was said, and the labels it commits ("nothing", "A, then B"). */
export function commitGrammarExamples(
  doc = readFileSync(path.join(REPO_ROOT, 'docs', 'commit-grammar.md'), 'utf8'),
): Array<[string, string[]]> {
  const start = doc.indexOf('<!-- commit-examples: start -->');
  const end = doc.indexOf('<!-- commit-examples: end -->');
  if (start < 0 || end < start) throw new Error('docs/commit-grammar.md: the commit-examples table markers are missing');
  const lines = doc
    .slice(start, end)
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2);
  return lines.map((line) => {
    const [said, commits] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()) as [string, string];
    return [said, commits === 'nothing' ? [] : commits.split(', then ')];
  });
}

/** The table of issue 16's report: what an annotator said, as whisper writes it, and what it should commit. */
export const ISSUE_REPORT_ROWS: ReadonlyArray<[string, string[]]> = [
  ['I say polite things to my boss all the time.', []],
  ['Someone might label this polite.', []],
  ['They would label this polite.', []],
  ['I was going to label this polite, but no.', []],
  ['If I had to label this polite I would hesitate.', []],
  ["I'd label this polite if it didn't end so abruptly.", []],
  ['I labeled this polite.', ['Polite']],
  ["My answer's impolite.", ['Impolite']],
  ['My answer is in polite.', ['Impolite']],
  ['I would not label this polite, final answer neutral.', ['Neutral']],
];
