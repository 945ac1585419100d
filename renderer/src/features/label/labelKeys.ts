import type { LabelDef } from '../../../../core/common/project/projectConfig';

/** What a key press asks the label screen to do. */
export type ShortcutAction =
  | { kind: 'toggle-recording' }
  | { kind: 'label'; label: string }
  | { kind: 'complete' }
  | { kind: 'move'; delta: number }
  | { kind: 'jump' }
  | { kind: 'help' }
  /** Esc: focus leaves a text field or a control, and the keys are the screen's again */
  | { kind: 'leave-field' };

/** The parts of a KeyboardEvent the rules look at (so they can be tested without a DOM). */
export interface KeyPress {
  key: string;
  repeat: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Shift held, and the physical key (`Digit1`…): Shift+digit is read by position, since Shift changes the character by layout */
  shiftKey?: boolean;
  code?: string;
  /** the press went to a text field, select or editable element */
  inField: boolean;
  /**
   * the press went to a link (Enter follows it) or to a button the user reached with Tab (Enter and Space press it).
   * A click never leaves a control focused (focusPolicy), so a focused control is always one reached by keyboard.
   */
  onControl?: 'link' | 'button' | null;
}

/**
 * The label screen's keyboard rules, the one keyboard model: the keys act on the open item whatever was clicked last;
 * only a text field keeps them (Esc leaves it), and a control reached with Tab keeps Enter and Space. Held keys
 * repeat: a held Space must not flip recording on and off, and a held label key must not commit again and again;
 * held arrows do move (that is how people scroll a list).
 */
export function shortcutAction(press: KeyPress, labels: readonly LabelDef[]): ShortcutAction | null {
  const command = press.ctrlKey || press.metaKey;
  if (command && !press.altKey && press.key.toLowerCase() === 'g') return { kind: 'jump' };
  if (press.key === 'Escape') return press.inField || press.onControl ? { kind: 'leave-field' } : null;
  if (press.inField || command || press.altKey) return null;
  if (
    (press.onControl === 'link' && press.key === 'Enter') ||
    (press.onControl === 'button' && (press.key === 'Enter' || press.key === ' '))
  )
    return null;
  if (press.key === '?') return press.repeat ? null : { kind: 'help' };
  if (press.key === 'ArrowRight') return { kind: 'move', delta: 1 };
  if (press.key === 'ArrowLeft') return { kind: 'move', delta: -1 };
  if (press.repeat) return null;
  const label = labels.find((l) => l.key !== undefined && l.key === press.key);
  if (label) return { kind: 'label', label: label.name };
  if (press.key === ' ' || press.key === 'r') return { kind: 'toggle-recording' };
  if (press.key === 'Enter') return { kind: 'complete' };
  return null;
}

/** Every shortcut, for the "?" overlay; label keys come from the project. */
export function shortcutList(labels: readonly LabelDef[]): Array<{ keys: string[]; what: string }> {
  return [
    { keys: ['Space', 'R'], what: 'Start or stop recording (holding the key does nothing more)' },
    ...labels.filter((l) => l.key !== undefined).map((l) => ({ keys: [l.key!], what: `Label “${l.name}”` })),
    { keys: ['Enter'], what: 'Complete the item and go to the next one not completed' },
    { keys: ['←', '→'], what: 'Previous / next item (presses queue up; none are lost)' },
    { keys: ['Ctrl+G', '⌘G'], what: 'Jump to an item by id, or search the item texts' },
    { keys: ['Esc'], what: 'Leave a text field or a button reached with Tab (then the keys above work again), or close a dialog' },
    { keys: ['?'], what: 'Show or hide this list' },
    { keys: ['Tab'], what: 'The first Tab reaches “Skip to controls”, which passes the item list' },
  ];
}

/** Review tab: play/pause, skip, speed, the next or previous segment, and Esc. */
export type ReviewAction =
  | { kind: 'play-pause' }
  | { kind: 'skip'; seconds: number }
  | { kind: 'speed'; step: number }
  | { kind: 'segment'; delta: number }
  | { kind: 'leave-field' };

export function reviewShortcut(press: KeyPress): ReviewAction | null {
  if (press.key === 'Escape') return press.inField || press.onControl ? { kind: 'leave-field' } : null;
  if (press.inField || press.ctrlKey || press.metaKey || press.altKey) return null;
  if (press.onControl === 'button' && (press.key === ' ' || press.key === 'Enter')) return null;
  if (press.key === ' ') return press.repeat ? null : { kind: 'play-pause' };
  if (press.key === 'ArrowDown') return { kind: 'segment', delta: 1 };
  if (press.key === 'ArrowUp') return { kind: 'segment', delta: -1 };
  if (press.key === 'j' || press.key === 'J') return { kind: 'skip', seconds: -5 };
  if (press.key === 'l' || press.key === 'L') return { kind: 'skip', seconds: 5 };
  if (press.key === '[') return { kind: 'speed', step: -1 };
  if (press.key === ']') return { kind: 'speed', step: 1 };
  return null;
}

/** The Review tab's keys, for its help line and titles. */
export const REVIEW_SHORTCUTS: ReadonlyArray<{ keys: string[]; what: string }> = [
  { keys: ['Space'], what: 'play / pause' },
  { keys: ['↓', '↑'], what: 'next / previous segment' },
  { keys: ['J', 'L'], what: 'back / forward 5 s' },
  { keys: ['[', ']'], what: 'slower / faster' },
  { keys: ['Esc'], what: 'leave a field' },
];

/** Playback speeds the review offers, slowest first. */
export const PLAYBACK_RATES: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 2];

export function stepRate(rate: number, step: number): number {
  const at = PLAYBACK_RATES.indexOf(rate);
  const from = at < 0 ? PLAYBACK_RATES.indexOf(1) : at;
  return PLAYBACK_RATES[Math.max(0, Math.min(PLAYBACK_RATES.length - 1, from + step))]!;
}
