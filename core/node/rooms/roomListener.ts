import type { RoomHost, RoomViewer } from './roomHost';
import {
  bodyText,
  leadRoute,
  roomFailure,
  ROOM_POLL_WAIT_MS,
  roomPageFiles,
  type RoomListener,
  type RoomListenerOptions,
  startRoomServer,
  waitForRoom,
} from './roomHttp';
import { roomPageHtml } from './roomPage';
import { roomPageAssets } from './roomPageAssets';

function lead(viewer: RoomViewer): void {
  if (viewer.role !== 'lead') throw roomFailure(403, 'room.error.onlyLead');
}

/**
 * The norming room's listener: the member page (`/`, `/room.js`, `/room.css`) and the room API (`/api/join`,
 * `/api/state` (`wait=1` holds the answer until the room changes, at most 10 s), `/api/vote`, `/api/chat`, `/api/lead/reveal|remove|close`) over the room server (roomHttp.ts), which
 * keeps the address, Host, body and budget rules.
 */
export async function startRoomListener(host: RoomHost, options: RoomListenerOptions = {}): Promise<RoomListener> {
  const leadAct = (act: (body: Record<string, unknown>) => Promise<void>) => leadRoute(lead, () => host.seq, act);
  return startRoomServer<RoomViewer>(
    {
      host,
      pages: roomPageFiles('room', { html: roomPageHtml, ...(await roomPageAssets('room')) }),
      notFound: 'room.error.notFound.norming',
      routes: {
        '/api/state': async (request) => {
          request.get();
          const viewer = request.joined();
          const after = Number(request.url.searchParams.get('after') ?? '0');
          const chatAfter = Number(request.url.searchParams.get('chat_after') ?? '0');
          if (!Number.isInteger(after) || !Number.isInteger(chatAfter)) throw roomFailure(400, 'room.error.eventNumbers');
          // the page follows the room the way the shadow page does: the answer waits until the room changes (at most 10 s)
          if (request.url.searchParams.get('wait') === '1') await waitForRoom(request, host, ROOM_POLL_WAIT_MS, () => host.seq > after);
          if (after >= host.seq) return request.json(200, { seq: host.seq, unchanged: true });
          request.json(200, host.view(viewer, chatAfter));
        },
        '/api/vote': async (request) => {
          request.post();
          const viewer = request.joined();
          if (viewer.role !== 'member') throw roomFailure(403, 'room.error.leadDoesNotVote');
          const body = await request.body();
          await host.vote(viewer.member_id, bodyText(body, 'item_id'), bodyText(body, 'label'));
          request.json(200, { seq: host.seq });
        },
        '/api/chat': async (request) => {
          request.post();
          const viewer = request.joined();
          const body = await request.body();
          await host.chat(viewer.role === 'member' ? viewer.member_id : null, bodyText(body, 'text'));
          request.json(200, { seq: host.seq });
        },
        '/api/lead/reveal': leadAct((body) => host.reveal(bodyText(body, 'item_id'))),
        '/api/lead/remove': leadAct((body) => host.remove(bodyText(body, 'member_id'))),
        '/api/lead/close': leadAct(() => host.closeRoom()),
      },
    },
    options,
  );
}
