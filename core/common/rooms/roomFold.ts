import { majorityLabel } from '../agreement/agreementAnalysis';
import type { AlphaLevel } from '../agreement/krippendorff';
import { utf8Length } from '../names/nameRules';
import { MAX_MEMBER_LOG_BYTES, MAX_ROOM_LOG_BYTES, type RoomEvent, type RoomEventData, type RoomItem } from './roomEvents';
import { chatText, memberNameRefusal } from './roomNames';
import { Refusal } from '../refusal/refusal';
import { say, type RefusalMessage } from '../refusal/refusalMessage';

export interface RoomMember {
  member_id: string;
  name: string;
  token_sha256: string;
  removed: boolean;
  /** bytes of the log this member's own events take (joining, votes, chat) */
  log_bytes: number;
}

export interface VoteChange {
  seq: number;
  ts: string;
  member_id: string;
  item_id: string;
  /** null: the member's first vote on the item, cast after the reveal */
  from: string | null;
  to: string;
  majority_of_others: string | null;
}

export interface RoomItemState {
  item: RoomItem;
  revealed: boolean;
  /** the last vote each member cast before the reveal; frozen by it */
  blind: Map<string, string>;
  /** each member's vote now */
  current: Map<string, string>;
  /** votes after the reveal, in order */
  changes: VoteChange[];
}

export interface ChatMessage {
  seq: number;
  ts: string;
  from: string | null;
  text: string;
}

export interface RoomState {
  code: string;
  project: string;
  mode: 'items' | 'huddle';
  labels: string[];
  level: AlphaLevel;
  max_members: number;
  /** last applied seq */
  seq: number;
  members: Map<string, RoomMember>;
  items: Map<string, RoomItemState>;
  chat: ChatMessage[];
  written_back: RoomEventData['written_back']['sessions'] | null;
  closed: boolean;
  /** bytes of the log so far (each event as written, with its line break) */
  log_bytes: number;
}

/** A request the room's rules refuse; `status` is the HTTP status the listener answers with. */
export class RoomRuleError extends Refusal {
  override name = 'RoomRuleError';
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string | RefusalMessage,
  ) {
    super(status === 404 ? 'not_found' : status === 409 ? 'conflict' : 'bad_request', message);
  }
}

/** A room log that cannot be read (missing, damaged). */
export class RoomLogError extends Refusal {
  override name = 'RoomLogError';
  constructor(message: string | RefusalMessage) {
    super('conflict', message);
  }
}

export function emptyRoom(opened: RoomEventData['room_opened']): RoomState {
  return {
    code: opened.code,
    project: opened.project,
    mode: opened.mode,
    labels: [...opened.labels],
    level: opened.level,
    max_members: opened.max_members,
    seq: 0,
    members: new Map(),
    items: new Map(opened.items.map((item) => [item.id, { item, revealed: false, blind: new Map(), current: new Map(), changes: [] }])),
    chat: [],
    written_back: null,
    closed: false,
    log_bytes: 0,
  };
}

/** Bytes an event takes in the log: its JSON line as the writer writes it (a parsed line gives back the same text). */
export function roomEventBytes(event: RoomEvent): number {
  return utf8Length(JSON.stringify(event)) + 1;
}

/** The member an event is counted against, or null (the lead's acts and the room's own events). */
function authorOf(event: RoomEvent): string | null {
  switch (event.type) {
    case 'member_joined':
    case 'vote_cast':
      return event.data.member_id;
    case 'chat':
      return event.data.from;
    default:
      return null;
  }
}

/** Applies one logged event (mutating the state); the log was written by the rules below, so it is trusted but checked for order. */
export function applyRoomEvent(state: RoomState | null, event: RoomEvent, where = 'room log'): RoomState {
  if (state === null) {
    if (event.type !== 'room_opened') throw new RoomLogError(say('refusal.rooms.theFirstEventMustBe', { where, type: event.type }));
    const room = emptyRoom(event.data);
    room.seq = event.seq;
    room.log_bytes = roomEventBytes(event);
    return room;
  }
  if (event.seq !== state.seq + 1)
    throw new RoomLogError(say('refusal.rooms.eventSeqFollowsAGap', { where, seq: event.seq, seq2: state.seq }));
  state.seq = event.seq;
  const bytes = roomEventBytes(event);
  state.log_bytes += bytes;
  const itemOf = (id: string) => {
    const item = state.items.get(id);
    if (!item) throw new RoomLogError(say('refusal.rooms.seqNamesUnknownItem', { where, seq: event.seq, id }));
    return item;
  };
  switch (event.type) {
    case 'room_opened':
      throw new RoomLogError(say('refusal.rooms.aSecondRoomOpenedAt', { where, seq: event.seq }));
    case 'member_joined':
      state.members.set(event.data.member_id, { ...event.data, removed: false, log_bytes: 0 });
      break;
    case 'member_removed': {
      const m = state.members.get(event.data.member_id);
      if (m) m.removed = true;
      break;
    }
    case 'vote_cast': {
      const { member_id, item_id, label, blind, previous, majority_of_others } = event.data;
      const item = itemOf(item_id);
      if (blind) item.blind.set(member_id, label);
      else item.changes.push({ seq: event.seq, ts: event.ts, member_id, item_id, from: previous, to: label, majority_of_others });
      item.current.set(member_id, label);
      break;
    }
    case 'item_revealed':
      itemOf(event.data.item_id).revealed = true;
      break;
    case 'chat':
      state.chat.push({ seq: event.seq, ts: event.ts, from: event.data.from, text: event.data.text });
      break;
    case 'written_back':
      state.written_back = event.data.sessions;
      break;
    case 'room_closed':
      state.closed = true;
      break;
  }
  const author = authorOf(event);
  if (author !== null) {
    const member = state.members.get(author);
    if (member) member.log_bytes += bytes;
  }
  return state;
}

export function foldRoom(events: readonly RoomEvent[], where?: string): RoomState {
  let state: RoomState | null = null;
  for (const e of events) state = applyRoomEvent(state, e, where);
  if (state === null) throw new RoomLogError(say('refusal.rooms.empty', { value: where ?? say('refusal.rooms.roomLog') }));
  return state;
}

/** The unique most common current vote among the other (not removed) members, or null. */
export function majorityOfOthers(state: RoomState, item: RoomItemState, memberId: string): string | null {
  const others = [...item.current].filter(([id]) => id !== memberId && state.members.get(id)?.removed === false).map(([, label]) => label);
  return majorityLabel(others);
}

// ——— the rules: each checks a request against the state and returns the event data to log ———

function openMember(state: RoomState, memberId: string): RoomMember {
  const m = state.members.get(memberId);
  if (!m || m.removed) throw new RoomRuleError(403, say('refusal.rooms.youAreNotAMember'));
  return m;
}

function openRoom(state: RoomState): void {
  if (state.closed) throw new RoomRuleError(409, say('refusal.rooms.theRoomIsClosed'));
}

/** Whether the log has room left for the room as a whole (false: the "room log full" state). */
export function roomLogHasRoom(state: RoomState): boolean {
  return state.log_bytes < MAX_ROOM_LOG_BYTES;
}

/** Refuses an event that would grow a full log, or a member's full share of it (reveal, remove and close never are). */
function roomInLog(state: RoomState, member: RoomMember | null): void {
  if (!roomLogHasRoom(state)) {
    throw new RoomRuleError(409, say('refusal.rooms.theRoomLogIsFull', { value: MAX_ROOM_LOG_BYTES / (1024 * 1024) }));
  }
  if (member && member.log_bytes >= MAX_MEMBER_LOG_BYTES) {
    throw new RoomRuleError(409, say('refusal.rooms.yourShareOfTheRoom', { value: MAX_MEMBER_LOG_BYTES / 1024 }));
  }
}

export function decideJoin(state: RoomState, name: string, memberId: string, tokenSha256: string): RoomEventData['member_joined'] {
  openRoom(state);
  roomInLog(state, null);
  const clean = name.normalize('NFC').trim();
  const refusal = memberNameRefusal(clean, state.code, state.members.values());
  if (refusal) throw new RoomRuleError(refusal.status, refusal.say);
  const active = [...state.members.values()].filter((m) => !m.removed);
  if (active.length >= state.max_members)
    throw new RoomRuleError(409, say('refusal.rooms.theRoomIsFullMembers', { maxMembers: state.max_members }));
  return { member_id: memberId, name: clean, token_sha256: tokenSha256 };
}

export function decideVote(state: RoomState, memberId: string, itemId: string, label: string): RoomEventData['vote_cast'] | null {
  openRoom(state);
  const member = openMember(state, memberId);
  const item = state.items.get(itemId);
  if (!item) throw new RoomRuleError(404, say('refusal.rooms.noItemInThisRoom', { itemId }));
  if (!state.labels.includes(label))
    throw new RoomRuleError(400, say('refusal.adjudication.isNotOneOfThe', { label, labels: state.labels.join(', ') }));
  const previous = item.current.get(memberId) ?? null;
  if (previous === label) return null; // the same vote again changes nothing, so nothing is logged
  roomInLog(state, member);
  if (!item.revealed) return { member_id: memberId, item_id: itemId, label, blind: true, previous: null, majority_of_others: null };
  return {
    member_id: memberId,
    item_id: itemId,
    label,
    blind: false,
    previous,
    majority_of_others: majorityOfOthers(state, item, memberId),
  };
}

export function decideReveal(state: RoomState, itemId: string): RoomEventData['item_revealed'] {
  openRoom(state);
  const item = state.items.get(itemId);
  if (!item) throw new RoomRuleError(404, say('refusal.rooms.noItemInThisRoom', { itemId }));
  if (item.revealed) throw new RoomRuleError(409, say('refusal.rooms.itemIsAlreadyRevealed', { itemId }));
  return { item_id: itemId, blind_votes: item.blind.size };
}

export function decideRemove(state: RoomState, memberId: string): RoomEventData['member_removed'] {
  openRoom(state);
  openMember(state, memberId);
  return { member_id: memberId };
}

export function decideChat(state: RoomState, from: string | null, text: string): RoomEventData['chat'] {
  openRoom(state);
  const member = from === null ? null : openMember(state, from);
  const checked = chatText(text);
  if ('say' in checked) throw new RoomRuleError(400, checked.say);
  roomInLog(state, member);
  return { from, text: checked.text };
}
