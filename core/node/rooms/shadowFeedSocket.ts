import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Refusal } from '../../common/refusal/refusal';
import { checkShadowFeed, ShadowFeedError, type ShadowFeed } from '../../common/rooms/shadowFeed';
import { roomPaths } from './roomLogFile';
import type { ShadowHost } from './shadowHost';
import { say } from '../../common/refusal/refusalMessage';

/**
 * How a `session ingest` in another process feeds a shadow room that `aloud room shadow` serves: a local socket (a
 * Unix socket in a private folder, a named pipe on Windows), never a network port, named with a token in
 * rooms/<code>/feed.json (readable by its owner only). Lines of JSON: the token first, then feed records, one way;
 * the room answers only "ok" or why it refuses, and then hangs up.
 */
export const FEED_FILE = 'feed.json';
/** A feed line longer than this is refused (an audio chunk of 50 ms takes about 2 KB). */
const MAX_FEED_LINE = 1024 * 1024;

const feedFile = (projectDir: string, code: string) => path.join(roomPaths(projectDir, code).dir, FEED_FILE);

/** Audio travels as 16-bit samples in base64 (the session's own WAV resolution). */
function encodePcm(pcm: Float32Array): string {
  const out = Buffer.alloc(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(pcm[i]! * 32767))), i * 2);
  return out.toString('base64');
}

function decodePcm(encoded: unknown): Float32Array {
  if (typeof encoded !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded))
    throw new ShadowFeedError('feed record: pcm must be base64 16-bit samples');
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length % 2 !== 0) throw new ShadowFeedError('feed record: pcm must hold whole 16-bit samples');
  const out = new Float32Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2) / 32768;
  return out;
}

/** Splits a stream into lines, refusing one longer than the bound. */
function onLines(socket: Socket, line: (text: string) => void, tooLong: () => void): void {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let at: number;
    while ((at = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      line(text);
    }
    if (buffer.length > MAX_FEED_LINE) tooLong();
  });
}

export interface ShadowFeedServer {
  /** where the pointer to it lies (rooms/<code>/feed.json) */
  file: string;
  close(): Promise<void>;
}

/** Serves the room's feed to a local process (one session at a time: the room's rules refuse a second). */
export async function serveShadowFeed(host: ShadowHost, projectDir: string): Promise<ShadowFeedServer> {
  const token = randomBytes(24).toString('base64url');
  const folder = process.platform === 'win32' ? null : await mkdtemp(path.join(tmpdir(), 'aloud-shadow-'));
  const socketPath =
    folder === null ? `\\\\.\\pipe\\aloud-shadow-${host.code}-${randomBytes(6).toString('hex')}` : path.join(folder, 'feed.sock');
  const connections = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections.add(socket);
    let authenticated = false;
    let joined = false;
    let left = false;
    let refused = false;
    let chain = Promise.resolve();
    const refuse = (message: string) => {
      refused = true;
      if (socket.writable) socket.end(`${JSON.stringify({ error: message })}\n`);
      else socket.destroy();
    };
    socket.on('error', () => undefined);
    socket.on('close', () => {
      connections.delete(socket);
      // a session that joined and went away without saying so: live view ends as a lost feed
      chain = chain.then(() => (joined && !left ? host.feedLost().catch(() => undefined) : undefined));
    });
    onLines(
      socket,
      (text) => {
        // lines that arrived before the session hung up are still shown; none after a refusal
        chain = chain.then(async () => {
          if (refused) return;
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            return refuse('a feed line must be JSON');
          }
          if (!authenticated) {
            const given = Buffer.from(typeof (value as { token?: unknown })?.token === 'string' ? (value as { token: string }).token : '');
            const wanted = Buffer.from(token);
            if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return refuse('wrong feed token');
            authenticated = true;
            socket.write(`${JSON.stringify({ ok: true, code: host.code })}\n`);
            return;
          }
          let record: ShadowFeed;
          try {
            record = checkShadowFeed(value, decodePcm);
            await host.feed(record);
          } catch (e) {
            return refuse(e instanceof Error ? e.message : String(e));
          }
          if (record.kind === 'expert') joined = true;
          if (record.kind === 'left') left = true;
        });
      },
      () => refuse(`a feed line has at most ${MAX_FEED_LINE} bytes`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  const file = feedFile(projectDir, host.code);
  await writeFile(file, `${JSON.stringify({ socket: socketPath, token, pid: process.pid })}\n`, { mode: 0o600, flag: 'wx' });
  return {
    file,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const c of connections) c.destroy();
      });
      await unlink(file).catch(() => undefined);
      if (folder !== null) await rm(folder, { recursive: true, force: true });
    },
  };
}

export interface ShadowFeedClient {
  send(feed: ShadowFeed): void;
  /** why the room stopped taking the feed (it closed, or refused a record), or null */
  readonly problem: string | null;
  /** sends what is buffered and hangs up */
  close(): Promise<void>;
}

/**
 * Connects a session in this process to the shadow room `code` served by `aloud room shadow` for the project.
 * After that nothing the room does can stop or change the session: a refused record or a room that went away is
 * reported once (onProblem) and the feed goes quiet.
 */
export async function connectShadowFeed(projectDir: string, code: string, onProblem: (message: string) => void): Promise<ShadowFeedClient> {
  const file = feedFile(projectDir, code);
  let pointer: { socket?: unknown; token?: unknown };
  try {
    pointer = JSON.parse(await readFile(file, 'utf8')) as typeof pointer;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Refusal('not_found', say('refusal.rooms.shadowRoomRoomIsNot', { code, file }));
    throw new Refusal('bad_request', say('refusal.rooms.notAShadowRoomS', { file }));
  }
  if (typeof pointer.socket !== 'string' || typeof pointer.token !== 'string')
    throw new Refusal('bad_request', say('refusal.rooms.notAShadowRoomS', { file }));
  const socket = connect(pointer.socket);
  let problem: string | null = null;
  const report = (message: string) => {
    if (problem !== null) return;
    problem = message;
    onProblem(message);
  };
  await new Promise<void>((resolve, reject) => {
    const fail = (message: string) => reject(new Refusal('conflict', say('refusal.rooms.shadowRoom', { message })));
    const timer = setTimeout(() => fail(`room ${code} did not answer`), 10_000);
    socket.once('error', (e) => {
      clearTimeout(timer);
      fail(`cannot reach room ${code} (${(e as NodeJS.ErrnoException).code ?? e.message}); is \`aloud room shadow\` still running?`);
    });
    let first = true;
    onLines(
      socket,
      (text) => {
        let answer: { ok?: unknown; error?: unknown } = {};
        try {
          answer = JSON.parse(text) as typeof answer;
        } catch {
          answer = { error: 'an answer that is not JSON' };
        }
        if (first) {
          first = false;
          clearTimeout(timer);
          if (answer.ok === true) resolve();
          else fail(`room ${code} refused the feed: ${String(answer.error)}`);
          return;
        }
        if (typeof answer.error === 'string') report(`the shadow room stopped taking the feed: ${answer.error}`);
      },
      () => socket.destroy(),
    );
    socket.write(`${JSON.stringify({ token: pointer.token })}\n`);
  });
  socket.removeAllListeners('error');
  socket.on('error', (e) => report(`the shadow room went away (${(e as NodeJS.ErrnoException).code ?? e.message})`));
  socket.on('close', () => report('the shadow room went away'));
  return {
    send(feed) {
      if (problem !== null || !socket.writable) return;
      const wire = feed.kind === 'audio' ? { ...feed, pcm: encodePcm(feed.pcm) } : feed;
      socket.write(`${JSON.stringify(wire)}\n`);
    },
    get problem() {
      return problem;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.destroyed) return resolve();
        socket.once('close', () => resolve());
        // a room that closed hangs up first; ours is the orderly end
        problem ??= 'closed';
        socket.end();
        setTimeout(() => socket.destroy(), 5000).unref();
      }),
  };
}
