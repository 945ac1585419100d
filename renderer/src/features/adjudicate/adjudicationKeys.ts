import type { AdjudicationConfidence } from '../../../../core/common/adjudication/adjudicationEvents';
import type { IntlShape } from 'react-intl';
import type { KeyPress } from '../../shared/keyPress';
import type { AppMessageId } from '../../shared/i18n/catalogs';

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
  /** play or pause annotator n's protocol (1-based, as shown); 'current': the one last played (the first at first) */
  | { kind: 'play'; protocol: number | 'current' }
  /** the protocol last played, from its commit phrase */
  | { kind: 'to-commit' }
  | { kind: 'help' }
  /** mark or unmark the shown item for a huddle */
  | { kind: 'mark' }
  /** send the marked items (none marked: the shown one) to a huddle room */
  | { kind: 'huddle' }
  /** take the closed huddle's outcome with the draft's confidence, causes and rationale */
  | { kind: 'huddle-outcome' };

/** Shift+M, Shift+H, Shift+O by the key's place (h, m and o alone are confidence and the commit phrase). */
const HUDDLE_KEYS: Record<string, AdjudicationAction> = {
  KeyM: { kind: 'mark' },
  KeyH: { kind: 'huddle' },
  KeyO: { kind: 'huddle-outcome' },
};

/**
 * The screen's keys as one pure rule: 1–9 adopt annotator n's label, p picks the next label of the schema, h/m/l set the
 * confidence, a s d f g … toggle cause n, r and t go to the rationale and guideline-flag fields, Enter decides,
 * j/k or ↓/↑ move through the queue; Shift+1–9 play or pause annotator n's protocol (by the key's place, whatever the
 * layout types with Shift), Space the one last played, o plays it from its commit phrase; Shift+M marks the item for a
 * huddle, Shift+H sends the marked ones, Shift+O takes the huddle's outcome. null: not a key of this screen (or typed
 * into a field).
 */
export function adjudicationKey(
  press: KeyPress,
  draft: DecisionDraft,
  context: { shownLabels: ReadonlyArray<string | null>; labels: readonly string[]; causes: readonly string[] },
): AdjudicationAction | null {
  if (press.inField || press.ctrlKey || press.metaKey || press.altKey) return null;
  const key = press.key;
  if (key === 'Enter') return press.onControl ? null : { kind: 'decide' };
  const digit = /^Digit([1-9])$/.exec(press.code ?? '');
  if (press.shiftKey && digit) return Number(digit[1]) <= context.shownLabels.length ? { kind: 'play', protocol: Number(digit[1]) } : null;
  if (press.shiftKey && !press.repeat && HUDDLE_KEYS[press.code ?? '']) return HUDDLE_KEYS[press.code ?? '']!;
  if (key === ' ') return press.onControl || press.repeat ? null : { kind: 'play', protocol: 'current' };
  if (key === 'o') return { kind: 'to-commit' };
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

/** The Adjudicate screen's keys, for its "?" list (the same rules as adjudicationKey), in the interface's language. */
export function adjudicationShortcutList(causes: readonly string[], intl: IntlShape): Array<{ keys: string[]; what: string }> {
  const say = (id: AppMessageId, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return [
    { keys: ['1', '…', '9'], what: say('adjudicate.keys.adopt') },
    { keys: ['p'], what: say('adjudicate.keys.another') },
    { keys: ['h', 'm', 'l'], what: say('adjudicate.keys.confidence') },
    ...causes.slice(0, CAUSE_KEYS.length).map((cause, i) => ({ keys: [CAUSE_KEYS[i]!], what: say('adjudicate.keys.cause', { cause }) })),
    { keys: ['r', 't'], what: say('adjudicate.keys.fields') },
    { keys: ['Enter'], what: say('adjudicate.keys.decide') },
    { keys: ['Shift+1', '…', 'Shift+9'], what: say('adjudicate.keys.play') },
    { keys: [say('adjudicate.keys.space')], what: say('adjudicate.keys.playLast') },
    { keys: ['o'], what: say('adjudicate.keys.toCommit') },
    { keys: ['j', 'k', '↓', '↑'], what: say('adjudicate.keys.move') },
    { keys: ['Shift+M'], what: say('adjudicate.keys.mark') },
    { keys: ['Shift+H'], what: say('adjudicate.keys.huddle') },
    { keys: ['Shift+O'], what: say('adjudicate.keys.outcome') },
    { keys: ['?'], what: say('adjudicate.keys.help') },
  ];
}
