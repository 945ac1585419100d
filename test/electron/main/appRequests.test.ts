import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRequestHandler } from '../../../electron/main/appRequests';
import { resolveFileInside } from '../../../core/node/fs/resolveInside';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { CONTENT_SECURITY_POLICY } from '../../../core/common/contract/securityHeaders';

let work: string;
let handle: (request: Request) => Promise<Response>;
const audioBytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'aloud-requests-'));
  const renderer = path.join(work, 'renderer');
  const project = path.join(work, 'project');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await mkdir(path.join(project, 'sessions'), { recursive: true });
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Aloud</title>');
  await writeFile(path.join(renderer, 'assets', 'app.js'), 'export {}');
  await writeFile(path.join(project, 'sessions', 'demo-01.wav'), audioBytes);
  await writeFile(path.join(work, 'outside.wav'), 'not yours');
  await symlink(path.join(work, 'outside.wav'), path.join(project, 'sessions', 'linked.wav'));
  const recordings: Record<string, string> = {
    'demo-01': path.join(project, 'sessions', 'demo-01.wav'),
    escapes: path.join(work, 'outside.wav'),
    linked: path.join(project, 'sessions', 'linked.wav'),
    vanished: path.join(project, 'sessions', 'gone.wav'),
  };
  handle = createAppRequestHandler({
    appOrigin: APP_ORIGIN,
    rendererRoot: renderer,
    itemAudio: (itemId) => (recordings[itemId] ? { file: recordings[itemId]!, projectDir: project } : null),
    protocolAudio: async (itemId, protocol) =>
      itemId === 'demo-01' && protocol === 2
        ? resolveFileInside(project, recordings['demo-01']!)
        : { ok: false, status: 404, reason: 'no recording' },
  });
});
afterAll(() => rm(work, { recursive: true, force: true }));

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') => handle(new Request(url, { method, headers }));

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('renderer files', () => {
  it('serves index.html for the root and by name, with the CSP', async () => {
    for (const url of ['aloud://app/', 'aloud://app/index.html']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toBe('<!doctype html><title>Aloud</title>');
      expectSecurityHeaders(response);
    }
  });

  it('serves assets with their content type; HEAD has no body', async () => {
    const response = await get('aloud://app/assets/app.js');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await response.text()).toBe('export {}');
    const head = await get('aloud://app/assets/app.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('9');
    expect(await head.text()).toBe('');
  });

  it.each([
    ['aloud://app/missing.js', 404],
    ['aloud://app/assets', 404],
    ['aloud://app/..%2foutside.wav', 403],
    ['aloud://app/%2e%2e%2f%2e%2e%2fetc%2fpasswd', 403],
    ['aloud://app/index.html%00', 400],
    ['aloud://app.evil.com/index.html', 403],
    ['aloud://evil/index.html', 403],
  ])('refuses %s with %i and still sends the CSP', async (url, status) => {
    const response = await get(url);
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
    expect(await response.text()).not.toContain('not yours');
  });

  it('answers only GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const response = await handle(
        new Request('aloud://app/index.html', { method, ...(method === 'POST' || method === 'PUT' ? { body: 'x' } : {}) }),
      );
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });
});

describe('item recordings (review playback)', () => {
  it('serves the whole WAV and says ranges are accepted', async () => {
    const response = await get('aloud://app/item-audio/demo-01');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe('1000');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(audioBytes);
    expectSecurityHeaders(response);
  });

  it.each([
    ['bytes=0-', 0, 999],
    ['bytes=100-199', 100, 199],
    ['bytes=990-5000', 990, 999],
    ['bytes=-10', 990, 999],
    ['bytes=999-999', 999, 999],
  ])('Range %s → 206 with exactly those bytes', async (range, start, end) => {
    const response = await get('aloud://app/item-audio/demo-01', { Range: range });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(audioBytes.slice(start, end + 1));
  });

  it('answers an unsatisfiable range with 416 and the size', async () => {
    const response = await get('aloud://app/item-audio/demo-01', { Range: 'bytes=1000-' });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */1000');
  });

  it('serves the whole file for ranges it does not do (several spans)', async () => {
    const response = await get('aloud://app/item-audio/demo-01', { Range: 'bytes=0-1,5-6' });
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(1000);
  });

  it('refuses an item without a recording, a recording outside the project and a link leading out', async () => {
    expect((await get('aloud://app/item-audio/demo-02')).status).toBe(404);
    expect((await get('aloud://app/item-audio/vanished')).status).toBe(404);
    const escapes = await get('aloud://app/item-audio/escapes');
    expect(escapes.status).toBe(403);
    expect(await escapes.text()).not.toContain('not yours');
    expect((await get('aloud://app/item-audio/linked')).status).toBe(403);
  });
});

describe('protocol recordings (adjudication playback): only protocol-audio/<item id>/<n>', () => {
  it("serves annotator n of an item through the host's lookup, with ranges", async () => {
    const response = await get('aloud://app/protocol-audio/demo-01/2', { Range: 'bytes=0-9' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(audioBytes.slice(0, 10));
    expectSecurityHeaders(response);
  });

  it.each([
    ['aloud://app/protocol-audio/demo-01', 404],
    ['aloud://app/protocol-audio/demo-01/2/x', 404],
    ['aloud://app/protocol-audio/demo-01/0', 404],
    ['aloud://app/protocol-audio/demo-01/ana', 404],
    ['aloud://app/protocol-audio/demo-01/100', 404],
    ['aloud://app/protocol-audio/%20/1', 404],
    ['aloud://app/protocol-audio/..%2Fsessions/1', 404],
    ['aloud://app/protocol-audio/demo-01/%zz', 400],
    ['aloud://app/protocol-audio/demo-01/1', 404],
  ])('%s → %i', async (url, status) => {
    expect((await get(url)).status).toBe(status);
  });
});
