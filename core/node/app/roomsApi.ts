import type { AloudApi } from '../../common/contract/aloudApi';
import { projectAgreement } from '../agreement/projectAgreement';
import { projectGold } from '../agreement/projectGold';
import type { AppContext } from './appContext';

/**
 * The rooms domain of the app API: the project's agreement, the lead's side of a norming room, and the annotator's
 * shadow room (the rooms' rules refuse in their own hosts).
 */
export function roomsApi(app: AppContext) {
  return {
    agreement: async () => {
      const { warnings: _warnings, ...report } = await projectAgreement(app.project);
      return report;
    },
    goldLabels: () => projectGold(app.project),
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
  } satisfies Partial<AloudApi>;
}
