import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ApiError, type AloudEvent } from '../../common/contract/aloudApi';
import { checkApiCall } from '../../common/contract/apiArgs';
import { errorOutcome, type CallOutcome } from '../../common/contract/callOutcome';
import { CLIENT_HEADER } from '../../common/contract/transportHeaders';
import { checkFileSegments, decodePathSegments } from '../../common/http/appPaths';
import { parseByteRange } from '../../common/http/byteRanges';
import { contentTypeFor, resolveRendererFile } from './appFiles';
import type { AppService } from './appService';
import { toApiError } from './appService';

/** The page's Content-Security-Policy: our own origin only; no eval, no inline script, no remote anything. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const MAX_JSON_BODY = 1024 * 1024;
const MAX_AUDIO_BODY = 2 * 1024 * 1024;
/** Cookies ignore the port, so each host's cookie is named after its port (two `serve`s must not clash). */
const tokenCookie = (port: number): string => `aloud_token_${port}`;
/** Calls that only read the project or the app, allowed from any tab. */
const READ_ONLY_METHODS = new Set(['appInfo', 'project', 'agreement', 'openSession']);

const STATUS_OF: Record<ApiError['code'], number> = {
  bad_request: 400,
  not_found: 404,
  conflict: 409,
  spoken_label_required: 409,
  engine: 503,
  storage: 507,
  internal: 500,
};

export interface HttpHostOptions {
  app: AppService;
  /** the built renderer (index.html + assets) */
  rendererDir: string;
  port?: number;
  /** access token; default a fresh random one */
  token?: string;
}

export interface HttpHost {
  /** the URL to open, with the access token */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieToken(req: IncomingMessage, port: number): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === tokenCookie(port)) return rest.join('=');
  }
  return null;
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError('bad_request', `request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendOutcome(res: ServerResponse, outcome: CallOutcome): void {
  sendJson(res, outcome.ok ? 200 : STATUS_OF[outcome.error.code], outcome);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function sendFile(req: IncomingMessage, res: ServerResponse, file: string, headers: Record<string, string> = {}): Promise<void> {
  const info = await stat(file);
  const type = contentTypeFor(file);
  const range = parseByteRange(req.headers.range, info.size);
  const base = { 'content-type': type, 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff', ...headers };
  if (range.kind === 'unsatisfiable') {
    res.writeHead(416, { ...base, 'content-range': `bytes */${info.size}` });
    res.end();
    return;
  }
  const { start, end } = range.kind === 'span' ? range : { start: 0, end: info.size - 1 };
  const partial = range.kind === 'span';
  res.writeHead(partial ? 206 : 200, { ...base, 'content-length': Math.max(0, end - start + 1), ...(partial ? { 'content-range': `bytes ${start}-${end}/${info.size}` } : {}) });
  if (req.method === 'HEAD' || info.size === 0) {
    res.end();
    return;
  }
  createReadStream(file, { start, end }).pipe(res);
}

/** A file of the built renderer for a URL path, or null: the same path rules as the desktop app's protocol. */
export async function rendererFile(rendererDir: string, urlPath: string): Promise<string | null> {
  const decoded = decodePathSegments(urlPath);
  if (!decoded.ok || checkFileSegments(decoded.segments)) return null;
  const found = await resolveRendererFile(rendererDir, decoded.segments);
  return found.ok ? found.file : null;
}

/**
 * Browser mode: the app API and the built renderer over HTTP on 127.0.0.1 only. Requests must carry the host
 * name we serve (no DNS rebinding), API calls the access-token cookie and, for writes, our Origin (no CSRF).
 */
export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const eventStreams = new Set<ServerResponse>();
  const unsubscribe = options.app.subscribe((event: AloudEvent) => {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const res of eventStreams) res.write(line);
  });
  let port = 0;
  /** the page that opened the session; calls from other pages would act on a session they do not show */
  let sessionOwner: string | null = null;
  const checkOwner = (req: IncomingMessage, method: string): void => {
    if (READ_ONLY_METHODS.has(method) || sessionOwner === null) return;
    const client = req.headers[CLIENT_HEADER];
    if (client !== sessionOwner) {
      throw new ApiError('conflict', 'the session is now open in another tab or window: reload this page to continue here');
    }
  };
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  async function handleApi(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const cookie = cookieToken(req, port);
    if (cookie === null || !sameToken(cookie, token)) {
      sendOutcome(res, errorOutcome(new ApiError('bad_request', 'missing or wrong access token: Aloud was restarted or this link is old — open the URL that `aloud serve` printed in its terminal')));
      return;
    }
    if (pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      eventStreams.add(res);
      req.on('close', () => eventStreams.delete(res));
      return;
    }
    const itemAudio = /^\/api\/item-audio\/([^/]+)$/.exec(pathname);
    if (itemAudio && (req.method === 'GET' || req.method === 'HEAD')) {
      let itemId: string;
      try {
        itemId = decodeURIComponent(itemAudio[1]!);
      } catch {
        sendText(res, 400, 'bad item id');
        return;
      }
      const file = options.app.itemAudioFile(itemId);
      if (!file) {
        sendText(res, 404, `no audio for item "${itemId}" in the open session`);
        return;
      }
      await sendFile(req, res, file, { 'cache-control': 'no-store' });
      return;
    }
    if (req.method !== 'POST') {
      sendText(res, 405, 'method not allowed');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin)) {
      sendOutcome(res, errorOutcome(new ApiError('bad_request', `requests from origin ${origin} are not accepted`)));
      return;
    }
    let outcome: CallOutcome;
    try {
      if (pathname === '/api/audio') {
        if (req.headers['content-type'] !== 'application/octet-stream') throw new ApiError('bad_request', 'audio must be sent as application/octet-stream');
        const body = await readBody(req, MAX_AUDIO_BODY);
        const frame = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
        checkOwner(req, 'appendAudio');
        const { args } = checkApiCall('appendAudio', [frame]);
        await options.app.appendAudio(args[0] as Uint8Array);
        outcome = { ok: true, result: null };
      } else {
        const call = /^\/api\/call\/([A-Za-z]+)$/.exec(pathname);
        if (!call) throw new ApiError('not_found', `no API route ${pathname}`);
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) throw new ApiError('bad_request', 'API calls must be sent as application/json');
        const body = await readBody(req, MAX_JSON_BODY);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw new ApiError('bad_request', 'request body is not valid JSON');
        }
        if (call[1] === 'appendAudio') throw new ApiError('bad_request', 'send audio to /api/audio as binary');
        const { method, args } = checkApiCall(call[1], (parsed as { args?: unknown } | null)?.args);
        checkOwner(req, method);
        const handler = options.app[method] as (...a: unknown[]) => Promise<unknown>;
        outcome = { ok: true, result: (await handler.apply(options.app, args)) ?? null };
        if (method === 'openSession') {
          const client = req.headers[CLIENT_HEADER];
          sessionOwner = typeof client === 'string' && client !== '' ? client : null;
        }
      }
    } catch (e) {
      outcome = errorOutcome(toApiError(e));
    }
    sendOutcome(res, outcome);
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (!allowedHosts().has(req.headers.host ?? '')) {
        sendText(res, 421, 'wrong host name: open the app at http://127.0.0.1');
        return;
      }
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      if (url.pathname.startsWith('/api/')) {
        await handleApi(req, res, url.pathname);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendText(res, 405, 'method not allowed');
        return;
      }
      const given = url.searchParams.get('token');
      if (given !== null) {
        if (!sameToken(given, token)) {
          sendText(res, 403, 'wrong access token: Aloud was restarted or this link is old — open the URL that `aloud serve` printed in its terminal');
          return;
        }
        res.writeHead(303, { location: '/', 'set-cookie': `${tokenCookie(port)}=${token}; HttpOnly; SameSite=Strict; Path=/` });
        res.end();
        return;
      }
      const file = (await rendererFile(options.rendererDir, url.pathname)) ?? (path.extname(url.pathname) === '' ? await rendererFile(options.rendererDir, '/index.html') : null);
      if (!file) {
        sendText(res, 404, 'not found');
        return;
      }
      await sendFile(req, res, file, { 'content-security-policy': APP_CSP, 'cache-control': 'no-cache', 'referrer-policy': 'no-referrer' });
    })().catch((e: unknown) => {
      if (!res.headersSent) sendText(res, 500, `internal error: ${(e as Error).message}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      unsubscribe();
      for (const res of eventStreams) res.end();
      eventStreams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

