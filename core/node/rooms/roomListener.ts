import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { RateLimiter, type RateLimit } from '../../common/rooms/rateLimit';
import { normalizeRoomCode } from '../../common/rooms/roomCode';
import { RoomRuleError } from '../../common/rooms/roomFold';
import type { RoomHost, RoomViewer } from './roomHost';
import { ROOM_PAGE_CSP, ROOM_PAGE_CSS, ROOM_PAGE_HTML, ROOM_PAGE_JS } from './roomPage';

export interface RoomListenerLimits {
  /** every request carrying a token, per token */
  member: RateLimit;
  /** requests without a valid token (the page, joins, wrong codes), per address */
  anonymous: RateLimit;
  /** wrong room codes per address; a guessed code must take longer than any meeting */
  wrongCode: RateLimit;
}

export const DEFAULT_ROOM_LIMITS: RoomListenerLimits = {
  member: { burst: 30, perSecond: 5 },
  anonymous: { burst: 30, perSecond: 2 },
  wrongCode: { burst: 5, perSecond: 1 / 60 },
};

export interface RoomListenerOptions {
  /** '127.0.0.1' (default) or an address of this machine on the local network, chosen explicitly by the lead */
  address?: string;
  port?: number;
  limits?: RoomListenerLimits;
}

export interface RoomListener {
  /** the address to share (members type the code); the lead's panel is `leadUrl` */
  url: string;
  leadUrl: string;
  address: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4096;

/** The first IPv4 address of this machine on a network (not loopback): where `--lan` listens when no address is given. */
export function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/** Headers on every answer: nothing cached, sniffed, framed or referred; the page's CSP allows only its own files. */
function baseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Content-Security-Policy': ROOM_PAGE_CSP,
  };
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // a cross-site form can only send form types; requiring JSON makes every cross-origin write need a preflight we never grant
  if (type !== 'application/json') throw new HttpFailure(415, 'send JSON (Content-Type: application/json)');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpFailure(413, `a request body has at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpFailure(400, 'the body is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpFailure(400, 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

const text = (body: Record<string, unknown>, key: string): string => {
  const v = body[key];
  if (typeof v !== 'string') throw new HttpFailure(400, `"${key}" must be a string`);
  return v;
};

/**
 * The room listener: the member page and the room's API, nothing else — no annotation API, no project files.
 * Binds 127.0.0.1 unless the lead gives an address on the local network. Answers only requests whose Host is
 * its own address (a DNS-rebinding page cannot reach it by another name).
 */
export async function startRoomListener(host: RoomHost, options: RoomListenerOptions = {}): Promise<RoomListener> {
  const address = options.address ?? '127.0.0.1';
  const limits = options.limits ?? DEFAULT_ROOM_LIMITS;
  const memberLimiter = new RateLimiter(limits.member);
  const anonymousLimiter = new RateLimiter(limits.anonymous);
  const wrongCodeLimiter = new RateLimiter(limits.wrongCode);
  let allowedHosts = new Set<string>();

  const limit = (limiter: RateLimiter, key: string) => {
    const wait = limiter.take(key);
    if (wait !== null) throw new HttpFailure(429, `too many requests; try again in ${wait} s`, { 'Retry-After': String(wait) });
  };

  const viewerOf = (req: IncomingMessage): RoomViewer => {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    const viewer = token ? host.authenticate(token) : null;
    if (!viewer) {
      // a wrong token costs the address like any request without one, so guessing is as slow as it is hopeless
      limit(anonymousLimiter, req.socket.remoteAddress ?? '?');
      throw new HttpFailure(token ? 403 : 401, token ? 'this token is not (or no longer) a member of the room' : 'join the room first');
    }
    limit(memberLimiter, token);
    return viewer;
  };

  const lead = (viewer: RoomViewer) => {
    if (viewer.role !== 'lead') throw new HttpFailure(403, 'only the lead can do this');
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://room.invalid');
    const method = req.method ?? 'GET';
    const json = (status: number, body: unknown) => {
      res.writeHead(status, baseHeaders('application/json; charset=utf-8'));
      res.end(JSON.stringify(body));
    };
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) throw new HttpFailure(421, 'this listener answers only at its own address');
    const origin = req.headers.origin;
    if (method !== 'GET' && origin !== undefined && !allowedHosts.has(origin.replace(/^http:\/\//, '').toLowerCase())) throw new HttpFailure(403, 'cross-origin requests are refused');
    const ip = req.socket.remoteAddress ?? '?';
    const isAnonymous = !(req.headers.authorization ?? '').startsWith('Bearer ');
    if (isAnonymous) limit(anonymousLimiter, ip);

    const page = (body: string, type: string) => {
      if (method !== 'GET') throw new HttpFailure(405, 'GET only');
      res.writeHead(200, baseHeaders(type));
      res.end(body);
    };
    const post = () => {
      if (method !== 'POST') throw new HttpFailure(405, 'POST only');
    };
    switch (url.pathname) {
      case '/':
        return page(ROOM_PAGE_HTML, 'text/html; charset=utf-8');
      case '/room.js':
        return page(ROOM_PAGE_JS, 'text/javascript; charset=utf-8');
      case '/room.css':
        return page(ROOM_PAGE_CSS, 'text/css; charset=utf-8');
      case '/favicon.ico':
        // browsers ask for it; no icon, and no 404 in the member's console
        res.writeHead(204, baseHeaders('image/x-icon'));
        return void res.end();
      case '/api/join': {
        post();
        const body = await readJsonBody(req);
        if (normalizeRoomCode(text(body, 'code')) !== host.code) {
          limit(wrongCodeLimiter, ip);
          throw new HttpFailure(403, 'wrong room code');
        }
        return json(200, await host.join(text(body, 'name')));
      }
      case '/api/state': {
        if (method !== 'GET') throw new HttpFailure(405, 'GET only');
        const viewer = viewerOf(req);
        const after = Number(url.searchParams.get('after') ?? '0');
        const chatAfter = Number(url.searchParams.get('chat_after') ?? '0');
        if (!Number.isInteger(after) || !Number.isInteger(chatAfter)) throw new HttpFailure(400, 'after and chat_after are event numbers');
        if (after >= host.seq) return json(200, { seq: host.seq, unchanged: true });
        return json(200, host.view(viewer, chatAfter));
      }
      case '/api/vote': {
        post();
        const viewer = viewerOf(req);
        if (viewer.role !== 'member') throw new HttpFailure(403, 'the lead does not vote; join as a member to vote');
        const body = await readJsonBody(req);
        await host.vote(viewer.member_id, text(body, 'item_id'), text(body, 'label'));
        return json(200, { seq: host.seq });
      }
      case '/api/chat': {
        post();
        const viewer = viewerOf(req);
        const body = await readJsonBody(req);
        await host.chat(viewer.role === 'member' ? viewer.member_id : null, text(body, 'text'));
        return json(200, { seq: host.seq });
      }
      case '/api/lead/reveal':
      case '/api/lead/remove':
      case '/api/lead/close': {
        post();
        lead(viewerOf(req));
        const body = await readJsonBody(req);
        if (url.pathname === '/api/lead/reveal') await host.reveal(text(body, 'item_id'));
        else if (url.pathname === '/api/lead/remove') await host.remove(text(body, 'member_id'));
        else await host.closeRoom();
        return json(200, { seq: host.seq });
      }
      default:
        throw new HttpFailure(404, 'not found: this listener serves only the norming room');
    }
  }

  const server: Server = createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      const status = e instanceof HttpFailure || e instanceof RoomRuleError ? e.status : 500;
      const message = e instanceof HttpFailure || e instanceof RoomRuleError ? e.message : 'internal error';
      if (status === 500) process.stderr.write(`room listener: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      if (res.headersSent) return void res.end();
      res.writeHead(status, { ...baseHeaders('application/json; charset=utf-8'), ...(e instanceof HttpFailure ? e.headers : {}) });
      res.end(JSON.stringify({ error: message }));
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.maxHeadersCount = 50;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, address, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`${address}:${port}`]);
  if (address === '127.0.0.1') allowedHosts.add(`localhost:${port}`);
  const base = `http://${address}:${port}`;
  return {
    url: `${base}/`,
    leadUrl: `${base}/#lead=${encodeURIComponent(host.leadToken)}`,
    address,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
