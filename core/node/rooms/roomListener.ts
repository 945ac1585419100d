import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { RateLimiter, type RateLimit } from '../../common/rooms/rateLimit';
import { normalizeRoomCode } from '../../common/rooms/roomCode';
import { RoomRuleError } from '../../common/rooms/roomFold';
import type { RoomHost, RoomViewer } from './roomHost';
import { ROOM_PAGE_CSP, ROOM_PAGE_CSS, ROOM_PAGE_HTML, ROOM_PAGE_JS } from './roomPage';

/**
 * The listener's budgets, each its own, so spending one never locks another: guessing tokens does not stop the page
 * or joins of that address, and a join that succeeds spends or refills nothing of anyone's.
 */
export interface RoomListenerLimits {
  /** every request carrying a member's (or the lead's) token, per token */
  member: RateLimit;
  /** requests without a token (the page, its files, joins), per address */
  anonymous: RateLimit;
  /** requests with a token that is not (or no longer) in the room, per address */
  wrongToken: RateLimit;
  /** wrong room codes per address; once spent, every join from the address waits, with the right code too */
  wrongCode: RateLimit;
  /** wrong room codes from every address together: another address brings no fresh budget */
  wrongCodeRoom: RateLimit;
}

export const DEFAULT_ROOM_LIMITS: RoomListenerLimits = {
  member: { burst: 30, perSecond: 5 },
  anonymous: { burst: 30, perSecond: 2 },
  wrongToken: { burst: 10, perSecond: 0.5 },
  wrongCode: { burst: 5, perSecond: 1 / 60 },
  wrongCodeRoom: { burst: 30, perSecond: 1 / 60 },
};

export interface RoomListenerOptions {
  /** '127.0.0.1' (default) or an address of this machine on the local network, chosen explicitly by the lead */
  address?: string;
  port?: number;
  /** budgets to change (tests); the others are DEFAULT_ROOM_LIMITS */
  limits?: Partial<RoomListenerLimits>;
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
/** the key of the budget the whole room shares */
const ROOM_KEY = 'room';

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

/** The client hung up before its request was read: nobody is left to answer, and nothing went wrong here. */
class ClientGone extends Error {}

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
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpFailure(413, `a request body has at most ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof HttpFailure) throw e;
    throw new ClientGone();
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
  const limits = { ...DEFAULT_ROOM_LIMITS, ...options.limits };
  const memberLimiter = new RateLimiter(limits.member);
  const anonymousLimiter = new RateLimiter(limits.anonymous);
  const wrongTokenLimiter = new RateLimiter(limits.wrongToken);
  const wrongCodeLimiter = new RateLimiter(limits.wrongCode);
  const wrongCodeRoomLimiter = new RateLimiter(limits.wrongCodeRoom);
  let allowedHosts = new Set<string>();

  const tooMany = (wait: number, what: string) => new HttpFailure(429, `${what}; try again in ${wait} s`, { 'Retry-After': String(wait) });
  const limit = (limiter: RateLimiter, key: string, what = 'too many requests') => {
    const wait = limiter.take(key);
    if (wait !== null) throw tooMany(wait, what);
  };

  /** Who is asking: null without a token; a wrong token is refused here, on its own budget. */
  const viewerOf = (req: IncomingMessage, ip: string): RoomViewer | null => {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (token === '') {
      limit(anonymousLimiter, ip);
      return null;
    }
    const viewer = host.authenticate(token);
    if (!viewer) {
      limit(wrongTokenLimiter, ip, 'too many requests with a token that is not in the room');
      throw new HttpFailure(403, 'this token is not (or no longer) a member of the room');
    }
    limit(memberLimiter, token);
    return viewer;
  };
  const joined = (viewer: RoomViewer | null): RoomViewer => {
    if (!viewer) throw new HttpFailure(401, 'join the room first');
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
    const asker = viewerOf(req, ip);

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
        // checked before the code is: while a budget is spent, the right code waits like a wrong one
        const addressWait = wrongCodeLimiter.wait(ip);
        if (addressWait !== null) throw tooMany(addressWait, 'too many wrong room codes from this address');
        const roomWait = wrongCodeRoomLimiter.wait(ROOM_KEY);
        if (roomWait !== null) throw tooMany(roomWait, 'too many wrong room codes for this room');
        const body = await readJsonBody(req);
        if (normalizeRoomCode(text(body, 'code')) !== host.code) {
          wrongCodeLimiter.take(ip);
          wrongCodeRoomLimiter.take(ROOM_KEY);
          throw new HttpFailure(403, 'wrong room code');
        }
        return json(200, await host.join(text(body, 'name')));
      }
      case '/api/state': {
        if (method !== 'GET') throw new HttpFailure(405, 'GET only');
        const viewer = joined(asker);
        const after = Number(url.searchParams.get('after') ?? '0');
        const chatAfter = Number(url.searchParams.get('chat_after') ?? '0');
        if (!Number.isInteger(after) || !Number.isInteger(chatAfter)) throw new HttpFailure(400, 'after and chat_after are event numbers');
        if (after >= host.seq) return json(200, { seq: host.seq, unchanged: true });
        return json(200, host.view(viewer, chatAfter));
      }
      case '/api/vote': {
        post();
        const viewer = joined(asker);
        if (viewer.role !== 'member') throw new HttpFailure(403, 'the lead does not vote; join as a member to vote');
        const body = await readJsonBody(req);
        await host.vote(viewer.member_id, text(body, 'item_id'), text(body, 'label'));
        return json(200, { seq: host.seq });
      }
      case '/api/chat': {
        post();
        const viewer = joined(asker);
        const body = await readJsonBody(req);
        await host.chat(viewer.role === 'member' ? viewer.member_id : null, text(body, 'text'));
        return json(200, { seq: host.seq });
      }
      case '/api/lead/reveal':
      case '/api/lead/remove':
      case '/api/lead/close': {
        post();
        lead(joined(asker));
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
      if (e instanceof ClientGone) return void res.destroy();
      const status = e instanceof HttpFailure || e instanceof RoomRuleError ? e.status : 500;
      const message = e instanceof HttpFailure || e instanceof RoomRuleError ? e.message : 'internal error';
      // one line on the lead's terminal, never a stack trace
      if (status === 500) process.stderr.write(`room listener: internal error on ${req.method ?? '?'} ${new URL(req.url ?? '/', 'http://room.invalid').pathname}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
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
