import type { SerialQueue } from '../../common/concurrency/serialQueue';
import type { RoomsApi } from '../../common/rooms/roomsApi';
import type { RoomController } from './roomController';
import type { ShadowController } from './shadowController';

/** What the rooms handlers use of the app: the call queue and the project's two room controllers (replaced when another project opens). */
export interface RoomsHost {
  readonly calls: SerialQueue;
  readonly rooms: RoomController;
  readonly shadow: ShadowController;
}

/**
 * The rooms domain of the app API: the lead's side of a norming room, and the annotator's
 * shadow room (the rooms' rules refuse in their own hosts).
 */
export function roomsHandlers(app: RoomsHost): RoomsApi {
  return {
    openRoom: (itemIds, lan) => app.rooms.openRoom(itemIds, lan),
    room: async () => app.rooms.status(),
    revealRoomItem: (itemId) => app.rooms.reveal(itemId),
    removeRoomMember: (memberId) => app.rooms.remove(memberId),
    closeRoom: () => app.rooms.closeRoom(),
    writeBackRoom: (code) => app.rooms.writeBack(code),
    // in the call queue, as session calls are: the room follows the session that is open when it runs
    openShadowRoom: (lan) => app.calls.run(() => app.shadow.openRoom(lan)),
    shadowRoom: async () => app.shadow.status(),
    shareShadowAudio: (on) => app.calls.run(() => app.shadow.shareAudio(on)),
    removeShadowTrainee: (memberId) => app.calls.run(() => app.shadow.remove(memberId)),
    closeShadowRoom: () => app.calls.run(() => app.shadow.closeRoom()),
  };
}
