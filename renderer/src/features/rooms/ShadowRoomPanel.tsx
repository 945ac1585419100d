import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
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
  const intl = useIntl();
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
          <button
            type="button"
            className="link"
            onClick={() => setAsking(true)}
            title={intl.formatMessage({ id: 'rooms.shadow.offerTitle' })}
          >
            <FormattedMessage id="rooms.shadow.offer" />
          </button>
        ) : (
          <section className="shadow-offer" aria-label={intl.formatMessage({ id: 'rooms.shadow.label' })}>
            <p>
              <FormattedMessage id="rooms.shadow.about" values={{ strong: (chunks) => <strong>{chunks}</strong> }} />
            </p>
            <label {...pointerToggle}>
              <input type="checkbox" checked={lan} onChange={(e) => setLan(e.target.checked)} /> <FormattedMessage id="rooms.shadow.lan" />
            </label>
            <div>
              <button
                type="button"
                className="primary"
                onClick={() => void act(() => client.openShadowRoom(lan)).then(() => setAsking(false))}
              >
                <FormattedMessage id="rooms.shadow.open" />
              </button>
              <button type="button" onClick={() => setAsking(false)}>
                <FormattedMessage id="common.cancel" />
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
    <section className="shadow-room open" aria-label={intl.formatMessage({ id: 'rooms.shadow.label' })}>
      <div className="shadow-room-info">
        <span>
          <span className="live-dot" aria-hidden="true" />{' '}
          <FormattedMessage
            id="rooms.shadow.room"
            values={{ code: status.code, strong: (chunks) => <strong className="room-code">{chunks}</strong> }}
          />
        </span>
        <span className="muted">
          <FormattedMessage
            id="rooms.shadow.address"
            values={{ url: status.url, lan: status.lan ? 'yes' : 'no', code: (chunks) => <code>{chunks}</code> }}
          />
        </span>
        <span className="muted">
          {names.length === 0
            ? intl.formatMessage({ id: 'rooms.shadow.noTrainees' })
            : intl.formatMessage({ id: 'rooms.shadow.watching' }, { count: names.length, names: names.join(', ') })}
        </span>
      </div>
      <div className="shadow-room-actions">
        <label className="share-audio" {...pointerToggle}>
          <input type="checkbox" checked={view.audio_shared} onChange={(e) => void act(() => client.shareShadowAudio(e.target.checked))} />{' '}
          <FormattedMessage id="rooms.shadow.shareAudio" />
        </label>
        <button type="button" onClick={() => void act(() => client.closeShadowRoom())}>
          <FormattedMessage id="rooms.shadow.close" />
        </button>
      </div>
      {error && <p className="banner error">{error}</p>}
    </section>
  );
}
