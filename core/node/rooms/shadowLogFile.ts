import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { RoomLogError } from '../../common/rooms/roomFold';
import {
  isShadowEventType,
  SHADOW_EVENT_VERSIONS,
  type ShadowEvent,
  type ShadowEventData,
  type ShadowEventType,
} from '../../common/rooms/shadowEvents';
import { say } from '../../common/refusal/refusalMessage';

/** One line of a shadow room log: a shadow event at a version this Aloud knows (throws RoomLogError naming the line). */
export function checkShadowEvent(value: unknown, file: string, line: number): ShadowEvent {
  const e = value as Partial<ShadowEvent> | null;
  if (
    typeof e !== 'object' ||
    e === null ||
    !isShadowEventType(e.type) ||
    typeof e.seq !== 'number' ||
    typeof e.ts !== 'string' ||
    typeof e.data !== 'object' ||
    e.data === null
  ) {
    throw new RoomLogError(say('refusal.rooms.notAShadowRoomEvent', { file, line }));
  }
  if (e.v !== SHADOW_EVENT_VERSIONS[e.type])
    throw new RoomLogError(say('refusal.rooms.versionIsNotKnownTo', { file, line, type: e.type, String: String(e.v) }));
  return e as ShadowEvent;
}

export function newShadowEvent<T extends ShadowEventType>(seq: number, type: T, data: ShadowEventData[T], now = new Date()): ShadowEvent {
  return { v: SHADOW_EVENT_VERSIONS[type], seq, ts: now.toISOString(), type, data } as ShadowEvent;
}

/** Which kind of room a log is, from its first event: a norming room (room_opened) or a shadow room (shadow_opened). */
export async function roomLogKind(file: string): Promise<'norming' | 'shadow'> {
  let first: string | undefined;
  try {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      first = line;
      break;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new RoomLogError(say('refusal.rooms.noRoomLogHere', { file }));
    throw e;
  }
  let type: unknown;
  try {
    type = (JSON.parse(first ?? '') as { type?: unknown }).type;
  } catch {
    type = undefined;
  }
  if (type === 'shadow_opened') return 'shadow';
  if (type === 'room_opened') return 'norming';
  throw new RoomLogError(say('refusal.rooms.neitherANormingRoomRoom', { file }));
}
