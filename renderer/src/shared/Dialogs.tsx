import { useEffect, useRef } from 'react';

/**
 * A modal layer: Esc or a click outside closes it; focus goes into it — into its first field when it has one, so what
 * is typed lands there — and comes back when it closes.
 */
export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: React.ReactNode }) {
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
          }
        }}
      >
        <div className="modal-head">
          <h2>{title}</h2>
          <button className="link" onClick={onClose} aria-label={`close ${title}`}>
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export function ShortcutHelp({ shortcuts, onClose }: { shortcuts: Array<{ keys: string[]; what: string }>; onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <ShortcutTable shortcuts={shortcuts} />
    </Modal>
  );
}

/** Keys and what they do, as a table (the shortcut lists of the screens). */
export function ShortcutTable({ shortcuts }: { shortcuts: ReadonlyArray<{ keys: string[]; what: string }> }) {
  return (
    <table className="shortcut-table">
      <tbody>
        {shortcuts.map((s) => (
          <tr key={s.what}>
            <td>
              {s.keys.map((k, n) => (
                <span key={k}>
                  {n > 0 && ' '}
                  <kbd>{k}</kbd>
                </span>
              ))}
            </td>
            <td>{s.what}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
