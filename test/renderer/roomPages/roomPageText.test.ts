import { describe, expect, it } from 'vitest';
import type { RoomView } from '../../../core/common/rooms/roomViews';
import {
  alphaRows,
  canWrite,
  changeLine,
  itemHeading,
  roomStatePath,
  roomStatus,
  votedLine,
  whoLine,
} from '../../../renderer/roomPages/roomPageText';

const log = (full: boolean): RoomView['log'] => ({ bytes: 10, max_bytes: 100, member_max_bytes: 10, full });
const member = (share_full: boolean): RoomView['me'] => ({ role: 'member', member_id: 'm1', name: 'ana', share_full });

describe("the norming room page's words and rules", () => {
  it('votes and chat are open only in an open room with room left in the log and in the member’s share', () => {
    expect(canWrite({ closed: false, log: log(false), me: member(false) })).toBe(true);
    expect(canWrite({ closed: true, log: log(false), me: member(false) })).toBe(false);
    expect(canWrite({ closed: false, log: log(true), me: member(false) })).toBe(false);
    expect(canWrite({ closed: false, log: log(false), me: member(true) })).toBe(false);
    expect(canWrite({ closed: false, log: log(false), me: { role: 'lead' } })).toBe(true);
  });

  it('the status line says the strongest reason first: closed, then a full log, then a full share', () => {
    expect(roomStatus({ closed: true, log: log(true), me: member(true) })).toBe('The room was closed. Thank you for taking part.');
    expect(roomStatus({ closed: false, log: log(true), me: member(true) })).toMatch(/^The room log is full/);
    expect(roomStatus({ closed: false, log: log(false), me: member(true) })).toMatch(/^Your share of the room log is full/);
    expect(roomStatus({ closed: false, log: log(false), me: { role: 'lead' } })).toBe(
      'Vote on each item; votes stay hidden until the lead reveals the item.',
    );
    expect(whoLine({ me: { role: 'lead' } })).toBe('You lead this room');
    expect(whoLine({ me: member(false) })).toBe('You are ana');
  });

  it('α rows show the value with its interval, or why there is none', () => {
    const rows = alphaRows({
      revealed_items: 2,
      alpha_blind: 0.41234,
      alpha_current: null,
      ci95_blind: [0.1, 0.755],
      ci95_current: null,
      pairable_units: 2,
      undefined_reason_blind: null,
      undefined_reason_current: 'no_variation',
      conformity: [],
    });
    expect(rows).toEqual([
      { title: 'Blind α (2 revealed)', value: '0.412', note: '95% [0.10, 0.76]' },
      { title: 'Current α (2 revealed)', value: '—', note: 'not enough data: every vote is the same' },
    ]);
  });

  it('items and vote changes read as the room has them', () => {
    expect(itemHeading({ item_id: 'r1', revealed: false })).toBe('r1 · blind');
    expect(itemHeading({ item_id: 'r1', revealed: true })).toBe('r1 · revealed');
    expect(votedLine({ voted: [] })).toBe('Voted: nobody yet');
    expect(votedLine({ voted: ['ana', 'ben'] })).toBe('Voted: ana, ben');
    expect(changeLine({ seq: 4, name: 'ana', from: 'Polite', to: 'Impolite', majority_of_others: 'Impolite' })).toBe(
      'ana: Polite → Impolite (others’ majority: Impolite)',
    );
    expect(changeLine({ seq: 5, name: 'ben', from: null, to: 'Neutral', majority_of_others: null })).toBe(
      'ben: first vote → Neutral (others’ majority: none)',
    );
  });

  it('follows the room with the cursor of its view and of its chat, waiting for a change', () => {
    expect(roomStatePath(12, 7)).toBe('/api/state?after=12&chat_after=7&wait=1');
  });
});
