import { FormattedMessage, useIntl } from 'react-intl';
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
  const intl = useIntl();
  const [note, setNote] = useState('');
  return (
    <>
      {notes.some((n) => n.item_id === itemId) && (
        <ul className="notes" aria-label={intl.formatMessage({ id: 'label.notes.name' })}>
          {notes
            .filter((n) => n.item_id === itemId)
            .map((n, i) => (
              <li key={i}>
                <span className="muted">{intl.formatTime(n.ts, { timeStyle: 'medium' })}</span> {n.text}
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
          aria-label={intl.formatMessage({ id: 'label.notes.field' })}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder={intl.formatMessage({ id: 'label.notes.placeholder' })}
        />
        <button type="submit" disabled={!note.trim()}>
          <FormattedMessage id="label.notes.add" />
        </button>
      </form>
    </>
  );
}
