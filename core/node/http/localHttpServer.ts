import type { SaidMessage } from '../../common/refusal/refusalMessage';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECURITY_HEADERS } from '../../common/contract/securityHeaders';
import { englishHttpWords, type HttpMessageId } from './httpWords';

/**
 * The one HTTP host under the app's browser mode (app/httpHost.ts) and the rooms' listeners (rooms/roomHttp.ts):
 * the same limits, headers, Host rule and error handling for both; each brings its own routes and its page's CSP.
 */

/** Headers on every answer of a host, errors included: the contract's, with this host's CSP, never framed. */
export function hostSecurityHeaders(csp: string): Readonly<Record<string, string>> {
  return { ...SECURITY_HEADERS, 'Content-Security-Policy': csp, 'X-Frame-Options': 'DENY' };
}

/** What a failure says as a catalog message (a host that answers people formats it in their language); values may nest. */
export type HttpFailureSay = SaidMessage;

/**
 * An answer other than 200, with its status and headers (429 carries Retry-After). `message` is the English text
 * programs read; `say`, when present, is the same words as a catalog message.
 */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly say?: HttpFailureSay,
  ) {
    super(message);
  }
}

/** A failure of the server's own rules, its words from the http catalog (httpWords.ts): English message, catalog id. */
function ownFailure(status: number, id: HttpMessageId, headers: Record<string, string> = {}, values?: Record<string, number>): HttpFailure {
  return new HttpFailure(status, englishHttpWords(id, values), headers, values === undefined ? { id } : { id, values });
}

/** The client hung up before its request was read: nobody is left to answer, and nothing went wrong here. */
export class ClientGone extends Error {}

/**
 * A request body of at most `limit` bytes. Beyond it: 413, the rest of the body is let through unread and the
 * connection closes after the answer (so the client reads the 413 instead of a reset). A client that hangs up before
 * the end is ClientGone.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      done();
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) return settle(() => reject(ownFailure(413, 'http.bodyTooLarge', { Connection: 'close' }, { limit })));
      chunks.push(chunk);
    });
    req.on('end', () => settle(() => resolve(Buffer.concat(chunks))));
    req.on('error', () => settle(() => reject(new ClientGone())));
    req.on('close', () => settle(() => reject(new ClientGone())));
  });
}

/** The media type of a request, without parameters, in lower case. */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * A JSON object body: Content-Type application/json (a cross-site form can only send form types, so every
 * cross-origin write needs a preflight we never grant), at most `limit` bytes, an object.
 */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  if (mediaType(req) !== 'application/json') throw ownFailure(415, 'http.sendJson');
  const body = await readBody(req, limit);
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw ownFailure(400, 'http.notJson');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw ownFailure(400, 'http.notObject');
  return value as Record<string, unknown>;
}

export function answerJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

export function answerText(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>>): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

export interface LocalHttpServerOptions {
  /** what the host is called in the one line a 500 writes to the terminal */
  name: string;
  /** '127.0.0.1', or an address of this machine on the local network (rooms, chosen by the lead) */
  address: string;
  port?: number;
  /** what a request for another host name is told (421) */
  wrongHost: string;
  /** the same words as a catalog message, for a host that answers in the asker's language */
  wrongHostSay?: HttpFailureSay;
  /** answers a failure in the host's own form (JSON error, text), with its security headers: errors carry them too */
  fail(res: ServerResponse, failure: HttpFailure, req: IncomingMessage): void;
  /** the routes; throw HttpFailure to answer otherwise than 200, anything else is a 500 */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

export interface LocalHttpServer {
  address: string;
  port: number;
  /** `http://address:port` */
  origin: string;
  /** the Host headers it answers (`address:port`, and `localhost:port` on loopback) */
  hosts: ReadonlySet<string>;
  /** the Origin headers that are its own */
  origins: ReadonlySet<string>;
  close(): Promise<void>;
}

/**
 * Starts a host: answers only requests whose Host is its own address (a DNS-rebinding page cannot reach it by another
 * name), with bounded header and request times, the same security headers on every answer, and one line on the
 * terminal — never a stack trace to the client — when a route fails unexpectedly.
 */
export async function startLocalHttpServer(options: LocalHttpServerOptions): Promise<LocalHttpServer> {
  let hosts = new Set<string>();
  const failWith = (req: IncomingMessage, res: ServerResponse, failure: HttpFailure) => {
    if (res.headersSent) return void res.destroy();
    options.fail(res, failure, req);
  };
  const server: Server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    void (async () => {
      if (!hosts.has((req.headers.host ?? '').toLowerCase())) throw new HttpFailure(421, options.wrongHost, {}, options.wrongHostSay);
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      } catch {
        throw ownFailure(400, 'http.badPath');
      }
      await options.handle(req, res, url);
    })().catch((e: unknown) => {
      if (e instanceof ClientGone) return void res.destroy();
      if (e instanceof HttpFailure) return failWith(req, res, e);
      const where = (req.url ?? '/').split('?')[0];
      process.stderr.write(
        // i18n-ignore: the terminal's one line for the operator, English like all CLI output
        `${options.name}: internal error on ${method} ${where}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`,
      );
      failWith(req, res, ownFailure(500, 'http.internal'));
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  server.maxHeadersCount = 50;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.address, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = new Set([`${options.address}:${port}`]);
  if (options.address === '127.0.0.1') hosts.add(`localhost:${port}`);
  return {
    address: options.address,
    port,
    origin: `http://${options.address}:${port}`,
    hosts,
    origins: new Set([...hosts].map((h) => `http://${h}`)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
