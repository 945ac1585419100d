import { randomBytes, timingSafeEqual } from 'node:crypto';
import { asRefusal, Refusal } from '../../common/refusal/refusal';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AloudEvent, AloudMethod } from '../../common/contract/aloudApi';
import { API_METHODS } from '../../common/contract/apiMethods';
import { errorOutcome, type CallOutcome } from '../../common/refusal/callOutcome';
import { SECURITY_HEADERS } from '../../common/contract/securityHeaders';
import { CLIENT_HEADER, HTTP_ROUTES, HTTP_STATUS_OF } from '../../common/contract/transportNames';
import { checkFileSegments, decodePathSegments, protocolAudioTarget } from '../../common/http/appPaths';
import { answerFileRequest } from '../fs/rangedFile';
import { resolveFileInside } from '../fs/resolveInside';
import { contentTypeFor, resolveRendererFile } from './appFiles';
import { dispatchApiCall } from './apiDispatcher';
import type { AppService } from './appService';

const MAX_JSON_BODY = 1024 * 1024;
const MAX_AUDIO_BODY = 2 * 1024 * 1024;
/** Cookies ignore the port, so each host's cookie is named after its port (two `serve`s must not clash). */
const tokenCookie = (port: number): string => `aloud_token_${port}`;
/** The contract's security headers on every response (pages, API answers, audio, errors), in Node's lower case. */
const SECURITY = Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]));

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
    if (size > limit) throw new Refusal('bad_request', `request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendOutcome(res: ServerResponse, outcome: CallOutcome): void {
  sendJson(res, outcome.ok ? 200 : HTTP_STATUS_OF[outcome.error.code], outcome);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...SECURITY, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A checked file through the shared ranged-file server. */
function sendFile(req: IncomingMessage, res: ServerResponse, found: { file: string; size: number }, headers: Record<string, string>): void {
  const answer = answerFileRequest(
    found,
    { method: req.method ?? 'GET', range: req.headers.range },
    { 'content-type': contentTypeFor(found.file), ...headers },
  );
  res.writeHead(answer.status, { ...SECURITY, ...answer.headers });
  if (answer.body) answer.body.pipe(res);
  else res.end();
}

/** A file of the built renderer for a URL path, or null: the same path rules as the desktop app's protocol. */
export async function rendererFile(rendererDir: string, urlPath: string): Promise<{ file: string; size: number } | null> {
  const decoded = decodePathSegments(urlPath);
  if (!decoded.ok || checkFileSegments(decoded.segments)) return null;
  const found = await resolveRendererFile(rendererDir, decoded.segments);
  return found.ok ? found : null;
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
  const checkOwner = (req: IncomingMessage, method: AloudMethod): void => {
    if (API_METHODS[method].scope !== 'session-page' || sessionOwner === null) return;
    const client = req.headers[CLIENT_HEADER];
    if (client !== sessionOwner) {
      throw new Refusal('conflict', 'the session is now open in another tab or window: reload this page to continue here');
    }
  };
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  async function handleApi(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const cookie = cookieToken(req, port);
    if (cookie === null || !sameToken(cookie, token)) {
      sendOutcome(
        res,
        errorOutcome(
          new Refusal(
            'bad_request',
            'missing or wrong access token: Aloud was restarted or this link is old — open the URL that `aloud serve` printed in its terminal',
          ),
        ),
      );
      return;
    }
    if (pathname === HTTP_ROUTES.events && req.method === 'GET') {
      res.writeHead(200, {
        ...SECURITY,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      eventStreams.add(res);
      req.on('close', () => eventStreams.delete(res));
      return;
    }
    if (pathname.startsWith(HTTP_ROUTES.itemAudioPrefix) && (req.method === 'GET' || req.method === 'HEAD')) {
      const encoded = pathname.slice(HTTP_ROUTES.itemAudioPrefix.length);
      let itemId: string;
      try {
        itemId = decodeURIComponent(encoded);
      } catch {
        sendText(res, 400, 'bad item id');
        return;
      }
      if (encoded === '' || encoded.includes('/')) {
        sendText(res, 404, 'expected item-audio/<item id>');
        return;
      }
      const file = options.app.itemAudioFile(itemId);
      if (!file) {
        sendText(res, 404, `no audio for item "${itemId}" in the open session`);
        return;
      }
      const found = await resolveFileInside(options.app.projectFolder.dir, file);
      if (!found.ok) {
        sendText(res, found.status, `recording ${found.reason}`);
        return;
      }
      sendFile(req, res, found, { 'cache-control': 'no-store' });
      return;
    }
    if (pathname.startsWith(HTTP_ROUTES.protocolAudioPrefix) && (req.method === 'GET' || req.method === 'HEAD')) {
      const tail = pathname.slice(HTTP_ROUTES.protocolAudioPrefix.length);
      const decoded = tail === '' ? null : decodePathSegments(`/${tail}`);
      if (decoded && !decoded.ok) {
        sendText(res, decoded.status, decoded.reason);
        return;
      }
      const target = protocolAudioTarget(decoded?.segments ?? []);
      if (!target.ok) {
        sendText(res, target.status, target.reason);
        return;
      }
      const found = await options.app.protocolAudioFile(target.itemId, target.protocol);
      if (!found.ok) {
        sendText(res, found.status, found.reason);
        return;
      }
      sendFile(req, res, found, { 'cache-control': 'no-store' });
      return;
    }
    if (req.method !== 'POST') {
      sendText(res, 405, 'method not allowed');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin)) {
      sendOutcome(res, errorOutcome(new Refusal('bad_request', `requests from origin ${origin} are not accepted`)));
      return;
    }
    const hooks = {
      beforeCall: (method: AloudMethod) => checkOwner(req, method),
      afterCall: (method: AloudMethod) => {
        if (API_METHODS[method].scope !== 'takes-session') return;
        const client = req.headers[CLIENT_HEADER];
        sessionOwner = typeof client === 'string' && client !== '' ? client : null;
      },
    };
    let outcome: CallOutcome;
    try {
      if (pathname.startsWith(HTTP_ROUTES.binaryPrefix)) {
        const method = pathname.slice(HTTP_ROUTES.binaryPrefix.length);
        if (!Object.hasOwn(API_METHODS, method) || !API_METHODS[method as AloudMethod].binary)
          throw new Refusal('not_found', `no binary API route ${pathname}`);
        if (req.headers['content-type'] !== 'application/octet-stream')
          throw new Refusal('bad_request', 'binary arguments must be sent as application/octet-stream');
        const body = await readBody(req, MAX_AUDIO_BODY);
        outcome = await dispatchApiCall(options.app, method, [new Uint8Array(body.buffer, body.byteOffset, body.byteLength)], hooks);
      } else if (pathname.startsWith(HTTP_ROUTES.callPrefix)) {
        if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
          throw new Refusal('bad_request', 'API calls must be sent as application/json');
        const body = await readBody(req, MAX_JSON_BODY);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          throw new Refusal('bad_request', 'request body is not valid JSON');
        }
        const args =
          parsed !== null && typeof parsed === 'object' && Object.hasOwn(parsed, 'args') ? (parsed as { args: unknown }).args : undefined;
        outcome = await dispatchApiCall(options.app, pathname.slice(HTTP_ROUTES.callPrefix.length), args, hooks);
      } else {
        throw new Refusal('not_found', `no API route ${pathname}`);
      }
    } catch (e) {
      outcome = errorOutcome(asRefusal(e));
    }
    sendOutcome(res, outcome);
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (!allowedHosts().has(req.headers.host ?? '')) {
        sendText(res, 421, 'wrong host name: open the app at http://127.0.0.1');
        return;
      }
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      } catch {
        sendText(res, 400, 'bad request path');
        return;
      }
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
          sendText(
            res,
            403,
            'wrong access token: Aloud was restarted or this link is old — open the URL that `aloud serve` printed in its terminal',
          );
          return;
        }
        res.writeHead(303, {
          ...SECURITY,
          location: '/',
          'set-cookie': `${tokenCookie(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        });
        res.end();
        return;
      }
      const file =
        (await rendererFile(options.rendererDir, url.pathname)) ??
        (path.extname(url.pathname) === '' ? await rendererFile(options.rendererDir, '/index.html') : null);
      if (!file) {
        sendText(res, 404, 'not found');
        return;
      }
      sendFile(req, res, file, { 'cache-control': 'no-cache' });
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
