import { formatRefusal } from '../../common/refusal/refusalMessage';
import { acceptedLanguages, INTERFACE_LOCALES, pickInterfaceLocale, type InterfaceLocale } from '../../common/i18n/interfaceLocale';
import { mergeCatalogs } from '../../common/i18n/messageCatalog';
import { createTranslator, type Translator } from '../../common/i18n/translator';
import { escapeXml } from '../../common/io/xmlText';
import refusalDe from '../../common/refusal/messages/de.json';
import refusalEn from '../../common/refusal/messages/en.json';
import { roomCatalogs, roomWords, type RoomMessageId, type RoomWords } from '../../common/rooms/roomWords';
import { httpCatalogs } from '../http/httpWords';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { RateLimiter, type RateLimit } from '../../common/rooms/rateLimit';
import { normalizeRoomCode } from '../../common/rooms/roomCode';
import { RoomRuleError } from '../../common/rooms/roomFold';
import { answerJson, HttpFailure, hostSecurityHeaders, readJsonObject, startLocalHttpServer } from '../http/localHttpServer';
import { ROOM_PAGE_CSP } from './roomPage';

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
/** How long a page's state request with `wait=1` waits for the room to change before it is told "unchanged". */
export const ROOM_POLL_WAIT_MS = 10_000;
/** the key of the budget the whole room shares */
const ROOM_KEY = 'room';

/** A room page's three files as the room server serves them: `/`, `/<name>.js` and `/<name>.css`. */
export function roomPageFiles(
  name: string,
  page: { html: (t: RoomWords) => string; js: string; css: string },
): Record<string, RoomPageFile> {
  const html = Object.fromEntries(INTERFACE_LOCALES.map((locale) => [locale, page.html(roomWords(locale))])) as Record<
    InterfaceLocale,
    string
  >;
  return {
    '/': { body: html, type: 'text/html; charset=utf-8' },
    [`/${name}.js`]: { body: page.js, type: 'text/javascript; charset=utf-8' },
    [`/${name}.css`]: { body: page.css, type: 'text/css; charset=utf-8' },
  };
}

/** What the lead's panel (or the expert's) shows of a served room: the code, where to open it, and its log. */
export function servedStatus(
  host: { code: string; logFile: string },
  listener: RoomListener,
): { code: string; url: string; address: string; lan: boolean; log: string } {
  return { code: host.code, url: listener.url, address: listener.address, lan: listener.address !== '127.0.0.1', log: host.logFile };
}

/** The first IPv4 address of this machine on a network (not loopback): where `--lan` listens when no address is given. */
export function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

/** Headers on every answer, errors included: the hosts' security headers with the room page's CSP, and nothing cached. */
const ROOM_HEADERS: Readonly<Record<string, string>> = { ...hostSecurityHeaders(ROOM_PAGE_CSP), 'Cache-Control': 'no-store' };

/** The room's headers for an answer of this content type. */
export function roomHeaders(contentType: string): Record<string, string> {
  return { ...ROOM_HEADERS, 'Content-Type': contentType };
}

const englishRoomWords = roomWords('en');

/** A refusal of the room's own rules: English for programs (`error`), the room catalog's message for the person. */
export function roomFailure(
  status: number,
  id: RoomMessageId,
  values?: Readonly<Record<string, string | number>>,
  headers: Record<string, string> = {},
): HttpFailure {
  return new HttpFailure(status, englishRoomWords(id, values), headers, values === undefined ? { id } : { id, values });
}

/** Every message a room's refusal can carry: the room's own, the HTTP server's, and the room rules' (refusal catalog). */
const failureCatalogs = mergeCatalogs([roomCatalogs, httpCatalogs, { en: refusalEn, de: refusalDe }]);
const failureTranslators = new Map<InterfaceLocale, Translator>();

/** What a refusal says to a person in `locale`: its catalog message, else (a failure without one) its English. */
export function failureText(failure: HttpFailure, locale: InterfaceLocale): string {
  const say = failure.say;
  // the English is the message itself, formatted from the same catalog when it was made (numbers as programs read them)
  if (locale === 'en' || !say || !Object.hasOwn(failureCatalogs[locale], say.id)) return failure.message;
  let intl = failureTranslators.get(locale);
  if (!intl) failureTranslators.set(locale, (intl = createTranslator(locale, failureCatalogs[locale])));
  try {
    // a room rule's refusal may carry a nested message (formatted in the same language)
    return formatRefusal(intl, say) ?? failure.message;
  } catch {
    // an answer already failing must still be given: the English rather than none (the catalog tests catch the cause)
    return failure.message;
  }
}

/** The interface language a request asks for (its Accept-Language; the room page's script sends the page's). */
export function requestLocale(req: IncomingMessage): InterfaceLocale {
  return pickInterfaceLocale(null, acceptedLanguages(req.headers['accept-language']));
}

/** A browser opening a page (not the page's script calling the API): it is answered with a page, not JSON. */
function opensPage(req: IncomingMessage): boolean {
  return (req.method ?? 'GET') === 'GET' && !(req.url ?? '/').startsWith('/api/') && /\btext\/html\b/i.test(req.headers.accept ?? '');
}

/** A refusal's page, in the person's language: what went wrong and the way to the room page. */
export function failurePageHtml(status: number, text: string, locale: InterfaceLocale): string {
  const t = roomWords(locale);
  const title = escapeXml(t('room.error.pageTitle', { status: String(status) }));
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head><body>
<main><h1>${title}</h1><p>${escapeXml(text)}</p><p><a href="/">${escapeXml(t('room.error.toRoom'))}</a></p></main>
</body></html>
`;
}

/**
 * A refusal as the room answers it, in the asker's language (Content-Language, Vary: Accept-Language): a page to a
 * browser opening one; to the API, JSON with the English `error` programs read, the catalog message (`say`: id and
 * values) and `message`, its words in the asked language, which the room page shows.
 */
function answerFailure(res: ServerResponse, failure: HttpFailure, req: IncomingMessage): void {
  const locale = requestLocale(req);
  const headers = { ...ROOM_HEADERS, ...failure.headers, 'Content-Language': locale, Vary: 'Accept-Language' };
  const message = failureText(failure, locale);
  if (opensPage(req)) {
    const html = failurePageHtml(failure.status, message, locale);
    res.writeHead(failure.status, {
      ...headers,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(html)),
    });
    return void res.end(html);
  }
  answerJson(res, failure.status, { error: failure.message, ...(failure.say ? { say: failure.say } : {}), message }, headers);
}

/** A string field of a request body, or a 400 naming the field. */
export function bodyText(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string') throw roomFailure(400, 'room.error.stringField', { key });
  return v;
}

/** One request to a room's API, as a route sees it: who asks (null without a token) and how to answer. */
export interface RoomRequest<V> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly method: string;
  readonly viewer: V | null;
  /** the viewer, or 401 "join the room first" */
  joined(): V;
  /** the JSON body (at most 4 KB, Content-Type application/json) */
  body(): Promise<Record<string, unknown>>;
  /** 405 unless the request is a GET (or a POST) */
  get(): void;
  post(): void;
  json(status: number, body: unknown): void;
}

/** What a room host gives its listener: its code, the lead's token, its members' tokens and joins. */
export interface ServedHost<V> {
  readonly code: string;
  readonly leadToken: string;
  /** the viewer a token belongs to, or null (an unknown token, a removed member) */
  authenticate(token: string): V | null;
  join(name: string): Promise<unknown>;
}

/** A route only the lead (or the expert) may call: POST, their token checked, the body acted on, answered with the room's seq. */
export function leadRoute<V>(
  isLead: (viewer: V) => void,
  seq: () => number,
  act: (body: Record<string, unknown>) => Promise<void>,
): (request: RoomRequest<V>) => Promise<void> {
  return async (request) => {
    request.post();
    isLead(request.joined());
    await act(await request.body());
    request.json(200, { seq: seq() });
  };
}

/** A file of a room page: one body, or one per interface language (chosen by the browser's Accept-Language). */
export interface RoomPageFile {
  body: string | Readonly<Record<InterfaceLocale, string>>;
  type: string;
}

/** What a room listener serves: the room's own code, tokens and joins, its page files and its API routes. */
export interface ServedRoom<V> {
  /** the room host itself (RoomHost, ShadowHost): read on each request */
  host: ServedHost<V>;
  /** path → file of the page (GET only) */
  pages: Readonly<Record<string, RoomPageFile>>;
  /** path → handler, besides /api/join */
  routes: Readonly<Record<string, (request: RoomRequest<V>) => Promise<void>>>;
  /** what a 404 says */
  notFound: RoomMessageId;
}

/**
 * A room listener: the room's page and API, nothing else — no annotation API, no project files. Binds 127.0.0.1
 * unless the lead gives an address on the local network. On the hosts' one server (http/localHttpServer.ts: its own
 * Host only, bounded times, the same headers and errors as the app's browser mode), answers only JSON bodies up to
 * 4 KB, refuses cross-origin writes, and keeps the budgets of RoomListenerLimits. Norming rooms (roomListener.ts) and shadow rooms (shadowListener.ts) are
 * two sets of routes over it.
 */
export async function startRoomServer<V>(room: ServedRoom<V>, options: RoomListenerOptions = {}): Promise<RoomListener> {
  const limits = { ...DEFAULT_ROOM_LIMITS, ...options.limits };
  const memberLimiter = new RateLimiter(limits.member);
  const anonymousLimiter = new RateLimiter(limits.anonymous);
  const wrongTokenLimiter = new RateLimiter(limits.wrongToken);
  const wrongCodeLimiter = new RateLimiter(limits.wrongCode);
  const wrongCodeRoomLimiter = new RateLimiter(limits.wrongCodeRoom);
  let origins: ReadonlySet<string> = new Set();

  const tooMany = (wait: number, what: RoomMessageId) => roomFailure(429, what, { wait }, { 'Retry-After': String(wait) });
  const limit = (limiter: RateLimiter, key: string, what: RoomMessageId = 'room.error.tooMany') => {
    const wait = limiter.take(key);
    if (wait !== null) throw tooMany(wait, what);
  };

  /** Who is asking: null without a token; a wrong token is refused here, on its own budget. */
  const viewerOf = (req: IncomingMessage, ip: string): V | null => {
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (token === '') {
      limit(anonymousLimiter, ip);
      return null;
    }
    const viewer = room.host.authenticate(token);
    if (!viewer) {
      limit(wrongTokenLimiter, ip, 'room.error.tooManyWrongToken');
      throw roomFailure(403, 'room.error.wrongToken');
    }
    limit(memberLimiter, token);
    return viewer;
  };

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const origin = req.headers.origin;
    if (method !== 'GET' && origin !== undefined && !origins.has(origin.toLowerCase())) throw roomFailure(403, 'room.error.crossOrigin');
    const ip = req.socket.remoteAddress ?? '?';
    const viewer = viewerOf(req, ip);
    const request: RoomRequest<V> = {
      req,
      res,
      url,
      method,
      viewer,
      joined: () => {
        if (!viewer) throw roomFailure(401, 'room.error.joinFirst');
        return viewer;
      },
      body: () => readJsonObject(req, MAX_BODY_BYTES),
      get: () => {
        if (method !== 'GET') throw roomFailure(405, 'room.error.getOnly');
      },
      post: () => {
        if (method !== 'POST') throw roomFailure(405, 'room.error.postOnly');
      },
      json: (status, body) => answerJson(res, status, body, ROOM_HEADERS),
    };

    const page = room.pages[url.pathname];
    if (page) {
      request.get();
      if (typeof page.body === 'string') {
        res.writeHead(200, roomHeaders(page.type));
        return void res.end(page.body);
      }
      const locale = requestLocale(req);
      res.writeHead(200, { ...roomHeaders(page.type), 'Content-Language': locale, Vary: 'Accept-Language' });
      return void res.end(page.body[locale]);
    }
    if (url.pathname === '/favicon.ico') {
      // browsers ask for it; no icon, and no 404 in the member's console
      res.writeHead(204, roomHeaders('image/x-icon'));
      return void res.end();
    }
    if (url.pathname === '/api/join') {
      request.post();
      // checked before the code is: while a budget is spent, the right code waits like a wrong one
      const addressWait = wrongCodeLimiter.wait(ip);
      if (addressWait !== null) throw tooMany(addressWait, 'room.error.tooManyWrongCodesAddress');
      const roomWait = wrongCodeRoomLimiter.wait(ROOM_KEY);
      if (roomWait !== null) throw tooMany(roomWait, 'room.error.tooManyWrongCodesRoom');
      const body = await request.body();
      if (normalizeRoomCode(bodyText(body, 'code')) !== room.host.code) {
        wrongCodeLimiter.take(ip);
        wrongCodeRoomLimiter.take(ROOM_KEY);
        throw roomFailure(403, 'room.error.wrongCode');
      }
      return request.json(200, await room.host.join(bodyText(body, 'name')));
    }
    const handler = Object.hasOwn(room.routes, url.pathname) ? room.routes[url.pathname] : undefined;
    if (!handler) throw roomFailure(404, room.notFound);
    return handler(request);
  }

  const server = await startLocalHttpServer({
    name: 'room listener', // i18n-ignore: the server's name in a terminal line, never shown in a page
    address: options.address ?? '127.0.0.1',
    port: options.port,
    wrongHost: englishRoomWords('room.error.wrongHost'),
    wrongHostSay: { id: 'room.error.wrongHost' },
    fail: answerFailure,
    // a room's rule refusing a request is an answer in words, with the rule's status
    handle: (req, res, url) =>
      route(req, res, url).catch((e: unknown) => {
        throw e instanceof RoomRuleError ? new HttpFailure(e.status, e.message, {}, e.say) : e;
      }),
  });
  origins = server.origins;
  return {
    url: `${server.origin}/`,
    leadUrl: `${server.origin}/#lead=${encodeURIComponent(room.host.leadToken)}`,
    address: server.address,
    port: server.port,
    close: () => server.close(),
  };
}

/**
 * Waits (bounded) until `ready` or the request ends: the client hung up, or the room changed. A member removed
 * meanwhile is refused, as their next request would be, rather than shown one more view.
 */
export async function waitForRoom<V>(
  request: RoomRequest<V>,
  host: { readonly seq: number; waitForChange(after: number, ms: number, signal?: AbortSignal): Promise<void>; admits(viewer: V): boolean },
  ms: number,
  ready: () => boolean,
): Promise<void> {
  const hungUp = new AbortController();
  request.res.once('close', () => hungUp.abort());
  const until = Date.now() + ms;
  while (!ready() && !hungUp.signal.aborted && Date.now() < until) await host.waitForChange(host.seq, until - Date.now(), hungUp.signal);
  if (!host.admits(request.joined())) throw roomFailure(403, 'room.error.wrongToken');
}
