/**
 * The rooms domain of the app API: the lead's side of a norming room, and the annotator's shadow room (the rooms'
 * rules refuse in their own hosts); its handlers are core/node/rooms/roomsHandlers.ts.
 */
import type { MethodTable } from '../apiSlice/methodSpec';
import { type ArgCheck, boolean, nonEmptyString } from '../apiSlice/argChecks';
import { Refusal } from '../refusal/refusal';
import type { LeadRoomStatus } from './roomViews';
import type { ShadowRoomStatus } from './shadowViews';

/** a room of the app changed where its lead's page cannot see it (a member joined, voted or left; it closed): read it again */
export type RoomsEvent = { type: 'room_changed'; room: 'norming' | 'shadow' };

export interface RoomsApi {
  /** norming rooms, the lead's side (one room at a time, on its own listener); itemIds null: a huddle on today's disagreements */
  openRoom(itemIds: string[] | null, lan: boolean): Promise<LeadRoomStatus>;
  room(): Promise<LeadRoomStatus | null>;
  revealRoomItem(itemId: string): Promise<LeadRoomStatus>;
  removeRoomMember(memberId: string): Promise<LeadRoomStatus>;
  closeRoom(): Promise<null>;
  /** a closed room's final votes as labels (source "room") of a new session per member */
  writeBackRoom(code: string): Promise<Array<{ member_id: string; annotator: string; labels: number }>>;
  /**
   * a shadow room of the open session: trainees watch the annotator label and think aloud, live, and practise against
   * her (one room at a time, on its own listener; lan: open to the local network); her session is never written by it
   */
  openShadowRoom(lan: boolean): Promise<ShadowRoomStatus>;
  shadowRoom(): Promise<ShadowRoomStatus | null>;
  /** her audio to the trainees (off by default) */
  shareShadowAudio(on: boolean): Promise<ShadowRoomStatus>;
  removeShadowTrainee(memberId: string): Promise<ShadowRoomStatus>;
  closeShadowRoom(): Promise<null>;
}

const itemIdsOrNull: ArgCheck = (value, where) => {
  if (value === null) return;
  if (!Array.isArray(value) || value.length > 10_000) throw new Refusal('bad_request', `${where} must be a list of item ids, or null`);
  value.forEach((id, i) => nonEmptyString()(id, `${where}[${i}]`));
};

export const ROOMS_METHODS = {
  openRoom: {
    params: [
      ['itemIds', itemIdsOrNull],
      ['lan', boolean],
    ],
    scope: 'any-page',
  },
  room: { params: [], scope: 'any-page' },
  revealRoomItem: { params: [['itemId', nonEmptyString()]], scope: 'any-page' },
  removeRoomMember: { params: [['memberId', nonEmptyString(100)]], scope: 'any-page' },
  closeRoom: { params: [], scope: 'any-page' },
  writeBackRoom: { params: [['code', nonEmptyString(20)]], scope: 'any-page' },
  // a shadow room shows the open session: only the page that opened it opens, steers and closes the room
  openShadowRoom: { params: [['lan', boolean]], scope: 'session-page' },
  shadowRoom: { params: [], scope: 'session-page' },
  shareShadowAudio: { params: [['on', boolean]], scope: 'session-page' },
  removeShadowTrainee: { params: [['memberId', nonEmptyString(100)]], scope: 'session-page' },
  closeShadowRoom: { params: [], scope: 'session-page' },
} as const satisfies MethodTable<RoomsApi>;
