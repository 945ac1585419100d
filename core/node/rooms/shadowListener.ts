import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import type { ShadowViewer } from '../../common/rooms/shadowViews';
import {
  bodyText,
  roomPageFiles,
  roomHeaders,
  type RoomListener,
  type RoomListenerOptions,
  type RoomRequest,
  leadRoute,
  roomFailure,
  ROOM_POLL_WAIT_MS,
  startRoomServer,
  waitForRoom,
} from './roomHttp';
import type { ShadowHost } from './shadowHost';
import { roomPageAssets } from './roomPageAssets';
import { shadowPageHtml } from './shadowPage';

/** How long a page's audio fetch waits for new audio while she shares it. */
const AUDIO_WAIT_MS = 2000;

function expert(viewer: ShadowViewer): void {
  if (viewer.role !== 'expert') throw roomFailure(403, 'room.error.onlyExpert');
}

/** A whole number from the query, or null when absent. */
function queryNumber(request: RoomRequest<ShadowViewer>, key: string): number | null {
  const raw = request.url.searchParams.get(key);
  if (raw === null) return null;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw roomFailure(400, 'room.error.wholeNumber', { key });
  return n;
}

/**
 * The shadow room's listener: the trainee page (`/`, `/shadow.js`, `/shadow.css`) and its API — `/api/state` (the
 * view, polled with a cursor; `wait=1` holds the answer until the room changes, at most 10 s), `/api/practice`,
 * `/api/audio` (only while the expert shares it), and the expert's `/api/lead/audio|remove|close` — over the room
 * server (roomHttp.ts): the same address, Host, body and budget rules as a norming room, and nothing of the
 * expert's session or the annotation API.
 */
export async function startShadowListener(host: ShadowHost, options: RoomListenerOptions = {}): Promise<RoomListener> {
  const expertAct = (act: (body: Record<string, unknown>) => Promise<void>) => leadRoute(expert, () => host.seq, act);
  return startRoomServer<ShadowViewer>(
    {
      host,
      pages: roomPageFiles('shadow', { html: shadowPageHtml, ...(await roomPageAssets('shadow')) }),
      notFound: 'room.error.notFound.shadow',
      routes: {
        '/api/state': async (request) => {
          request.get();
          const viewer = request.joined();
          const after = queryNumber(request, 'after') ?? 0;
          if (request.url.searchParams.get('wait') === '1') await waitForRoom(request, host, ROOM_POLL_WAIT_MS, () => host.seq > after);
          if (after >= host.seq) return request.json(200, { seq: host.seq, unchanged: true });
          request.json(200, host.view(viewer));
        },
        '/api/practice': async (request) => {
          request.post();
          const viewer = request.joined();
          if (viewer.role !== 'trainee') throw roomFailure(403, 'room.error.expertDoesNotPractise');
          const body = await request.body();
          const label = body.label;
          if (label !== null && typeof label !== 'string') throw roomFailure(400, 'room.error.labelOrNull');
          await host.practise(viewer.member_id, bodyText(body, 'item_id'), label);
          request.json(200, { seq: host.seq });
        },
        '/api/audio': async (request) => {
          request.get();
          request.joined();
          const itemId = request.url.searchParams.get('item') ?? '';
          const from = queryNumber(request, 'from');
          let audio = host.sharedAudio(itemId, from);
          if (request.url.searchParams.get('wait') === '1' && audio.samples.length === 0) {
            await waitForRoom(request, host, AUDIO_WAIT_MS, () => {
              try {
                return host.sharedAudio(itemId, from).samples.length > 0;
              } catch {
                return true;
              }
            });
            audio = host.sharedAudio(itemId, from);
          }
          request.res.writeHead(200, {
            ...roomHeaders('application/octet-stream'),
            'X-Audio-Start': String(audio.start_sample),
            'X-Audio-Rate': String(AUDIO_SAMPLE_RATE),
          });
          request.res.end(Buffer.from(audio.samples.buffer, audio.samples.byteOffset, audio.samples.byteLength));
        },
        '/api/lead/audio': expertAct(async (body) => {
          if (typeof body.on !== 'boolean') throw roomFailure(400, 'room.error.onOff');
          await host.shareAudio(body.on);
        }),
        '/api/lead/remove': expertAct((body) => host.remove(bodyText(body, 'member_id'))),
        '/api/lead/close': expertAct(() => host.closeRoom()),
      },
    },
    options,
  );
}
