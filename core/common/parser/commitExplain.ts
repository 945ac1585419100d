import type { ParseOptions } from './parseTypes';
import { COMMIT_GRAMMAR_RULES, FILLED_PAUSES } from './commitGrammar';
import { DEFAULT_STEMS } from './defaultStems';
import { spokenFormsOf, type LabelSpokenForms } from './spokenForms';
import { compileStemPattern } from './stemPattern';
import { DEFAULT_FILLERS } from '../signals/hesitationLists';

/** What commits a label, for `aloud analyze --explain`: every input of the parser, listed. */
export interface CommitRulesExplained {
  /** per label: the spoken forms that name it, and the derived forms dropped because another label has them */
  labels: LabelSpokenForms[];
  /** per active language: the commit phrases (aloud.yaml's or the built-in ones) and how many phrasings each allows */
  commit_phrases: Record<string, Array<{ pattern: string; phrasings: number; source: 'aloud.yaml' | 'built-in' }>>;
  /** words skipped between a phrase and its label: aloud.yaml's fillers and the filled pauses */
  fillers: string[];
  grammar: readonly string[];
}

export function explainCommitRules(options: ParseOptions): CommitRulesExplained {
  const commitPhrases: CommitRulesExplained['commit_phrases'] = {};
  for (const language of options.languages) {
    const own = options.stems?.[language];
    const patterns = own ?? DEFAULT_STEMS[language] ?? [];
    commitPhrases[language] = patterns.map((pattern) => ({
      pattern,
      phrasings: compileStemPattern(pattern).phrasings.length,
      source: own ? 'aloud.yaml' : 'built-in',
    }));
  }
  return {
    labels: spokenFormsOf(options.labels, options.languages),
    commit_phrases: commitPhrases,
    fillers: [...new Set([...(options.fillers ?? DEFAULT_FILLERS), ...FILLED_PAUSES])],
    grammar: COMMIT_GRAMMAR_RULES,
  };
}
