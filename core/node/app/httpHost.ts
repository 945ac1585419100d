import { randomBytes, timingSafeEqual } from 'node:crypto';
import { asRefusal, Refusal } from '../../common/refusal/refusal';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { AloudEvent, AloudMethod } from '../../common/contract/aloudApi';
import { API_METHODS } from '../../common/contract/apiMethods';
import { errorOutcome, type CallOutcome } from '../../common/refusal/callOutcome';
import { CONTENT_SECURITY_POLICY } from '../../common/contract/securityHeaders';
import { CLIENT_HEADER, HTTP_ROUTES, HTTP_STATUS_OF } from '../../common/contract/transportNames';
import { checkFileSegments, decodePathSegments, protocolAudioTarget } from '../../common/http/appPaths';
import { answerFileRequest } from '../fs/rangedFile';
import { resolveFileInside } from '../fs/resolveInside';
import { answerJson, answerText, HttpFailure, hostSecurityHeaders, readBody, startLocalHttpServer } from '../http/localHttpServer';
import { contentTypeFor, resolveRendererFile } from './appFiles';
import { dispatchApiCall } from './apiDispatcher';
import type { AppService } from './appService';

const MAX_JSON_BODY = 1024 * 1024;
const MAX_AUDIO_BODY = 2 * 1024 * 1024;
/** Cookies ignore the port, so each host's cookie is named after its port (two `serve`s must not clash). */
const tokenCookie = (port: number): string => `aloud_token_${port}`;
/** The hosts' security headers with the app's CSP on every response (pages, API answers, audio, errors). */
const SECURITY = hostSecurityHeaders(CONTENT_SECURITY_POLICY);

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

/** A request body within the limit; too large is the contract's bad_request, like every other refused call. */
async function readCallBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await readBody(req, limit);
  } catch (e) {
    throw e instanceof HttpFailure ? new Refusal('bad_request', `request body larger than ${limit} bytes`) : e;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  answerJson(res, status, body, SECURITY);
}

function sendOutcome(res: ServerResponse, outcome: CallOutcome): void {
  sendJson(res, outcome.ok ? 200 : HTTP_STATUS_OF[outcome.error.code], outcome);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  answerText(res, status, text, SECURITY);
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
 * Browser mode: the app API and the built renderer over HTTP on 127.0.0.1 only, on the hosts' one server
 * (http/localHttpServer.ts, which the rooms' listeners share). Requests must carry the host name we serve (no DNS
 * rebinding), API calls the access-token cookie and, for writes, our Origin (no CSRF).
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
  let origins: ReadonlySet<string> = new Set();

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
    if (origin !== undefined && !origins.has(origin)) {
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
        const body = await readCallBody(req, MAX_AUDIO_BODY);
        outcome = await dispatchApiCall(options.app, method, [new Uint8Array(body.buffer, body.byteOffset, body.byteLength)], hooks);
      } else if (pathname.startsWith(HTTP_ROUTES.callPrefix)) {
        if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
          throw new Refusal('bad_request', 'API calls must be sent as application/json');
        const body = await readCallBody(req, MAX_JSON_BODY);
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

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname.startsWith('/api/')) return handleApi(req, res, url.pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed');
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (!sameToken(given, token))
        return sendText(
          res,
          403,
          'wrong access token: Aloud was restarted or this link is old — open the URL that `aloud serve` printed in its terminal',
        );
      res.writeHead(303, {
        ...SECURITY,
        location: '/',
        'set-cookie': `${tokenCookie(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
      });
      return void res.end();
    }
    const file =
      (await rendererFile(options.rendererDir, url.pathname)) ??
      (path.extname(url.pathname) === '' ? await rendererFile(options.rendererDir, '/index.html') : null);
    if (!file) return sendText(res, 404, 'not found');
    sendFile(req, res, file, { 'cache-control': 'no-cache' });
  }

  const server = await startLocalHttpServer({
    name: 'aloud serve',
    address: '127.0.0.1',
    port: options.port,
    wrongHost: 'wrong host name: open the app at http://127.0.0.1',
    fail: (res, failure) => answerText(res, failure.status, failure.message, { ...SECURITY, ...failure.headers }),
    handle,
  });
  port = server.port;
  origins = server.origins;
  const origin = server.origin;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      unsubscribe();
      for (const res of eventStreams) res.end();
      eventStreams.clear();
      await server.close();
    },
  };
}
