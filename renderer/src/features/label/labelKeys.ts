import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import type { Shortcut } from '../../shared/Dialogs';
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
export function shortcutList(labels: readonly LabelDef[]): Shortcut[] {
  return [
    { keys: ['Space', 'R'], what: { id: 'label.keys.record' } },
    ...labels
      .filter((l) => l.key !== undefined)
      .map((l) => ({ keys: [l.key!], what: { id: 'label.keys.label' as const, values: { label: l.name } } })),
    { keys: ['Enter'], what: { id: 'label.keys.complete' } },
    { keys: ['←', '→'], what: { id: 'label.keys.move' } },
    { keys: ['Ctrl+G', '⌘G'], what: { id: 'label.keys.jump' } },
    { keys: ['Esc'], what: { id: 'label.keys.leave' } },
    { keys: ['?'], what: { id: 'label.keys.help' } },
    { keys: ['Tab'], what: { id: 'label.keys.tab' } },
  ];
}

/** The label named in the spoken examples ("I label this polite"): the project's first, in lower case. */
export function exampleLabel(labels: readonly LabelDef[]): string {
  return (labels[0]?.name ?? 'polite').toLowerCase();
}

/**
 * A commit phrase to say for `label`, in the language the project listens to (English unless it listens to German
 * only): the words the parser will hear, whatever the interface language.
 */
export function examplePhrase(languages: readonly string[], label: string): string {
  const german = languages.includes('de') && !languages.includes('en');
  // i18n-ignore: a commit phrase in the project's spoken language, not interface text
  return german ? `Ich wähle ${label}` : `I label this ${label}`;
}
