import { request } from 'node:http';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { encodeChunkFrame } from '../../../core/common/audio/chunkFrame';
import { SECURITY_HEADERS } from '../../../core/common/contract/securityHeaders';
import { AppService } from '../../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../../core/node/app/httpHost';
import { freshProject } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';

interface HostContext {
  host: HttpHost;
  app: AppService;
  projectDir: string;
  cookie: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to the host on 127.0.0.1, with exactly the path and headers given (no URL normalising). */
function raw(
  ctx: HostContext,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array; host?: string | null },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      ...(options.host === null ? {} : { host: options.host ?? `127.0.0.1:${ctx.host.port}` }),
      ...options.headers,
    };
    const req = request(
      { host: '127.0.0.1', port: ctx.host.port, path: options.path, method: options.method ?? 'GET', headers, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          // an event stream never ends: the first bytes are enough
          if (String(res.headers['content-type']).startsWith('text/event-stream')) res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = (ctx: HostContext, method: string, body: string, extra: Record<string, string> = {}) =>
  raw(ctx, {
    method: 'POST',
    path: `/api/call/${method}`,
    headers: { cookie: ctx.cookie, 'content-type': 'application/json', ...extra },
    body,
  });

const call = (ctx: HostContext, method: string, args: unknown[], extra: Record<string, string> = {}) =>
  json(ctx, method, JSON.stringify({ args }), extra);

const codeOf = (answer: Answer): string | undefined => (JSON.parse(answer.body) as { error?: { code: string } }).error?.code;

function refusedWith(status: number, code?: string): (answer: Answer) => void {
  return (answer) => {
    expect(answer.status, answer.body).toBe(status);
    if (code) expect(codeOf(answer)).toBe(code);
  };
}

const cases: Array<HostileCase<HostContext>> = [];
const add = (name: string, run: (ctx: HostContext) => Promise<void>) => cases.push({ name, run });

// DNS rebinding: the Host header must name us.
for (const host of [
  'evil.example:PORT',
  'evil.example',
  '127.0.0.2:PORT',
  'localhost.evil.example:PORT',
  '[::1]:PORT',
  '',
  '127.0.0.1:1',
  '127.0.0.1:PORT.evil.example',
  '127.0.0.1',
]) {
  add(`Host ${JSON.stringify(host)} is refused with 421 before the token is looked at`, async (ctx) => {
    const answer = await raw(ctx, {
      method: 'POST',
      path: '/api/call/appInfo',
      host: host.replace('PORT', String(ctx.host.port)),
      headers: { cookie: ctx.cookie, 'content-type': 'application/json' },
      body: '{"args":[]}',
    });
    expect(answer.status).toBe(421);
  });
}
add('a request without any Host header is refused (Node answers 400 before us)', async (ctx) => {
  expect([400, 421]).toContain((await raw(ctx, { path: '/', host: null })).status);
});

// The access token.
for (const [what, cookie] of [
  ['no cookie', ''],
  ['a wrong token of the same length', 'WRONG'],
  ['the token under another port’s cookie name', 'OTHERPORT'],
  ['an empty token', 'EMPTY'],
  ['the token with a trailing byte', 'TRAILING'],
] as const) {
  add(`API call with ${what} is refused (400), nothing runs`, async (ctx) => {
    const value = {
      '': '',
      WRONG: `aloud_token_${ctx.host.port}=${'x'.repeat(ctx.host.token.length)}`,
      OTHERPORT: `aloud_token_${ctx.host.port + 1}=${ctx.host.token}`,
      EMPTY: `aloud_token_${ctx.host.port}=`,
      TRAILING: `aloud_token_${ctx.host.port}=${ctx.host.token}x`,
    }[cookie];
    refusedWith(
      400,
      'bad_request',
    )(
      await raw(ctx, {
        method: 'POST',
        path: '/api/call/appInfo',
        headers: { cookie: value, 'content-type': 'application/json' },
        body: '{"args":[]}',
      }),
    );
  });
}
add('the page with a wrong ?token= is refused with 403 and sets no cookie', async (ctx) => {
  const answer = await raw(ctx, { path: '/?token=wrong' });
  expect(answer.status).toBe(403);
  expect(answer.headers['set-cookie']).toBeUndefined();
});
add('the event stream without the token is refused', async (ctx) => {
  expect((await raw(ctx, { path: '/api/events' })).status).toBe(400);
});

// CSRF: only our own origin may write.
for (const origin of [
  'http://evil.example',
  'null',
  'http://127.0.0.1:1',
  'https://127.0.0.1:PORT',
  'http://localhost.evil.example:PORT',
  'http://127.0.0.1:PORT/extra',
]) {
  add(`a call from Origin ${origin} is refused (400)`, async (ctx) => {
    refusedWith(400, 'bad_request')(await call(ctx, 'appInfo', [], { origin: origin.replace('PORT', String(ctx.host.port)) }));
  });
}

// Methods and content types.
for (const method of ['PUT', 'DELETE', 'PATCH', 'GET']) {
  add(`${method} /api/call/appInfo is refused with 405`, async (ctx) => {
    expect((await raw(ctx, { method, path: '/api/call/appInfo', headers: { cookie: ctx.cookie } })).status).toBe(405);
  });
}
add('POST to a page is refused with 405', async (ctx) => {
  expect((await raw(ctx, { method: 'POST', path: '/', headers: { cookie: ctx.cookie } })).status).toBe(405);
});
for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
  add(`a call sent as ${JSON.stringify(type)} (what a cross-site form can send) is refused`, async (ctx) => {
    refusedWith(
      400,
      'bad_request',
    )(
      await raw(ctx, {
        method: 'POST',
        path: '/api/call/appInfo',
        headers: { cookie: ctx.cookie, ...(type ? { 'content-type': type } : {}) },
        body: '{"args":[]}',
      }),
    );
  });
}

// Bodies and method names.
for (const [what, method, body, status] of [
  ['invalid JSON', 'appInfo', '{"args":[', 400],
  ['JSON null', 'appInfo', 'null', 400],
  ['args that are an object', 'openSession', '{"args":{"0":"ana"}}', 400],
  ['args missing', 'openSession', '{}', 400],
  ['args under __proto__', 'openSession', '{"__proto__":{"args":["ana"]}}', 400],
  ['an unknown method', 'deleteProject', '{"args":[]}', 400],
  ['__proto__ as method', '__proto__', '{"args":[]}', 400],
  ['constructor as method', 'constructor', '{"args":[]}', 400],
  ['hasOwnProperty as method', 'hasOwnProperty', '{"args":[]}', 400],
  ['a method name with a percent-encoded slash', 'appInfo%2f..', '{"args":[]}', 400],
  ['audio as a JSON list of numbers', 'appendAudio', '{"args":[[1,2,3]]}', 400],
  ['an export format that is a path', 'exportSession', '{"args":["../../etc/passwd"]}', 400],
  ['a label that is an object', 'commitLabel', '{"args":[{"toString":"Polite"},"key"]}', 400],
  ['a 100,001-character note', 'addNote', JSON.stringify({ args: ['n'.repeat(100_001)] }), 400],
  ['10,000 nested arrays', 'openSession', `{"args":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 400],
] as const) {
  add(`a call with ${what} is answered ${status}, never 500`, async (ctx) => {
    const answer = await json(ctx, method, body);
    expect(answer.status, answer.body).toBe(status);
  });
}
add('a JSON body over 1 MiB is refused (400) without being kept', async (ctx) => {
  refusedWith(400, 'bad_request')(await json(ctx, 'addNote', JSON.stringify({ args: ['x'.repeat(1024 * 1024 + 10)] })));
});
add('binary audio over 2 MiB is refused (400)', async (ctx) => {
  const answer = await raw(ctx, {
    method: 'POST',
    path: '/api/binary/appendAudio',
    headers: { cookie: ctx.cookie, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(2 * 1024 * 1024 + 1),
  });
  expect(answer.status).toBe(400);
});
add('the binary route refuses a method that takes no bytes (404)', async (ctx) => {
  const answer = await raw(ctx, {
    method: 'POST',
    path: '/api/binary/openItem',
    headers: { cookie: ctx.cookie, 'content-type': 'application/octet-stream' },
    body: 'demo-01',
  });
  expect(answer.status).toBe(404);
});
add('the binary route refuses JSON (400)', async (ctx) => {
  const answer = await raw(ctx, {
    method: 'POST',
    path: '/api/binary/appendAudio',
    headers: { cookie: ctx.cookie, 'content-type': 'application/json' },
    body: '[]',
  });
  expect(answer.status).toBe(400);
});
add('a damaged chunk frame is refused (400), not a crash', async (ctx) => {
  await call(ctx, 'openSession', ['frames']);
  await call(ctx, 'openItem', ['demo-03']);
  await call(ctx, 'startRecording', [null]);
  const frame = encodeChunkFrame({ startSample: 0, pcm: new Float32Array(160) });
  frame[0] = 0x00;
  const answer = await raw(ctx, {
    method: 'POST',
    path: '/api/binary/appendAudio',
    headers: { cookie: ctx.cookie, 'content-type': 'application/octet-stream' },
    body: frame,
  });
  expect(answer.status).toBe(400);
  await call(ctx, 'stopRecording', []);
});
add('an unknown API route is 404', async (ctx) => {
  expect(
    (await raw(ctx, { method: 'POST', path: '/api/evil', headers: { cookie: ctx.cookie, 'content-type': 'application/json' }, body: '{}' }))
      .status,
  ).toBe(404);
});

// Paths.
add('GET //[ (a path that is not a URL) is 400, not 500', async (ctx) => {
  expect((await raw(ctx, { path: '//[' })).status).toBe(400);
});
add('GET //evil.example/ (a scheme-relative path) does not leave the host', async (ctx) => {
  const answer = await raw(ctx, { path: '//evil.example/' });
  expect([200, 400, 404]).toContain(answer.status);
  expect(answer.headers.location).toBeUndefined();
});
for (const p of [
  '/../secret.txt',
  '/%2e%2e/secret.txt',
  '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
  '/%00index.html',
  '/.secret',
  '/assets/..%5c..%5csecret.txt',
  '/index.html%00.js',
  '/%c0%ae%c0%ae/secret.txt',
  '/assets/link-out.txt',
  '/assets/app.js::$DATA',
]) {
  add(`GET ${p} never serves a file outside the renderer folder`, async (ctx) => {
    const answer = await raw(ctx, { path: p });
    expect(answer.body).not.toContain('outside-the-renderer');
    expect(answer.status).not.toBe(500);
  });
}

// Review audio.
for (const [p, status] of [
  ['/api/item-audio/', 404],
  ['/api/item-audio/%ZZ', 400],
  ['/api/item-audio/..%2f..%2faloud.yaml', 404],
  ['/api/item-audio/demo-01/extra', 404],
  ['/api/item-audio/demo-99', 404],
] as const) {
  add(`GET ${p} is ${status}`, async (ctx) => {
    expect((await raw(ctx, { path: p, headers: { cookie: ctx.cookie } })).status).toBe(status);
  });
}
add('item audio without the token is refused', async (ctx) => {
  expect((await raw(ctx, { path: '/api/item-audio/demo-01' })).status).toBe(400);
});
for (const [range, status] of [
  ['bytes=999999999-', 416],
  ['bytes=-0', 416],
  [`bytes=${Array.from({ length: 100 }, (_, i) => `${i}-${i}`).join(',')}`, 200],
  ['bytes=5-1', 200],
  ['items=0-10', 200],
] as const) {
  add(`Range ${range.slice(0, 30)} on a recording is answered ${status}`, async (ctx) => {
    await call(ctx, 'openSession', ['ranges']);
    await call(ctx, 'openItem', ['demo-04']);
    await call(ctx, 'startRecording', [null]);
    await raw(ctx, {
      method: 'POST',
      path: '/api/binary/appendAudio',
      headers: { cookie: ctx.cookie, 'content-type': 'application/octet-stream' },
      body: encodeChunkFrame({ startSample: 0, pcm: new Float32Array(1600) }),
    });
    await call(ctx, 'stopRecording', []);
    const answer = await raw(ctx, { path: '/api/item-audio/demo-04', headers: { cookie: ctx.cookie, range } });
    expect(answer.status).toBe(status);
  });
}

// User errors are 4xx with the contract's codes, and a refused openSession leaves the open session as it was.
for (const [what, name, code] of [
  ['a right-to-left override', 'ana\u202Egpj.exe', 'bad_request'],
  ['a zero-width space', 'an\u200Ba', 'bad_request'],
  ['a control character', 'ana\u0007', 'bad_request'],
  ['a 201-character name', 'a'.repeat(201), 'bad_request'],
  ['a name that is too long once encoded', '界'.repeat(70), 'bad_request'],
] as const) {
  add(`openSession with ${what} is ${code}, and the open session stays open`, async (ctx) => {
    expect((await call(ctx, 'openSession', ['keeper'])).status).toBe(200);
    refusedWith(400, code)(await call(ctx, 'openSession', [name]));
    const view = await call(ctx, 'session', []);
    expect(view.status).toBe(200);
    expect((JSON.parse(view.body) as { result: { annotator: string } }).result.annotator).toBe('keeper');
  });
}
add('openSession of a session locked by a live process is 409 conflict, and the open session stays open', async (ctx) => {
  const dir = path.join(ctx.projectDir, 'sessions', 'locked');
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, '.lock'),
    `${JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), started_at: new Date().toISOString() })}\n`,
  );
  expect((await call(ctx, 'openSession', ['keeper'])).status).toBe(200);
  refusedWith(409, 'conflict')(await call(ctx, 'openSession', ['locked']));
  expect(JSON.parse((await call(ctx, 'session', [])).body).result.annotator).toBe('keeper');
});
add('openSession of a damaged log is 409 conflict naming the line, and the open session stays open', async (ctx) => {
  expect((await call(ctx, 'openSession', ['damaged'])).status).toBe(200);
  expect((await call(ctx, 'openSession', ['keeper'])).status).toBe(200);
  await appendFile(path.join(ctx.projectDir, 'sessions', 'damaged', 'events.jsonl'), 'not json\n{"v":1}\n');
  const answer = await call(ctx, 'openSession', ['damaged']);
  refusedWith(409, 'conflict')(answer);
  expect(answer.body).toContain('events.jsonl:');
  expect(JSON.parse((await call(ctx, 'session', [])).body).result.annotator).toBe('keeper');
});
add('another page cannot act on the session it did not open (409)', async (ctx) => {
  expect((await call(ctx, 'openSession', ['owner'], { 'x-aloud-client': 'page-a' })).status).toBe(200);
  refusedWith(409, 'conflict')(await call(ctx, 'commitLabel', ['Polite', 'key'], { 'x-aloud-client': 'page-b' }));
  refusedWith(409, 'conflict')(await call(ctx, 'addNote', ['from b'], { 'x-aloud-client': 'page-b' }));
});
add('a failed openSession from another page does not take the session from the page that owns it', async (ctx) => {
  expect((await call(ctx, 'openSession', ['owner'], { 'x-aloud-client': 'page-a' })).status).toBe(200);
  refusedWith(400)(await call(ctx, 'openSession', ['x\u202E'], { 'x-aloud-client': 'page-b' }));
  expect((await call(ctx, 'session', [], { 'x-aloud-client': 'page-a' })).status).toBe(200);
});

// The contract's security headers on every kind of answer.
for (const [what, send] of [
  ['the page', (ctx: HostContext) => raw(ctx, { path: '/' })],
  ['a 404', (ctx: HostContext) => raw(ctx, { path: '/nothing.js' })],
  ['a 405', (ctx: HostContext) => raw(ctx, { method: 'DELETE', path: '/' })],
  ['a 421', (ctx: HostContext) => raw(ctx, { path: '/', host: 'evil.example' })],
  ['a 400 for //[', (ctx: HostContext) => raw(ctx, { path: '//[' })],
  ['the token redirect', (ctx: HostContext) => raw(ctx, { path: `/?token=${ctx.host.token}` })],
  ['an API answer', (ctx: HostContext) => call(ctx, 'appInfo', [])],
  ['an API refusal', (ctx: HostContext) => call(ctx, 'nothing', [])],
  ['the event stream', (ctx: HostContext) => raw(ctx, { path: '/api/events', headers: { cookie: ctx.cookie } })],
] as const) {
  add(`${what} carries CSP, nosniff, COOP, CORP and no-referrer`, async (ctx) => {
    const answer = await send(ctx);
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(answer.headers[name.toLowerCase()], `${name} on ${what} (${answer.status})`).toBe(value);
  });
}

export const browserModeGroup = hostileGroup<HostContext>({
  surface: 'browser mode',
  area: 'the HTTP host on 127.0.0.1 (Host, token, Origin, bodies, paths, ranges, user errors, headers)',
  async setup() {
    const { project, root } = await freshProject();
    const rendererDir = path.join(root, 'renderer');
    await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Aloud</title>');
    await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(path.join(root, 'secret.txt'), 'outside-the-renderer');
    await writeFile(path.join(rendererDir, '.secret'), 'outside-the-renderer');
    await (await import('node:fs/promises')).symlink(path.join(root, 'secret.txt'), path.join(rendererDir, 'assets', 'link-out.txt'));
    const app = await AppService.open({ projectDir: project.dir, mode: 'browser', openEngine: null });
    const host = await startHttpHost({ app, rendererDir });
    return { app, host, projectDir: project.dir, cookie: `aloud_token_${host.port}=${host.token}` };
  },
  async teardown(ctx) {
    await ctx.host.close();
    await ctx.app.close();
  },
  cases,
});
