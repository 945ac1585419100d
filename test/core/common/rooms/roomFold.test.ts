import { describe, expect, it } from 'vitest';
import type { RoomEvent, RoomEventData, RoomEventType } from '../../../../core/common/rooms/roomEvents';
import {
  applyRoomEvent,
  decideChat,
  decideJoin,
  decideReveal,
  decideVote,
  foldRoom,
  RoomLogError,
  type RoomState,
} from '../../../../core/common/rooms/roomFold';
import { roomLabelRecords, roomView } from '../../../../core/common/rooms/roomViews';

const opened: RoomEventData['room_opened'] = {
  code: 'K7QX3M',
  project: 'p',
  mode: 'items',
  items: [
    { id: 'a', text: 'A' },
    { id: 'b', text: 'B' },
  ],
  labels: ['x', 'y', 'z'],
  level: 'nominal',
  max_members: 3,
};

/** A room driven through its rules, as the host does: decide, then apply the logged event. */
function room() {
  let state: RoomState = foldRoom([{ v: 1, seq: 1, ts: 't', type: 'room_opened', data: opened }]);
  const log = <T extends RoomEventType>(type: T, data: RoomEventData[T] | null) => {
    if (data === null) return;
    state = applyRoomEvent(state, { v: 1, seq: state.seq + 1, ts: 't', type, data } as RoomEvent);
  };
  return {
    get state() {
      return state;
    },
    join: (name: string, id: string) => log('member_joined', decideJoin(state, name, id, `h-${id}`)),
    vote: (id: string, item: string, label: string) => log('vote_cast', decideVote(state, id, item, label)),
    reveal: (item: string) => log('item_revealed', decideReveal(state, item)),
    remove: (id: string) => log('member_removed', { member_id: id }),
    close: () => log('room_closed', {}),
  };
}

describe('room rules', () => {
  it('refuse unknown items and labels; the same vote again logs nothing', () => {
    const r = room();
    r.join('ana', 'm1');
    expect(() => decideVote(r.state, 'm1', 'nope', 'x')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => decideVote(r.state, 'm1', 'a', 'w')).toThrow(expect.objectContaining({ status: 400 }));
    r.vote('m1', 'a', 'x');
    expect(decideVote(r.state, 'm1', 'a', 'x')).toBeNull();
    expect(() => decideVote(r.state, 'nobody', 'a', 'x')).toThrow(expect.objectContaining({ status: 403 }));
  });

  it('a full room, a taken name, a removed name and a closed room are refused', () => {
    const r = room();
    r.join('ana', 'm1');
    r.join('ben', 'm2');
    expect(() => decideJoin(r.state, ' Ana ', 'm9', 'h')).toThrow(/already in the room/);
    r.join('cai', 'm3');
    expect(() => decideJoin(r.state, 'dee', 'm4', 'h')).toThrow(/the room is full \(3 members\)/);
    r.remove('m3');
    expect(() => decideJoin(r.state, 'cai', 'm5', 'h')).toThrow(/removed from this room/);
    expect(() => decideVote(r.state, 'm3', 'a', 'x')).toThrow(expect.objectContaining({ status: 403 }));
    r.join('dee', 'm4');
    r.close();
    expect(() => decideVote(r.state, 'm1', 'a', 'x')).toThrow(/closed/);
    expect(() => decideChat(r.state, 'm1', 'hi')).toThrow(/closed/);
  });

  it('before the reveal the view holds only who voted; after it, blind and current votes; a late vote is not blind', () => {
    const r = room();
    r.join('ana', 'm1');
    r.join('ben', 'm2');
    r.vote('m1', 'a', 'x');
    r.vote('m2', 'a', 'y');
    r.vote('m2', 'a', 'x');
    const m = {
      revealed_items: 0,
      alpha_blind: null,
      alpha_current: null,
      ci95_blind: null,
      ci95_current: null,
      pairable_units: 0,
      undefined_reason_blind: null,
      undefined_reason_current: null,
      conformity: [],
    };
    const before = roomView(r.state, { role: 'member', member_id: 'm1' }, m);
    expect(before.items[0]).toEqual({ item_id: 'a', text: 'A', revealed: false, voted: ['ana', 'ben'], my_vote: 'x' });
    r.reveal('a');
    expect(() => decideReveal(r.state, 'a')).toThrow(/already revealed/);
    r.vote('m2', 'a', 'z');
    r.join('cai', 'm3');
    r.vote('m3', 'a', 'z');
    const after = roomView(r.state, { role: 'member', member_id: 'm1' }, m).items[0]!;
    expect(after.blind_votes).toEqual({ ana: 'x', ben: 'x' });
    expect(after.current_votes).toEqual({ ana: 'x', ben: 'z', cai: 'z' });
    expect(after.changes!.map(({ seq: _s, ...c }) => c)).toEqual([
      { name: 'ben', from: 'x', to: 'z', majority_of_others: 'x' },
      { name: 'cai', from: null, to: 'z', majority_of_others: null },
    ]);
    expect(roomLabelRecords(r.state)).toEqual([
      { item_id: 'a', annotator: 'ana', blind_label: 'x', final_label: 'x' },
      { item_id: 'a', annotator: 'ben', blind_label: 'x', final_label: 'z', majority_at_change: 'x' },
      { item_id: 'a', annotator: 'cai', blind_label: null, final_label: 'z', majority_at_change: null },
    ]);
  });

  it('a log with a gap, a repeat or no opening is refused, never folded around', () => {
    const open: RoomEvent = { v: 1, seq: 1, ts: 't', type: 'room_opened', data: opened };
    const chat = (seq: number): RoomEvent => ({ v: 1, seq, ts: 't', type: 'chat', data: { from: null, text: 'hi' } });
    expect(() => foldRoom([open, chat(3)])).toThrow(RoomLogError);
    expect(() => foldRoom([open, chat(2), chat(2)])).toThrow(/a gap or a repeat/);
    expect(() => foldRoom([chat(1)])).toThrow(/first event must be room_opened/);
  });
});
