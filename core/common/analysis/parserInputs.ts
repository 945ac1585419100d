import { PARSER_VERSION } from '../parser/parserVersion';
import type { AnalysisConfig } from './transcriptAnalysis';
import { parseOptionsOf } from './transcriptAnalysis';

/**
 * What the commit-phrase parser reads of aloud.yaml, as one canonical text: label names and synonyms, languages,
 * stems (the grammar) and fillers, with the parser's version. Its sha256 versions a voice label by what derived it,
 * so a change elsewhere in aloud.yaml (coding, reasoning, the model, a label's key) never marks spoken labels stale.
 */
export function parserInputsText(config: AnalysisConfig): string {
  const options = parseOptionsOf(config);
  const sorted = <T>(record: Readonly<Record<string, T>> | undefined): Array<[string, T]> =>
    Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify({
    parser_version: PARSER_VERSION,
    labels: options.labels.map((l) => ({ name: l.name, synonyms: sorted(l.synonyms) })),
    languages: options.languages,
    stems: sorted(options.stems),
    fillers: options.fillers ?? [],
  });
}
