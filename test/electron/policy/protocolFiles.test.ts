import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../../electron/policy/appOrigin';
import { contentTypeFor, resolveRendererFile } from '../../../core/node/app/appFiles';
import { isInsideFolder, resolveFileInside } from '../../../core/node/fs/resolveInside';
import { routeAppRequest } from '../../../electron/policy/protocolFiles';

describe('routeAppRequest', () => {
  it.each([
    ['aloud://app/', ['index.html']],
    ['aloud://app/index.html', ['index.html']],
    ['aloud://app/index.html?v=2#x', ['index.html']],
    ['aloud://app/assets/index-3f2a.js', ['assets', 'index-3f2a.js']],
    ['aloud://app/assets/my%20font.woff2', ['assets', 'my font.woff2']],
    ['aloud://app/a/%2e%2e/index.html', ['index.html']],
    ['aloud://app/assets/../index.html', ['index.html']],
    ['aloud://app/%2e%2e/%2e%2e/etc/passwd', ['etc', 'passwd']],
    // decoded once only: a doubly encoded dot-dot is a literal (harmless) file name
    ['aloud://app/%252e%252e/x', ['%2e%2e', 'x']],
  ])('%s is the renderer file %j', (url, segments) => {
    expect(routeAppRequest(url, APP_ORIGIN)).toEqual({ kind: 'renderer-file', segments });
  });

  it.each([
    ['aloud://app/item-audio/demo-01', 'demo-01'],
    ['aloud://app/item-audio/reply%2F7%3A%20%C3%A9', 'reply/7: é'],
    ['aloud://app/item-audio/a..b', 'a..b'],
  ])('%s is the recording of item %j', (url, itemId) => {
    expect(routeAppRequest(url, APP_ORIGIN)).toEqual({ kind: 'item-audio', itemId });
  });

  it.each([
    ['aloud://app/protocol-audio/demo-01/1', 'demo-01', 1],
    ['aloud://app/protocol-audio/reply%2F7%3A%20%C3%A9/12', 'reply/7: é', 12],
    ['aloud://app/protocol-audio/..%2F..%2Fsessions/2', '../../sessions', 2],
  ])('%s is protocol %j of item n (the id a key, never a path)', (url, itemId, protocol) => {
    expect(routeAppRequest(url, APP_ORIGIN)).toEqual({ kind: 'protocol-audio', itemId, protocol });
  });

  it.each([
    'aloud://app/protocol-audio/demo-01',
    'aloud://app/protocol-audio/demo-01/ana',
    'aloud://app/protocol-audio/demo-01/0',
    'aloud://app/protocol-audio/demo-01/1/extra',
    'aloud://app/protocol-audio/demo-01/sessions%2Fana%2Faudio%2Fdemo-01.wav',
    'aloud://app/protocol-audio//1',
  ])('%s is no protocol recording (404)', (url) => {
    expect(routeAppRequest(url, APP_ORIGIN)).toMatchObject({ kind: 'refused', status: 404 });
  });

  it.each([
    ['file:///etc/passwd', 403],
    ['https://example.com/index.html', 403],
    ['aloud://app.evil.com/index.html', 403],
    ['aloud://app@evil/index.html', 403],
    ['aloud://evil/index.html', 403],
    ['aloud://app/..%2f..%2fetc%2fpasswd', 403],
    ['aloud://app/..%2F..%2Fetc%2Fpasswd', 403],
    ['aloud://app/%2e%2e%2f%2e%2e%2fetc%2fpasswd', 403],
    ['aloud://app/assets%2f..%2f..%2fsecret', 403],
    ['aloud://app/..%5c..%5cwindows%5cwin.ini', 403],
    ['aloud://app/%2fetc%2fpasswd', 403],
    ['aloud://app/C:%5cWindows%5cwin.ini', 403],
    ['aloud://app/C:/Windows/win.ini', 403],
    ['aloud://app/index.html::$DATA', 403],
    ['aloud://app/index.html.', 403],
    ['aloud://app/index.html%20', 403],
    ['aloud://app/...', 403],
    ['aloud://app/.env', 403],
    ['aloud://app/.git/config', 403],
    ['aloud://app/index.html%00.png', 400],
    ['aloud://app/%00', 400],
    ['aloud://app/a%0ab', 400],
    ['aloud://app/%e0%a4%a', 400],
    ['aloud://app/%ff', 400],
    ['aloud://app/assets/', 404],
    ['aloud://app//etc/passwd', 404],
    ['aloud://app/item-audio/', 404],
    ['aloud://app/item-audio', 404],
    ['aloud://app/item-audio/%20', 404],
    ['aloud://app/item-audio/a/b', 404],
    ['aloud://app/item-audio/x%00', 400],
  ])('refuses %s with %i', (url, status) => {
    const route = routeAppRequest(url, APP_ORIGIN);
    expect(route.kind).toBe('refused');
    expect(route.kind === 'refused' && route.status).toBe(status);
  });

  it('refuses a raw null byte or control character before parsing', () => {
    expect(routeAppRequest('aloud://app/index.html\u0000.png', APP_ORIGIN)).toMatchObject({ kind: 'refused', status: 403 });
    expect(routeAppRequest('aloud://app/a\tb', APP_ORIGIN)).toMatchObject({ kind: 'refused' });
  });
});

describe('isInsideFolder', () => {
  const root = path.resolve('/srv/app');
  it.each([
    [path.join(root, 'index.html'), true],
    [path.join(root, 'assets', 'a.js'), true],
    [path.join(root, '..foo'), true],
    [root, false],
    [path.resolve('/srv/app2/index.html'), false],
    [path.resolve('/srv/index.html'), false],
    [path.resolve('/etc/passwd'), false],
  ])('%s → %s', (file, inside) => {
    expect(isInsideFolder(root, file)).toBe(inside);
  });
});

describe('resolveRendererFile / resolveFileInside (real folders, realpath)', () => {
  let work: string;
  let root: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'aloud-protocol-'));
    root = path.join(work, 'renderer');
    await mkdir(path.join(root, 'assets'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<!doctype html>');
    await writeFile(path.join(root, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(path.join(work, 'secret.txt'), 'secret');
    await mkdir(path.join(work, 'renderer-evil'));
    await writeFile(path.join(work, 'renderer-evil', 'x.js'), 'evil');
    await symlink(path.join(work, 'secret.txt'), path.join(root, 'leak.txt'));
    await symlink(work, path.join(root, 'up'));
    await symlink(path.join(root, 'assets', 'app.js'), path.join(root, 'alias.js'));
    await symlink(path.join(work, 'missing'), path.join(root, 'dangling.js'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('serves regular files inside the folder with their real path and size', async () => {
    expect(await resolveRendererFile(root, ['index.html'])).toEqual({ ok: true, file: path.join(root, 'index.html'), size: 15 });
    expect(await resolveRendererFile(root, ['assets', 'app.js'])).toMatchObject({ ok: true, file: path.join(root, 'assets', 'app.js') });
  });

  it('follows a symlink that stays inside', async () => {
    expect(await resolveRendererFile(root, ['alias.js'])).toMatchObject({ ok: true, file: path.join(root, 'assets', 'app.js') });
  });

  it('refuses symlinks that lead out of the folder', async () => {
    expect(await resolveRendererFile(root, ['leak.txt'])).toMatchObject({ ok: false, status: 403 });
    expect(await resolveRendererFile(root, ['up', 'secret.txt'])).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses folders, missing files and dangling links with 404', async () => {
    expect(await resolveRendererFile(root, ['assets'])).toMatchObject({ ok: false, status: 404 });
    expect(await resolveRendererFile(root, ['nope.js'])).toMatchObject({ ok: false, status: 404 });
    expect(await resolveRendererFile(root, ['dangling.js'])).toMatchObject({ ok: false, status: 404 });
  });

  it('refuses paths that leave the folder lexically, including a sibling sharing its prefix', async () => {
    expect(await resolveFileInside(root, '../secret.txt')).toMatchObject({ ok: false, status: 403 });
    expect(await resolveFileInside(root, path.join(work, 'secret.txt'))).toMatchObject({ ok: false, status: 403 });
    expect(await resolveFileInside(root, path.join(work, 'renderer-evil', 'x.js'))).toMatchObject({ ok: false, status: 403 });
    expect(await resolveFileInside(root, '/etc/passwd')).toMatchObject({ ok: false, status: 403 });
    expect(await resolveFileInside(root, '.')).toMatchObject({ ok: false, status: 403 });
  });

  it('a missing folder yields 404, not an exception', async () => {
    expect(await resolveRendererFile(path.join(work, 'not-built'), ['index.html'])).toMatchObject({ ok: false, status: 404 });
  });
});

describe('contentTypeFor', () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['a/b/app.JS', 'text/javascript; charset=utf-8'],
    ['capture-worklet.mjs', 'text/javascript; charset=utf-8'],
    ['style.css', 'text/css; charset=utf-8'],
    ['logo.svg', 'image/svg+xml'],
    ['font.woff2', 'font/woff2'],
    ['take.wav', 'audio/wav'],
    ['model.wasm', 'application/wasm'],
    ['README', 'application/octet-stream'],
    ['x.exe', 'application/octet-stream'],
  ])('%s → %s', (file, type) => {
    expect(contentTypeFor(file)).toBe(type);
  });
});
