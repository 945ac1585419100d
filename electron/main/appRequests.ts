import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { parseByteRange } from '../../core/common/http/byteRanges';
import { SECURITY_HEADERS } from '../../core/common/contract/securityHeaders';
import { contentTypeFor, resolveFileInside, resolveRendererFile, type FileLookup } from '../../core/node/app/appFiles';
import { routeAppRequest } from '../policy/protocolFiles';

export interface AppRequestSources {
  appOrigin: string;
  /** the built renderer (index.html and assets) */
  rendererRoot: string;
  /** an item's recording for review playback and the project folder it must lie in, or null when it has none */
  itemAudio(itemId: string): { file: string; projectDir: string } | null;
}

function reply(status: number, body: BodyInit | null, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, ...headers } });
}

function refusal(status: number, reason: string): Response {
  return reply(status, `${status} ${reason}\n`, { 'Content-Type': 'text/plain; charset=utf-8' });
}

/** A byte span of a file as a streamed body, so seeking in a long recording never reads the whole WAV. */
function fileStream(file: string, start: number, end: number): BodyInit {
  return Readable.toWeb(createReadStream(file, { start, end })) as unknown as ReadableStream<Uint8Array>;
}

async function serveItemAudio(request: Request, found: FileLookup & { ok: true }): Promise<Response> {
  const headers = { 'Content-Type': 'audio/wav', 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store' };
  const head = request.method === 'HEAD';
  const range = parseByteRange(request.headers.get('range'), found.size);
  if (range.kind === 'unsatisfiable') return reply(416, null, { ...headers, 'Content-Range': `bytes */${found.size}` });
  if (range.kind === 'whole') {
    const body = head || found.size === 0 ? null : fileStream(found.file, 0, found.size - 1);
    return reply(200, body, { ...headers, 'Content-Length': String(found.size) });
  }
  const length = range.end - range.start + 1;
  return reply(206, head ? null : fileStream(found.file, range.start, range.end), {
    ...headers,
    'Content-Length': String(length),
    'Content-Range': `bytes ${range.start}-${range.end}/${found.size}`,
  });
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
        return await serveItemAudio(request, found);
      }

      const found = await resolveRendererFile(sources.rendererRoot, route.segments);
      if (!found.ok) return refusal(found.status, found.reason);
      const headers = { 'Content-Type': contentTypeFor(found.file), 'Cache-Control': 'no-cache' };
      if (request.method === 'HEAD') return reply(200, null, { ...headers, 'Content-Length': String(found.size) });
      const bytes = await readFile(found.file);
      return reply(200, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { ...headers, 'Content-Length': String(bytes.byteLength) });
    } catch (e) {
      return refusal(500, (e as Error).message);
    }
  };
}
