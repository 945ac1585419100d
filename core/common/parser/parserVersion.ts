/**
 * The version of the commit-phrase rules (stems, grammar, negation, fillers, spoken forms of labels). Recorded with
 * every parse in the session log, so a label can always be traced to the rules that derived it; bump it when a rule
 * changes. 2: the commit grammar for spontaneous speech (commitGrammar.ts), derived spoken forms instead of fuzzy
 * matching, more built-in phrases (defaultStems.ts).
 */
export const PARSER_VERSION = 'aloud-commit-parser/2';
