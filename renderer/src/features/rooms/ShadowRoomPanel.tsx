import { useRef, useState } from 'react';
import type { ApiClient } from '../../contract/apiClient';
import { useFollow } from '../../shared/useFollow';
import { useApi } from '../../shared/api';

/** The annotator's shadow room as she sees it: read again on each room_changed the host pushes (trainees came or went; it closed). */
const readShadowRoom = (client: ApiClient) => client.shadowRoom();

/**
 * Props for a label wrapping a checkbox: toggled with the mouse (on the box or its words), the box gives the focus
 * back to the screen, so the next Space records and digits label instead of toggling it again; reached with Tab it
 * keeps the focus, and Space toggles it as usual.
 */
function usePointerToggle() {
  const pressedAt = useRef(-Infinity);
  return {
    onPointerDown: () => {
      pressedAt.current = performance.now();
    },
    onFocus: (e: React.FocusEvent<HTMLLabelElement>) => {
      // the focus a press gives arrives with its click, well within a second
      if (e.target instanceof HTMLInputElement && performance.now() - pressedAt.current < 1000) e.target.blur();
      pressedAt.current = -Infinity;
    },
  };
}

/**
 * The Label screen's shadow room: she opts in, gets a code and an address for her trainees, and keeps annotating as
 * usual. Trainees see the item, the words she selects, her transcript as it forms, her labels (each trainee only
 * after giving their own), her pauses and the model's reasoning once she has seen it; her audio only if she shares
 * it. Her session is never written by the room.
 */
export function ShadowRoomPanel() {
  const client = useApi();
  const {
    value: status,
    error,
    act,
  } = useFollow(readShadowRoom, { events: ['room_changed'], rereadWhile: (room) => room !== null, identity: (room) => room?.code ?? null });
  const [asking, setAsking] = useState(false);
  const [lan, setLan] = useState(false);
  const pointerToggle = usePointerToggle();

  if (!status) {
    return (
      <div className="shadow-room">
        {!asking ? (
          <button type="button" className="link" onClick={() => setAsking(true)} title="Let trainees watch you label and think aloud, live">
            Shadow room…
          </button>
        ) : (
          <section className="shadow-offer" aria-label="shadow room">
            <p>
              <strong>Let trainees watch you, live.</strong> They see this item, the words you select, your transcript as it forms, your
              labels (each trainee only after giving their own), your pauses and the model’s reasoning once you see it. Your audio only if
              you share it. Your session is not changed.
            </p>
            <label {...pointerToggle}>
              <input type="checkbox" checked={lan} onChange={(e) => setLan(e.target.checked)} /> Open to the local network (otherwise only
              this computer; traffic is not encrypted: use a network you trust)
            </label>
            <div>
              <button
                type="button"
                className="primary"
                onClick={() => void act(() => client.openShadowRoom(lan)).then(() => setAsking(false))}
              >
                Open shadow room
              </button>
              <button type="button" onClick={() => setAsking(false)}>
                Cancel
              </button>
            </div>
            {error && <p className="banner error">{error}</p>}
          </section>
        )}
      </div>
    );
  }
  const { view } = status;
  const names = view.trainees.map((t) => t.name);
  return (
    <section className="shadow-room open" aria-label="shadow room">
      <div className="shadow-room-info">
        <span>
          <span className="live-dot" aria-hidden="true" /> Shadow room <strong className="room-code">{status.code}</strong>
        </span>
        <span className="muted">
          trainees open <code>{status.url}</code> {status.lan ? '(local network)' : '(this computer only)'}
        </span>
        <span className="muted">{names.length === 0 ? 'no trainees yet' : `${names.length} watching: ${names.join(', ')}`}</span>
      </div>
      <div className="shadow-room-actions">
        <label className="share-audio" {...pointerToggle}>
          <input type="checkbox" checked={view.audio_shared} onChange={(e) => void act(() => client.shareShadowAudio(e.target.checked))} />{' '}
          Share my audio
        </label>
        <button type="button" onClick={() => void act(() => client.closeShadowRoom())}>
          Close room
        </button>
      </div>
      {error && <p className="banner error">{error}</p>}
    </section>
  );
}
