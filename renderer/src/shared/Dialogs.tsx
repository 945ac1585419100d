import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { AppMessageId } from './i18n/catalogs';

/** A message of a catalog with its arguments (a key file's description of what a key does). */
export interface MessageRef {
  id: AppMessageId;
  values?: Record<string, string | number>;
}

/**
 * One line of a shortcut list: the keys (as the keyboard names them; "Space", "Ctrl+G" and "Shift+R" are shown in the
 * interface language) and what they do — a catalog message, or (older lists) a string already in words.
 */
export interface Shortcut {
  keys: string[];
  what: string | MessageRef;
}

/** What a shortcut does, in the interface language. */
export function shortcutText(intl: IntlShape, what: string | MessageRef): string {
  return typeof what === 'string' ? what : intl.formatMessage({ id: what.id }, what.values);
}

/** A key's name as the person's keyboard labels it: "Space" is "Leertaste", "Ctrl+G" is "Strg+G" in German. */
export function keyName(intl: IntlShape, key: string): string {
  const named: Record<string, AppMessageId> = { Space: 'shared.key.space', Ctrl: 'shared.key.ctrl', Shift: 'shared.key.shift' };
  return key
    .split('+')
    .map((part) => (named[part] ? intl.formatMessage({ id: named[part] }) : part))
    .join('+');
}

/**
 * A modal layer: Esc or a click outside closes it; focus goes into it — into its first field when it has one, so what
 * is typed lands there — and comes back when it closes.
 */
// i18n-ignore: a selector
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab past the last control comes back to the first (Shift+Tab the other way): a modal keeps the keyboard inside it. */
function keepFocusInside(box: HTMLElement, e: KeyboardEvent): void {
  const stops = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.closest('[hidden]') === null);
  if (stops.length === 0) return;
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const at = document.activeElement;
  if (e.shiftKey && (at === first || !box.contains(at))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (at === last || !box.contains(at))) {
    e.preventDefault();
    first.focus();
  }
}

export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: React.ReactNode }) {
  const intl = useIntl();
  const boxRef = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const box = boxRef.current;
    const first = box?.querySelector<HTMLElement>('input, textarea, select') ?? box?.querySelector<HTMLElement>('button, [tabindex="0"]');
    first?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        ref={boxRef}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          } else if (e.key === 'Tab' && boxRef.current) keepFocusInside(boxRef.current, e);
        }}
      >
        <div className="modal-head">
          <h2>{title}</h2>
          <button className="link" onClick={onClose} aria-label={intl.formatMessage({ id: 'shared.dialog.close' }, { title })}>
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export function ShortcutHelp({ shortcuts, onClose }: { shortcuts: readonly Shortcut[]; onClose: () => void }) {
  const intl = useIntl();
  return (
    <Modal title={intl.formatMessage({ id: 'shared.shortcuts' })} onClose={onClose}>
      <ShortcutTable shortcuts={shortcuts} />
    </Modal>
  );
}

/** Keys and what they do, as a table (the shortcut lists of the screens). */
export function ShortcutTable({ shortcuts }: { shortcuts: readonly Shortcut[] }) {
  const intl = useIntl();
  return (
    <table className="shortcut-table">
      <tbody>
        {shortcuts.map((s) => (
          <tr key={s.keys.join(' ')}>
            <td>
              {s.keys.map((k, n) => (
                <span key={k}>
                  {n > 0 && ' '}
                  <kbd>{keyName(intl, k)}</kbd>
                </span>
              ))}
            </td>
            <td>{shortcutText(intl, s.what)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
