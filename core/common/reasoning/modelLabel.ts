import { LabelMatcher, type LabelMatchVia } from '../parser/labelMatch';
import { matchWords } from '../parser/matchText';
import type { LabelDef } from '../parser/parseTypes';

/** The schema a model's answer is read against: its labels and the languages whose synonyms count. */
export interface LabelSchemaContext {
  labels: readonly LabelDef[];
  languages: readonly string[];
  /**
   * An answer that names no label (or two): `reject` (imports: a located error) or `keep` it as written (the
   * project's own items file after a label was renamed: like a label act no longer in the schema, kept, never lost).
   */
  unresolved?: 'reject' | 'keep';
}

export type ModelLabelResolution = { label: string; via: LabelMatchVia } | { problem: string };

/**
 * The schema label a model's final answer names, by the same staged matcher as spoken labels (name, then synonym,
 * then a fuzzy match only when exactly one label is close). The whole answer must be the label: "Polite." and
 * "höflich" (with de active) resolve; "Polite, mostly" and an answer two labels fit equally are problems.
 */
export function resolveModelLabel(
  answer: string,
  schema: LabelSchemaContext,
  matcher = new LabelMatcher(schema.labels, schema.languages),
): ModelLabelResolution {
  const { words } = matchWords(answer);
  const known = schema.labels.map((l) => l.name).join(', ');
  if (words.length === 0) return { problem: `the model's answer ${JSON.stringify(answer)} has no words (labels: ${known})` };
  const found = matcher.resolve(words, 0);
  if (found?.kind === 'tie' && found.end === words.length) {
    return {
      problem: `the model's answer ${JSON.stringify(answer)} could be any of ${found.labels.map((l) => `"${schema.labels[l]!.name}"`).join(', ')}; write the label's name`,
    };
  }
  if (found?.kind !== 'label' || found.end !== words.length) {
    return { problem: `the model's answer ${JSON.stringify(answer)} is not a label of the schema (labels: ${known})` };
  }
  return { label: schema.labels[found.label]!.name, via: found.via };
}
