import type { AdjudicationConfidence } from '../../../core/common/adjudication/adjudicationEvents';
import type { KeyPress } from '../app/shortcuts';

/** The decision being made on the shown item, before Enter sends it. */
export interface DecisionDraft {
  label: string | null;
  confidence: AdjudicationConfidence | null;
  causes: string[];
  rationale: string;
  guideline_flag: string;
}

export const EMPTY_DRAFT: DecisionDraft = { label: null, confidence: null, causes: [], rationale: '', guideline_flag: '' };

/** Keys that toggle the configured causes, in order (home row first). */
export const CAUSE_KEYS = ['a', 's', 'd', 'f', 'g', 'z', 'x', 'c', 'v', 'b'];

/** What a key asks for on the Adjudicate screen; the screen carries it out. */
export type AdjudicationAction =
  | { kind: 'draft'; draft: DecisionDraft }
  | { kind: 'move'; delta: 1 | -1 }
  | { kind: 'decide' }
  | { kind: 'focus'; field: 'rationale' | 'guideline_flag' }
  | { kind: 'help' };

/**
 * The screen's keys as one pure rule: 1–9 adopt annotator n's label, p picks the next label of the schema, h/m/l set the
 * confidence, a s d f g … toggle cause n, r and t go to the rationale and guideline-flag fields, Enter decides,
 * j/k or ↓/↑ move through the queue. null: not a key of this screen (or typed into a field).
 */
export function adjudicationKey(press: KeyPress, draft: DecisionDraft, context: { shownLabels: ReadonlyArray<string | null>; labels: readonly string[]; causes: readonly string[] }): AdjudicationAction | null {
  if (press.inField || press.ctrlKey || press.metaKey || press.altKey) return null;
  const key = press.key;
  if (key === 'Enter') return press.onControl ? null : { kind: 'decide' };
  if (key === 'j' || key === 'ArrowDown') return { kind: 'move', delta: 1 };
  if (key === 'k' || key === 'ArrowUp') return { kind: 'move', delta: -1 };
  if (key === '?') return { kind: 'help' };
  if (/^[1-9]$/.test(key)) {
    const label = context.shownLabels[Number(key) - 1];
    return label ? { kind: 'draft', draft: { ...draft, label } } : null;
  }
  if (key === 'p') {
    const at = draft.label === null ? -1 : context.labels.indexOf(draft.label);
    return { kind: 'draft', draft: { ...draft, label: context.labels[(at + 1) % context.labels.length] ?? null } };
  }
  const confidence = ({ h: 'high', m: 'medium', l: 'low' } as const)[key as 'h' | 'm' | 'l'];
  if (confidence) return { kind: 'draft', draft: { ...draft, confidence } };
  const causeAt = CAUSE_KEYS.indexOf(key);
  if (causeAt >= 0 && causeAt < context.causes.length) {
    const cause = context.causes[causeAt]!;
    const causes = draft.causes.includes(cause) ? draft.causes.filter((c) => c !== cause) : [...draft.causes, cause];
    return { kind: 'draft', draft: { ...draft, causes } };
  }
  if (key === 'r') return { kind: 'focus', field: 'rationale' };
  if (key === 't') return { kind: 'focus', field: 'guideline_flag' };
  return null;
}
