import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { RoomMetrics } from '../../../../core/common/rooms/roomViews';
import type { ApiClient } from '../../contract/apiClient';
import { useFollow } from '../../shared/useFollow';
import { useApi } from '../../shared/api';
import { refusalText } from '../../shared/refusalText';

/** The room as the lead sees it: read again on each room_changed the host pushes (a member joined, voted, left; it closed). */
function useLeadRoom() {
  const { value, error, act } = useFollow(readLeadRoom, {
    // a shadow room's change reads this one again too: one cheap call, and nothing changes
    events: ['room_changed'],
    rereadWhile: (room) => room !== null,
    identity: (room) => room?.code ?? null,
  });
  return { status: value, error, act };
}
const readLeadRoom = (client: ApiClient) => client.room();

function Metrics({ m }: { m: RoomMetrics }) {
  const intl = useIntl();
  const digits = (x: number, n: number) => intl.formatNumber(x, { minimumFractionDigits: n, maximumFractionDigits: n });
  const alpha = (a: number | null, ci: [number, number] | null) =>
    a === null
      ? intl.formatMessage({ id: 'rooms.alpha.none' })
      : ci
        ? intl.formatMessage({ id: 'rooms.alpha.withInterval' }, { alpha: digits(a, 3), low: digits(ci[0], 2), high: digits(ci[1], 2) })
        : digits(a, 3);
  return (
    <p>
      <FormattedMessage
        id="rooms.metrics"
        values={{
          count: m.revealed_items,
          blind: alpha(m.alpha_blind, m.ci95_blind),
          current: alpha(m.alpha_current, m.ci95_current),
          strong: (chunks) => <strong>{chunks}</strong>,
        }}
      />
    </p>
  );
}

/** What writing back a closed room's votes gave: the sessions written, or the host's refusal. */
type WriteBack = { sessions: ReadonlyArray<{ annotator: string; labels: number }> } | { refused: string };

/**
 * The lead's panel: open a room over chosen items or a huddle on the current disagreements, show the code and the
 * address to share, reveal items, remove members, close. Votes of unrevealed items never reach this panel either.
 */
export function LeadRoomPanel({ project, disagreements }: { project: ProjectView; disagreements: readonly string[] }) {
  const client = useApi();
  const intl = useIntl();
  const { status, error, act } = useLeadRoom();
  const [chosen, setChosen] = useState<string[]>([]);
  const [lan, setLan] = useState(false);
  const [closedCode, setClosedCode] = useState<string | null>(null);
  const [writtenBack, setWrittenBack] = useState<WriteBack | null>(null);
  const writtenBackWords = (w: WriteBack): string =>
    'refused' in w
      ? intl.formatMessage({ id: 'rooms.lead.notWrittenBack' }, { message: w.refused })
      : w.sessions
          .map((x) => intl.formatMessage({ id: 'rooms.lead.writtenBack' }, { annotator: x.annotator, labels: x.labels }))
          .join('; ') || intl.formatMessage({ id: 'rooms.lead.nothingToWriteBack' });

  if (!status) {
    return (
      <section className="room-panel" aria-label={intl.formatMessage({ id: 'rooms.lead.label' })}>
        <h3>
          <FormattedMessage id="rooms.lead.title" />
        </h3>
        <p className="muted">
          <FormattedMessage id="rooms.lead.about" />
        </p>
        <label>
          <input type="checkbox" checked={lan} onChange={(e) => setLan(e.target.checked)} /> <FormattedMessage id="rooms.lead.lan" />
        </label>
        <div>
          <button disabled={disagreements.length === 0} onClick={() => void act(() => client.openRoom(null, lan))}>
            <FormattedMessage id="rooms.lead.huddle" values={{ count: disagreements.length }} />
          </button>
          <button disabled={chosen.length === 0} onClick={() => void act(() => client.openRoom(chosen, lan))}>
            <FormattedMessage id="rooms.lead.openOnItems" values={{ count: chosen.length }} />
          </button>
        </div>
        <details>
          <summary>
            <FormattedMessage id="rooms.lead.chooseItems" />
          </summary>
          {project.items.map((item) => (
            <label key={item.id} className="room-item-choice">
              <input
                type="checkbox"
                checked={chosen.includes(item.id)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, item.id] : c.filter((id) => id !== item.id)))}
              />{' '}
              <code>{item.id}</code> {item.text.slice(0, 80)}
            </label>
          ))}
        </details>
        {closedCode && !writtenBack && (
          <p>
            <FormattedMessage id="rooms.lead.closed" values={{ code: closedCode }} />{' '}
            <button
              onClick={() =>
                void client.writeBackRoom(closedCode).then(
                  (sessions) => setWrittenBack({ sessions }),
                  (e: Error) => setWrittenBack({ refused: refusalText(intl, e) }),
                )
              }
            >
              <FormattedMessage id="rooms.lead.writeBack" />
            </button>
          </p>
        )}
        {writtenBack && <p className="written-back">{writtenBackWords(writtenBack)}</p>}
        {error && <p className="banner error">{error}</p>}
      </section>
    );
  }
  const { view } = status;
  return (
    <section className="room-panel" aria-label={intl.formatMessage({ id: 'rooms.lead.label' })}>
      <h3>
        <FormattedMessage
          id="rooms.lead.room"
          values={{ code: status.code, roomCode: (chunks) => <span className="room-code">{chunks}</span> }}
        />
      </h3>
      <p>
        <FormattedMessage
          id="rooms.lead.address"
          values={{
            url: status.url,
            lan: status.lan ? 'yes' : 'no',
            members: view.members.length,
            max: view.max_members,
            code: (chunks) => <code>{chunks}</code>,
          }}
        />
      </p>
      <Metrics m={view.metrics} />
      {view.log.full && (
        <p className="banner room-log-full">
          <FormattedMessage
            id="rooms.lead.logFull"
            values={{
              size: intl.formatNumber(Math.round(view.log.max_bytes / (1024 * 1024)), { style: 'unit', unit: 'megabyte' }),
            }}
          />
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>
              <FormattedMessage id="rooms.lead.item" />
            </th>
            <th>
              <FormattedMessage id="rooms.lead.voted" />
            </th>
            <th>
              <FormattedMessage id="rooms.lead.votes" />
            </th>
            <th />
          </tr>
        </thead>
        <tbody>
          {view.items.map((item) => (
            <tr key={item.item_id}>
              <td title={item.text}>
                <code>{item.item_id}</code>
              </td>
              <td>{item.voted.join(', ') || '—'}</td>
              <td>
                {item.revealed
                  ? Object.entries(item.current_votes ?? {})
                      .map(
                        ([name, label]) =>
                          `${name}: ${item.blind_votes?.[name] && item.blind_votes[name] !== label ? `${item.blind_votes[name]} → ` : ''}${label}`,
                      )
                      .join('; ')
                  : intl.formatMessage({ id: 'rooms.lead.hidden' })}
              </td>
              <td>
                {!item.revealed && (
                  <button onClick={() => void act(() => client.revealRoomItem(item.item_id))}>
                    <FormattedMessage id="rooms.lead.reveal" />
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>
        <FormattedMessage id="rooms.lead.members" />
      </h4>
      <ul>
        {view.metrics.conformity.map((c) => {
          const id = view.members.find((m) => m.name === c.name)?.member_id;
          return (
            <li key={c.name}>
              <FormattedMessage
                id="rooms.lead.conformity"
                values={{ name: c.name, changes: c.changes, toward: c.changes_toward_majority }}
              />{' '}
              {id && (
                <button className="link" onClick={() => void act(() => client.removeRoomMember(id))}>
                  <FormattedMessage id="rooms.lead.remove" />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <button
        onClick={() => {
          setClosedCode(status.code);
          setWrittenBack(null);
          void act(() => client.closeRoom());
        }}
      >
        <FormattedMessage id="rooms.lead.close" />
      </button>
      <p className="muted">
        <FormattedMessage id="rooms.lead.log" values={{ path: status.log }} />
      </p>
      {error && <p className="banner error">{error}</p>}
    </section>
  );
}
