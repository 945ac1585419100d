import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../../core/common/contract/securityHeaders';
import { AppService } from '../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../core/node/app/httpHost';
import { initProject } from '../../core/node/project/projectFolder';
import { createApiClient } from '../../renderer/src/contract/apiClient';
import { httpTransport } from '../../renderer/src/contract/httpTransport';
import { contractSuite, fixturesDir, haveFixtures, sendWav } from './contractSuite';
import { recordSession } from '../core/node/export/recordSession';

const open: Array<{ app: AppService; host: HttpHost }> = [];
afterEach(async () => {
  for (const { app, host } of open.splice(0)) {
    await host.close();
    await app.close();
  }
});

async function serve() {
  const root = await mkdtemp(path.join(tmpdir(), 'aloud-http-'));
  const projectDir = path.join(root, 'project');
  await initProject(projectDir, { demo: true });
  const rendererDir = path.join(root, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Aloud</title>');
  await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(root, 'secret.txt'), 'outside');
  const app = await AppService.open({ projectDir, mode: 'browser', openEngine: null });
  const host = await startHttpHost({ app, rendererDir });
  open.push({ app, host });
  const cookie = { cookie: `aloud_token_${host.port}=${host.token}` };
  return { app, host, cookie, client: createApiClient(httpTransport(host.origin, { headers: cookie })) };
}

describe('contract over HTTP (browser mode)', () => {
  contractSuite(async () => ({ client: (await serve()).client, mode: 'browser' }));
});

describe('browser-mode host security', () => {
  it('serves the page only after the token, then via an HttpOnly SameSite cookie', async () => {
    const { host } = await serve();
    const first = await fetch(host.url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toMatch(/aloud_token_\d+=.*HttpOnly; SameSite=Strict/);
    const page = await fetch(`${host.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${host.origin}/?token=wrong`)).status).toBe(403);
  });

  it('refuses API calls without the token, from another origin, or for another host name', async () => {
    const { host, cookie } = await serve();
    const call = (headers: Record<string, string>) =>
      fetch(`${host.origin}/api/call/appInfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"args":[]}',
      });
    expect((await call({})).status).toBe(400);
    expect((await call({ ...cookie, origin: 'http://evil.example' })).status).toBe(400);
    expect((await call(cookie)).status).toBe(200);
    // DNS rebinding: a foreign host name pointing at 127.0.0.1 is refused before anything else
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/api/call/appInfo',
          method: 'POST',
          headers: { host: `evil.example:${host.port}`, ...cookie },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end('{"args":[]}');
    });
    expect(status).toBe(421);
  });

  it('gives the session to the page that opened it last; other pages are refused, never served the wrong session', async () => {
    const { host, cookie, client: tabA } = await serve();
    const tabB = createApiClient(httpTransport(host.origin, { headers: cookie }));
    await tabA.openSession('ana');
    await tabA.openItem('demo-01');
    await tabB.openSession('ben');
    await tabB.openItem('demo-05');
    // tab A still shows ana on demo-01: its label must not land in ben's session on demo-05
    const refused = await tabA.commitLabel('Neutral', 'key').then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(refused?.code).toBe('conflict');
    expect(refused?.message).toContain('reload this page');
    const view = await tabB.session();
    expect(view.annotator).toBe('ben');
    expect(view.items.find((i) => i.item_id === 'demo-05')?.final_label ?? null).toBeNull();
    // reading the project stays open to every page, and reopening takes the session over
    expect((await tabA.project()).items).toHaveLength(20);
    await tabA.openSession('ana');
    expect((await tabA.commitLabel('Neutral', 'key')).changed_items.map((i) => i.final_label)).toEqual(['Neutral']);
  });

  it("sends the contract's security headers (the same as the desktop app's) on pages, API answers and refusals", async () => {
    const { host, cookie } = await serve();
    const responses = [
      await fetch(`${host.origin}/`),
      await fetch(`${host.origin}/api/call/appInfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...cookie },
        body: '{"args":[]}',
      }),
      await fetch(`${host.origin}/api/call/appInfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"args":[]}',
      }),
      await fetch(`${host.origin}/no-such.js`),
    ];
    for (const res of responses) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(res.headers.get(name), `${res.url} ${res.status} ${name}`).toBe(value);
    }
  });

  it('never serves files outside the renderer folder', async () => {
    const { host } = await serve();
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/%00index.html']) {
      const res = await fetch(`${host.origin}${p}`);
      expect(await res.text()).not.toContain('outside');
    }
    expect(await (await fetch(`${host.origin}/assets/app.js`)).text()).toBe('console.log(1)');
  });

  it.skipIf(!haveFixtures)("serves an item's recording with byte ranges for seeking", async () => {
    const { client, host, cookie } = await serve();
    await client.openSession('ana');
    await client.openItem('demo-01');
    await client.startRecording(null);
    await sendWav(client, path.join(fixturesDir, 'change-to-neutral.wav'));
    await client.stopRecording();
    const whole = await fetch(client.itemAudioUrl('demo-01'), { headers: cookie });
    expect(whole.status).toBe(200);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('RIFF');
    const part = await fetch(client.itemAudioUrl('demo-01'), { headers: { ...cookie, range: 'bytes=44-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 44-99/${bytes.length}`);
    expect((await part.arrayBuffer()).byteLength).toBe(56);
    expect((await fetch(client.itemAudioUrl('demo-99'), { headers: cookie })).status).toBe(404);
    expect(host.port).toBeGreaterThan(0);
  });

  it("serves another annotator's recording of an item for adjudication, only by item and number, only with the token", async () => {
    const { app, host, cookie, client } = await serve();
    await recordSession(app.projectFolder, 'ana', [{ id: 'demo-02', said: [' I label this polite.'], complete: true }]);
    await recordSession(app.projectFolder, 'ben', [{ id: 'demo-02', said: [' I label this neutral.'], complete: true }]);
    expect((await fetch(client.protocolAudioUrl('demo-02', 1), { headers: cookie })).status).toBe(404); // no session open: nobody adjudicates
    await client.openSession('lead');
    const first = await fetch(client.protocolAudioUrl('demo-02', 1), { headers: { ...cookie, range: 'bytes=0-3' } });
    expect(first.status).toBe(206);
    expect(new TextDecoder().decode(await first.arrayBuffer())).toBe('RIFF');
    expect((await fetch(client.protocolAudioUrl('demo-02', 2), { headers: cookie })).status).toBe(200);
    expect((await fetch(client.protocolAudioUrl('demo-02', 2))).status).toBe(400); // no token, no recording
    for (const [tail, status] of [
      ['demo-02/3', 404],
      ['demo-02/ana', 404],
      ['demo-02', 404],
      ['', 404],
      ['..%2F..%2Fsecret.txt/1', 404],
      ['demo-02/1/x', 404],
      ['demo-02/%zz', 400],
      ['demo-02%00/1', 400],
    ] as const) {
      const res = await fetch(`${host.origin}/api/protocol-audio/${tail}`, { headers: cookie });
      expect(res.status, tail).toBe(status);
      expect(await res.text()).not.toContain('outside');
    }
  });
});
