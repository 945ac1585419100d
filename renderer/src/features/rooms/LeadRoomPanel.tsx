import { useState } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { RoomMetrics } from '../../../../core/common/rooms/roomViews';
import type { ApiClient } from '../../contract/apiClient';
import { useFollow } from '../../shared/useFollow';
import { useApi } from '../../shared/api';

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
  const alpha = (a: number | null, ci: [number, number] | null) =>
    a === null ? 'not enough data' : `${a.toFixed(3)}${ci ? ` [${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]` : ''}`;
  return (
    <p>
      Live α over {m.revealed_items} revealed item(s): blind <strong>{alpha(m.alpha_blind, m.ci95_blind)}</strong> · current{' '}
      <strong>{alpha(m.alpha_current, m.ci95_current)}</strong>
    </p>
  );
}

/**
 * The lead's panel: open a room over chosen items or a huddle on the current disagreements, show the code and the
 * address to share, reveal items, remove members, close. Votes of unrevealed items never reach this panel either.
 */
export function LeadRoomPanel({ project, disagreements }: { project: ProjectView; disagreements: readonly string[] }) {
  const client = useApi();
  const { status, error, act } = useLeadRoom();
  const [chosen, setChosen] = useState<string[]>([]);
  const [lan, setLan] = useState(false);
  const [closedCode, setClosedCode] = useState<string | null>(null);
  const [writtenBack, setWrittenBack] = useState<string | null>(null);

  if (!status) {
    return (
      <section className="room-panel" aria-label="norming room">
        <h3>Norming room</h3>
        <p className="muted">Members join from a browser with the room code; votes stay hidden until you reveal an item.</p>
        <label>
          <input type="checkbox" checked={lan} onChange={(e) => setLan(e.target.checked)} /> Open to the local network (otherwise only this
          computer can join; traffic is not encrypted: use a network you trust)
        </label>
        <div>
          <button disabled={disagreements.length === 0} onClick={() => void act(() => client.openRoom(null, lan))}>
            Huddle on the {disagreements.length} disagreement(s)
          </button>
          <button disabled={chosen.length === 0} onClick={() => void act(() => client.openRoom(chosen, lan))}>
            Open a room on {chosen.length} chosen item(s)
          </button>
        </div>
        <details>
          <summary>Choose items</summary>
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
            Room {closedCode} is closed.{' '}
            <button
              onClick={() =>
                void client.writeBackRoom(closedCode).then(
                  (sessions) =>
                    setWrittenBack(sessions.map((x) => `${x.annotator}: ${x.labels} label(s)`).join('; ') || 'no votes to write back'),
                  (e: Error) => setWrittenBack(`not written back: ${e.message}`),
                )
              }
            >
              Write back the final votes as new sessions
            </button>
          </p>
        )}
        {writtenBack && <p className="written-back">{writtenBack}</p>}
        {error && <p className="banner error">{error}</p>}
      </section>
    );
  }
  const { view } = status;
  return (
    <section className="room-panel" aria-label="norming room">
      <h3>
        Room <span className="room-code">{status.code}</span>
      </h3>
      <p>
        Members open <code>{status.url}</code> and type the code{status.lan ? ' (on the local network)' : ' (on this computer only)'} ·{' '}
        {view.members.length} of {view.max_members} members
      </p>
      <Metrics m={view.metrics} />
      {view.log.full && (
        <p className="banner room-log-full">
          The room log is full ({Math.round(view.log.max_bytes / (1024 * 1024))} MB): members can no longer vote, chat or join. Reveal what
          is left and close the room.
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>Item</th>
            <th>Voted</th>
            <th>Votes</th>
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
                  : 'hidden until revealed'}
              </td>
              <td>{!item.revealed && <button onClick={() => void act(() => client.revealRoomItem(item.item_id))}>Reveal</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>Members</h4>
      <ul>
        {view.metrics.conformity.map((c) => {
          const id = view.members.find((m) => m.name === c.name)?.member_id;
          return (
            <li key={c.name}>
              {c.name}: {c.changes} change(s), {c.changes_toward_majority} toward the others' majority{' '}
              {id && (
                <button className="link" onClick={() => void act(() => client.removeRoomMember(id))}>
                  remove
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
        Close the room
      </button>
      <p className="muted">Log: {status.log}</p>
      {error && <p className="banner error">{error}</p>}
    </section>
  );
}
