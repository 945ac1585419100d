import { useState } from 'react';
import type { SessionView } from '../../../../core/common/session/sessionApi';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import { useApi } from '../../shared/api';
import type { RunCall } from '../../shared/runCall';

/** The annotator's notes on the item, and the field that adds one (after which the keys are the screen's again). */
export function ItemNotes({
  notes,
  itemId,
  run,
  onSession,
}: {
  notes: SessionView['notes'];
  itemId: string | null;
  run: RunCall;
  onSession: (update: SessionUpdate) => void;
}) {
  const client = useApi();
  const [note, setNote] = useState('');
  return (
    <>
      {notes.some((n) => n.item_id === itemId) && (
        <ul className="notes" aria-label="notes on this item">
          {notes
            .filter((n) => n.item_id === itemId)
            .map((n, i) => (
              <li key={i}>
                <span className="muted">{new Date(n.ts).toLocaleTimeString()}</span> {n.text}
              </li>
            ))}
        </ul>
      )}
      <form
        className="note"
        onSubmit={(e) => {
          e.preventDefault();
          const text = note.trim();
          if (!text) return;
          const field = e.currentTarget.querySelector('input');
          void run(() => client.addNote(text)).then((view) => {
            if (!view) return;
            onSession(view);
            setNote('');
            // back to the keys: the next "1" is a label, not a character in the note
            field?.blur();
          });
        }}
      >
        <input
          aria-label="note"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="Add a note for this item (optional; Esc leaves the field)"
        />
        <button type="submit" disabled={!note.trim()}>
          Add note
        </button>
      </form>
    </>
  );
}
