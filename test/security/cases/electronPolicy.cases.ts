import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { SECURITY_HEADERS } from '../../../core/common/contract/securityHeaders';
import { AppService } from '../../../core/node/app/appService';
import { initProject } from '../../../core/node/project/projectFolder';
import { createAppRequestHandler } from '../../../electron/main/appRequests';
import { handleIpcCall, type IpcCallSender } from '../../../electron/main/ipcCalls';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { refuseDownload } from '../../../electron/policy/downloads';
import { fuseProblems, REQUIRED_FUSES } from '../../../electron/policy/fuses';
import { isNavigationAllowed, isRequestAllowed } from '../../../electron/policy/navigation';
import { isPermissionAllowed } from '../../../electron/policy/permissions';
import { routeAppRequest } from '../../../electron/policy/protocolFiles';
import { hostileGroup, type HostileCase } from '../hostile';

interface ShellContext {
  app: AppService;
  handle: (request: Request) => Promise<Response>;
  config: Record<string, unknown>;
}

const REPO = path.resolve(import.meta.dirname, '../../..');
const WINDOW = 3;
const trusted: IpcCallSender = {
  senderFrameUrl: `${APP_ORIGIN}/index.html`,
  isMainFrame: true,
  senderId: WINDOW,
  mainWindowId: WINDOW,
  appOrigin: APP_ORIGIN,
};

const cases: Array<HostileCase<ShellContext>> = [];
const add = (name: string, run: (ctx: ShellContext) => Promise<void> | void) => cases.push({ name, run });

// Fuses: the packaged binary must not run code other than its own signed asar.
add('electron-builder.yml sets every required fuse', (ctx) => expect(fuseProblems(ctx.config)).toEqual([]));
for (const [name, { value }] of Object.entries(REQUIRED_FUSES)) {
  add(`a config with ${name} flipped to ${!value} is reported`, (ctx) => {
    const fuses = { ...(ctx.config.electronFuses as Record<string, boolean>), [name]: !value };
    expect(fuseProblems({ ...ctx.config, electronFuses: fuses })).toEqual([expect.stringContaining(`electronFuses.${name}`)]);
  });
}
add('a config without electronFuses is reported', (ctx) => {
  const { electronFuses: _gone, ...rest } = ctx.config;
  expect(fuseProblems(rest)).toEqual([expect.stringContaining('electronFuses: missing')]);
});
add('a config with asar: false is reported', (ctx) =>
  expect(fuseProblems({ ...ctx.config, asar: false })).toEqual([expect.stringContaining('asar')]),
);
add('will-download: every download is cancelled before a byte is written', () => {
  let prevented = 0;
  refuseDownload({ preventDefault: () => prevented++ });
  expect(prevented).toBe(1);
});

// Navigation and requests: only our own origin.
for (const url of [
  'https://example.com/',
  'http://127.0.0.1:8080/',
  'file:///etc/passwd',
  'aloud://app.evil.com/index.html',
  'aloud://app:99/index.html',
  'aloud://user@app/index.html',
  'javascript:alert(1)',
  'data:text/html,<script>x</script>',
  'aloud://app/index.html\u0000',
  'aloud://APP\\index.html',
  'chrome://settings',
  'about:blank',
  'blob:aloud://app/uuid',
  'devtools://devtools/bundled/inspector.html',
]) {
  add(`navigation to ${JSON.stringify(url).slice(0, 48)} is refused`, () => expect(isNavigationAllowed(url, APP_ORIGIN)).toBe(false));
}
for (const url of [
  'https://example.com/x.js',
  'http://127.0.0.1:9229/json',
  'ws://127.0.0.1:1/',
  'file:///etc/hosts',
  'ftp://example.com/',
]) {
  add(`a request to ${url} is cancelled`, () => expect(isRequestAllowed(url, APP_ORIGIN)).toBe(false));
}

// Permissions: the microphone for our top frame, nothing else.
const microphone = {
  permission: 'media',
  requestingUrl: `${APP_ORIGIN}/index.html`,
  mediaTypes: ['audio'],
  isMainFrame: true,
  appOrigin: APP_ORIGIN,
};
for (const [what, change] of [
  ['the camera', { mediaTypes: ['video'] }],
  ['screen capture', { permission: 'display-capture' }],
  ['the microphone for a sub-frame', { isMainFrame: false }],
  ['the microphone for a remote page', { requestingUrl: 'https://example.com/' }],
  ['the microphone for a file:// page', { requestingUrl: 'file:///tmp/x.html' }],
  ['notifications', { permission: 'notifications' }],
  ['USB', { permission: 'usb' }],
  ['the microphone with no URL', { requestingUrl: null }],
] as const) {
  add(`permission for ${what} is refused`, () => expect(isPermissionAllowed({ ...microphone, ...change })).toBe(false));
}

// The app protocol: routes and headers.
for (const url of [
  'aloud://app/../../etc/passwd',
  'aloud://app/%2e%2e/%2e%2e/etc/passwd',
  'aloud://app/assets/%2fetc%2fpasswd',
  'aloud://app/.git/config',
  'aloud://app/index.html%00',
  'aloud://app/assets/a.js::$DATA',
  'aloud://app/CON',
  'aloud://evil/index.html',
  'aloud://app/assets/..%5c..%5cx',
]) {
  add(`the app protocol refuses ${url}`, () => {
    const route = routeAppRequest(url, APP_ORIGIN);
    expect(
      route.kind === 'refused' || (route.kind === 'renderer-file' && !route.segments.some((s) => s.includes('..') || s.includes('/'))),
    ).toBe(true);
  });
}
for (const [what, request] of [
  ['a 405 (POST)', new Request(`${APP_ORIGIN}/index.html`, { method: 'POST', body: 'x' })],
  ['a 403 (traversal)', new Request(`${APP_ORIGIN}/%2e%2e/x`)],
  ['a 404 (missing asset)', new Request(`${APP_ORIGIN}/assets/none.js`)],
  ['a 404 (item without audio)', new Request(`${APP_ORIGIN}/item-audio/demo-01`)],
  ['a 404 (protocol recording of an item nobody labelled)', new Request(`${APP_ORIGIN}/protocol-audio/demo-01/1`)],
  ['a 404 (protocol recording asked by path)', new Request(`${APP_ORIGIN}/protocol-audio/..%2F..%2Fetc/passwd`)],
  ['the page', new Request(`${APP_ORIGIN}/index.html`)],
  ['a symlink out of the renderer (403)', new Request(`${APP_ORIGIN}/assets/link-out.js`)],
] as const) {
  add(`app protocol: ${what} carries every security header`, async (ctx) => {
    const response = await ctx.handle(request);
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(response.headers.get(name), `${name} (${response.status})`).toBe(value);
    expect(await response.text()).not.toContain('outside the renderer');
  });
}

// IPC: the sender, then the one dispatcher.
for (const [what, change] of [
  ['another webContents', { senderId: WINDOW + 1 }],
  ['a sub-frame', { isMainFrame: false }],
  ['a remote page in our window', { senderFrameUrl: 'https://example.com/' }],
  ['a look-alike origin', { senderFrameUrl: 'aloud://app.evil/index.html' }],
  ['a destroyed frame', { senderFrameUrl: undefined }],
  ['a call before the window exists', { mainWindowId: null }],
  ['a non-integer sender id', { senderId: Number.NaN }],
] as const) {
  add(`IPC from ${what} is refused before the dispatcher runs`, async (ctx) => {
    const outcome = await handleIpcCall({ ...trusted, ...change }, 'openSession', ['mallory'], ctx.app);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await handleIpcCall(trusted, 'session', [], ctx.app)).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });
}
for (const [what, method, args] of [
  ['__proto__', '__proto__', []],
  ['toString', 'toString', []],
  ['a Symbol-like string', 'Symbol(iterator)', []],
  ['an object as method', { valueOf: () => 'appInfo' }, []],
  ['args as a string', 'openSession', 'ana'],
  ['args with a getter-free proxy', 'openSession', [{ length: 1 }]],
  ['a typed array that is not bytes', 'appendAudio', [new Float32Array(4)]],
] as const) {
  add(`IPC call with ${what} is bad_request, never internal`, async (ctx) => {
    expect(await handleIpcCall(trusted, method, args, ctx.app)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
}

export const electronPolicyGroup = hostileGroup<ShellContext>({
  surface: 'electron policy',
  area: 'fuses, downloads, navigation, permissions, the app protocol and IPC',
  async setup() {
    const root = await mkdtemp(path.join(tmpdir(), 'aloud-hostile-shell-'));
    const projectDir = path.join(root, 'project');
    await initProject(projectDir, { demo: true });
    const rendererRoot = path.join(root, 'renderer');
    await mkdir(path.join(rendererRoot, 'assets'), { recursive: true });
    await writeFile(path.join(rendererRoot, 'index.html'), '<!doctype html>');
    await writeFile(path.join(root, 'secret.js'), 'outside the renderer');
    await symlink(path.join(root, 'secret.js'), path.join(rendererRoot, 'assets', 'link-out.js'));
    const app = await AppService.open({ projectDir, mode: 'electron', openEngine: null });
    const handle = createAppRequestHandler({
      appOrigin: APP_ORIGIN,
      rendererRoot,
      itemAudio: (itemId) => {
        const file = app.itemAudioFile(itemId);
        return file ? { file, projectDir } : null;
      },
      protocolAudio: (itemId, protocol) => app.protocolAudioFile(itemId, protocol),
    });
    const config = parse(await readFile(path.join(REPO, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
    return { app, handle, config };
  },
  teardown: (ctx) => ctx.app.close(),
  cases,
});
