import { Readable } from 'node:stream';
import { SECURITY_HEADERS } from '../../core/common/contract/securityHeaders';
import { contentTypeFor, resolveRendererFile } from '../../core/node/app/appFiles';
import { answerFileRequest } from '../../core/node/fs/rangedFile';
import { resolveFileInside, type FileLookup } from '../../core/node/fs/resolveInside';
import { routeAppRequest } from '../policy/protocolFiles';

export interface AppRequestSources {
  appOrigin: string;
  /** the built renderer (index.html and assets) */
  rendererRoot: string;
  /** an item's recording for review playback and the project folder it must lie in, or null when it has none */
  itemAudio(itemId: string): { file: string; projectDir: string } | null;
  /** annotator n's recording of an item for adjudication, already checked inside the project (AppService.protocolAudioFile) */
  protocolAudio(itemId: string, protocol: number): Promise<FileLookup>;
}

function reply(status: number, body: BodyInit | null, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, ...headers } });
}

function refusal(status: number, reason: string): Response {
  return reply(status, `${status} ${reason}\n`, { 'Content-Type': 'text/plain; charset=utf-8' });
}

/** A checked file through the shared ranged-file server, as a web Response (what protocol.handle takes). */
function serveFile(request: Request, found: FileLookup & { ok: true }, headers: Record<string, string>): Response {
  const answer = answerFileRequest(found, { method: request.method, range: request.headers.get('range') }, headers);
  const body = answer.body ? (Readable.toWeb(answer.body) as unknown as ReadableStream<Uint8Array>) : null;
  return reply(answer.status, body, answer.headers);
}

/**
 * The app protocol's handler over web-standard Request/Response (what Electron's protocol.handle takes): renderer
 * files from the built folder and item recordings with Range support, each with the security headers. Never throws.
 */
export function createAppRequestHandler(sources: AppRequestSources): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return reply(405, null, { Allow: 'GET, HEAD' });
      }
      const route = routeAppRequest(request.url, sources.appOrigin);
      if (route.kind === 'refused') return refusal(route.status, route.reason);

      if (route.kind === 'item-audio') {
        const audio = sources.itemAudio(route.itemId);
        if (!audio) return refusal(404, 'this item has no recording in the open session');
        const found = await resolveFileInside(audio.projectDir, audio.file);
        if (!found.ok) return refusal(found.status, `recording ${found.reason}`);
        return serveFile(request, found, { 'content-type': 'audio/wav', 'cache-control': 'no-store' });
      }

      if (route.kind === 'protocol-audio') {
        const found = await sources.protocolAudio(route.itemId, route.protocol);
        if (!found.ok) return refusal(found.status, found.reason);
        return serveFile(request, found, { 'content-type': 'audio/wav', 'cache-control': 'no-store' });
      }

      const found = await resolveRendererFile(sources.rendererRoot, route.segments);
      if (!found.ok) return refusal(found.status, found.reason);
      return serveFile(request, found, { 'content-type': contentTypeFor(found.file), 'cache-control': 'no-cache' });
    } catch (e) {
      return refusal(500, (e as Error).message);
    }
  };
}
