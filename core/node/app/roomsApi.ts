import type { AloudApi } from '../../common/contract/aloudApi';
import { projectAgreement } from '../agreement/projectAgreement';
import type { AppContext } from './appContext';

/** The rooms domain of the app API: the project's agreement, and the lead's side of a norming room (the room's rules refuse in its own host). */
export function roomsApi(app: AppContext) {
  return {
    agreement: async () => {
      const { warnings: _warnings, ...report } = await projectAgreement(app.project);
      return report;
    },
    openRoom: (itemIds, lan) => app.rooms.openRoom(itemIds, lan),
    room: async () => app.rooms.status(),
    revealRoomItem: (itemId) => app.rooms.reveal(itemId),
    removeRoomMember: (memberId) => app.rooms.remove(memberId),
    closeRoom: () => app.rooms.closeRoom(),
    writeBackRoom: (code) => app.rooms.writeBack(code),
  } satisfies Partial<AloudApi>;
}
