/**
 * The version of the commit-phrase rules (stems, negation, fillers, label matching). Recorded with every parse in
 * the session log, so a label can always be traced to the rules that derived it; bump it when a rule changes.
 */
export const PARSER_VERSION = 'aloud-commit-parser/1';
