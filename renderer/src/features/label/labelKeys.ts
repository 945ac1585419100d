import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import type { KeyPress } from '../../shared/keyPress';

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
