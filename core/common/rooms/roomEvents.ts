import type { AlphaLevel } from '../agreement/krippendorff';
import type { LoggedEvent } from '../io/loggedEvent';

export interface RoomItem {
  id: string;
  text: string;
  context?: string;
}

/** The data of every room event type (version 1). The log is the meeting's audit trail; the state is its fold. */
export interface RoomEventData {
  /** first event: what the room is about; items and labels are fixed for the meeting */
  room_opened: {
    code: string;
    project: string;
    /** items: chosen by the lead; huddle: the items the team disagreed on when the room was opened */
    mode: 'items' | 'huddle';
    items: RoomItem[];
    labels: string[];
    level: AlphaLevel;
    max_members: number;
  };
  /** the token itself is never logged, only its sha256: the log can be shared without letting anyone vote */
  member_joined: { member_id: string; name: string; token_sha256: string };
  member_removed: { member_id: string };
  /**
   * blind: cast before the item was revealed (the last blind vote counts). After the reveal every vote is logged with
   * the previous vote (null: a first vote after the reveal, never blind) and the majority of the others at that moment.
   */
  vote_cast: {
    member_id: string;
    item_id: string;
    label: string;
    blind: boolean;
    previous: string | null;
    majority_of_others: string | null;
  };
  /** the blind votes of the item become immutable; blind_votes is the count frozen (the votes are the fold's) */
  item_revealed: { item_id: string; blind_votes: number };
  /** from: a member id, or null for the lead */
  chat: { from: string | null; text: string };
  /** final votes written back as labels of a new annotator session per member */
  written_back: { sessions: Array<{ member_id: string; annotator: string; labels: number }> };
  room_closed: Record<string, never>;
}

export type RoomEventType = keyof RoomEventData;

export const ROOM_EVENT_VERSIONS: { readonly [T in RoomEventType]: number } = {
  room_opened: 1,
  member_joined: 1,
  member_removed: 1,
  vote_cast: 1,
  item_revealed: 1,
  chat: 1,
  written_back: 1,
  room_closed: 1,
};

export type RoomEvent = LoggedEvent<RoomEventData>;

export function isRoomEventType(type: unknown): type is RoomEventType {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(ROOM_EVENT_VERSIONS, type);
}

export const DEFAULT_MAX_MEMBERS = 12;
export const MAX_CHAT_CHARS = 500;
export const MAX_MEMBER_NAME_CHARS = 40;
/** Bytes of the room log one member's own events (joining, votes, chat) may fill: about 2,000 votes or 900 long messages. */
export const MAX_MEMBER_LOG_BYTES = 512 * 1024;
/** Bytes of the room log before it is full: votes, chat and joins stop; the lead can still reveal, remove and close. */
export const MAX_ROOM_LOG_BYTES = 4 * 1024 * 1024;
/** Chat messages in one answer; the page asks for the next page with chat_after. */
export const CHAT_PAGE_SIZE = 100;
