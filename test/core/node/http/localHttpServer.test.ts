import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECURITY_HEADERS } from '../../../../core/common/contract/securityHeaders';
import { AppService } from '../../../../core/node/app/appService';
import { type HttpHost, startHttpHost } from '../../../../core/node/app/httpHost';
import { HttpFailure, readJsonObject, startLocalHttpServer, type LocalHttpServer } from '../../../../core/node/http/localHttpServer';
import { initProject } from '../../../../core/node/project/projectFolder';
import { RoomHost } from '../../../../core/node/rooms/roomHost';
import type { RoomListener } from '../../../../core/node/rooms/roomHttp';
import { startRoomListener } from '../../../../core/node/rooms/roomListener';
import { ROOM_PAGE_CSP } from '../../../../core/node/rooms/roomPage';

function raw(
  port: number,
  options: { method?: string; path?: string; host?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: { Host: options.host ?? `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('the one HTTP server under browser mode and the rooms', () => {
  let server: LocalHttpServer;
  const headers = { 'Content-Security-Policy': "default-src 'none'", 'X-Test': 'on every answer' };

  beforeAll(async () => {
    server = await startLocalHttpServer({
      name: 'test host',
      address: '127.0.0.1',
      wrongHost: 'not this name',
      fail: (res, failure) => {
        res.writeHead(failure.status, { ...headers, ...failure.headers, 'Content-Type': 'text/plain' });
        res.end(failure.message);
      },
      handle: async (req, res, url) => {
        if (url.pathname === '/boom') throw new Error('disk on fire\n    at secret/stack.ts:1');
        if (url.pathname === '/busy') throw new HttpFailure(429, 'wait', { 'Retry-After': '3' });
        if (url.pathname === '/json') {
          const body = await readJsonObject(req, 16);
          res.writeHead(200, headers);
          return void res.end(JSON.stringify(body));
        }
        res.writeHead(200, headers);
        res.end('ok');
      },
    });
  });
  afterAll(() => server?.close());

  it('answers its own Host (and localhost on loopback), any other with 421 in the host’s own form', async () => {
    expect((await raw(server.port, {})).text).toBe('ok');
    expect((await raw(server.port, { host: `LOCALHOST:${server.port}` })).text).toBe('ok');
    for (const host of ['evil.example', `127.0.0.1:${server.port + 1}`, `127.0.0.1:${server.port}.evil.example`]) {
      const answer = await raw(server.port, { host });
      expect(answer.status, host).toBe(421);
      expect(answer.text).toBe('not this name');
      expect(answer.headers['x-test']).toBe('on every answer');
    }
    expect([...server.origins].sort()).toEqual([`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`]);
  });

  it('a failure keeps its status and headers; an unexpected error is a 500 without its stack, and one terminal line', async () => {
    const busy = await raw(server.port, { path: '/busy' });
    expect([busy.status, busy.headers['retry-after'], busy.text]).toEqual([429, '3', 'wait']);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const boom = await raw(server.port, { path: '/boom?token=secret' });
      expect([boom.status, boom.text]).toEqual([500, 'internal error']);
      expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual(['test host: internal error on GET /boom: disk on fire\n']);
    } finally {
      stderr.mockRestore();
    }
  });

  it('JSON bodies: JSON only (415), within the limit (413), an object (400)', async () => {
    const post = (body: string, type = 'application/json') =>
      raw(server.port, { method: 'POST', path: '/json', headers: { 'Content-Type': type }, body });
    expect((await post('{"a":1}')).text).toBe('{"a":1}');
    expect((await post('a=1', 'application/x-www-form-urlencoded')).status).toBe(415);
    expect((await post('{"a":"0123456789abcdef"}')).status).toBe(413);
    expect((await post('[1]')).status).toBe(400);
    expect((await post('{')).status).toBe(400);
  });
});

describe('browser mode and a room listener answer alike', () => {
  let app: AppService;
  let httpHost: HttpHost;
  let room: RoomHost;
  let listener: RoomListener;

  beforeAll(async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'aloud-one-host-'));
    const dir = path.join(root, 'p');
    await initProject(dir, { demo: true });
    const rendererDir = path.join(root, 'renderer');
    await mkdir(rendererDir);
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Aloud</title>');
    app = await AppService.open({ projectDir: dir, mode: 'browser', openEngine: null });
    httpHost = await startHttpHost({ app, rendererDir });
    room = await RoomHost.create(dir, {
      project: 'p',
      mode: 'items',
      items: [{ id: 'a', text: 'A' }],
      labels: ['X', 'Y'],
      level: 'nominal',
      max_members: 2,
    });
    listener = await startRoomListener(room);
  });
  afterAll(async () => {
    await listener?.close();
    await room?.close().catch(() => undefined);
    await httpHost?.close();
    await app?.close();
  });

  it('the same security headers on pages and refusals, each with its own CSP, and the same 421 for another Host', async () => {
    for (const [port, csp] of [
      [httpHost.port, SECURITY_HEADERS['Content-Security-Policy']],
      [listener.port, ROOM_PAGE_CSP],
    ] as const) {
      for (const answer of [
        await raw(port, {}),
        await raw(port, { host: 'evil.example' }),
        await raw(port, { path: '/nothing/here.js' }),
      ]) {
        for (const [name, value] of Object.entries(SECURITY_HEADERS))
          expect(answer.headers[name.toLowerCase()], `${name} on ${port} (${answer.status})`).toBe(
            name === 'Content-Security-Policy' ? csp : value,
          );
        expect(answer.headers['x-frame-options']).toBe('DENY');
      }
      expect((await raw(port, { host: 'evil.example' })).status).toBe(421);
    }
  });
});
