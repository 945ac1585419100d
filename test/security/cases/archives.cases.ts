import { readdirSync } from 'node:fs';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { Refusal } from '../../../core/common/contract/refusal';
import { AppService } from '../../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../../core/node/app/httpHost';
import { packSession } from '../../../core/node/packs/sessionPack';
import { PACK_TAR_LIMITS, readTar, TarFormatError, type TarLimits } from '../../../core/node/packs/tarArchive';
import type { OpenProject } from '../../../core/node/project/projectFolder';
import { createApiClient } from '../../../renderer/src/contract/apiClient';
import { httpTransport } from '../../../renderer/src/contract/httpTransport';
import { cli } from '../../helpers/cli';
import { freshProject, recordedProject, rejection } from '../fixtures';
import { hostileGroup, type HostileCase } from '../hostile';
import { paxHeaderDeclaring, paxSizeRecord, plainTar, ustarDeclaring } from '../hostileArchives';

interface Ctx {
  root: string;
  project: OpenProject;
  app: AppService;
  host: HttpHost;
  client: ReturnType<typeof createApiClient>;
  /** a real pack of ana's session, from another copy of the project */
  pack: string;
}

const GiB = 1024 ** 3;
const cases: Array<HostileCase<Ctx>> = [];
const add = (name: string, run: (ctx: Ctx) => Promise<void> | void) => cases.push({ name, run });

async function writePack(ctx: Ctx, name: string, bytes: Buffer): Promise<string> {
  const file = path.join(ctx.root, name);
  await writeFile(file, bytes);
  return file;
}

/** `session unpack` must refuse in one line, exit 2, name the reason, and add no session. */
async function unpackRefused(ctx: Ctx, name: string, bytes: Buffer, reason: RegExp): Promise<void> {
  const file = await writePack(ctx, name, bytes);
  const run = await cli('session', 'unpack', file, '--project', ctx.project.dir);
  expect(run.code, run.err).toBe(2);
  expect(run.err).toMatch(/^aloud session unpack: .*not a readable session pack: .*; nothing was unpacked\n$/);
  expect(run.err).toMatch(reason);
  expect(await readdirNames(path.join(ctx.project.dir, 'sessions'))).toEqual([]);
}

async function readdirNames(dir: string): Promise<string[]> {
  try {
    return readdirSync(dir).filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
}

/** Collect over HTTP must answer with a refusal (400), and the server must answer the next call. */
async function collectRefused(ctx: Ctx, name: string, bytes: Buffer, reason: RegExp): Promise<void> {
  const file = await writePack(ctx, name, bytes);
  const error = await rejection(ctx.client.collectPack(file));
  expect(error).toBeInstanceOf(Refusal);
  expect(error).toMatchObject({ code: 'bad_request' });
  expect(error.message).toMatch(reason);
  expect((await ctx.client.annotators())).toEqual([]);
}

const openDescriptors = (): number => readdirSync('/proc/self/fd').length;

/** readTar over `bytes` with `limits`, to the refusal it throws. */
async function tarRefusal(ctx: Ctx, name: string, bytes: Buffer, limits: TarLimits = PACK_TAR_LIMITS): Promise<Error> {
  const file = await writePack(ctx, name, bytes);
  const handle = await open(file, 'r');
  try {
    return await rejection(readTar(handle, { file: () => ({ piece: () => undefined, end: () => undefined }) }, undefined, limits));
  } finally {
    await handle.close();
  }
}

add('a 2 KB pack whose pax header declares 3 GiB: unpack exits 2 with one line (it aborted the process before)', (ctx) =>
  unpackRefused(ctx, 'pax-3gib.aloudpack', paxHeaderDeclaring(3 * GiB), /a ExtendedHeader record declares 3221225472 bytes \(at most 65536\)/));
add('a pack whose pax size record says 8 GiB: unpack exits 2 with one line (a stack trace before)', (ctx) =>
  unpackRefused(ctx, 'pax-8gib.aloudpack', paxSizeRecord(8 * GiB), /entry "events.jsonl" declares 8589934592 bytes, the whole file holds 3072: it was cut short or its header lies/));
add('a pack whose ustar size field says 8 GiB (base-256): unpack exits 2 with one line', (ctx) =>
  unpackRefused(ctx, 'ustar-8gib.aloudpack', ustarDeclaring(8 * GiB), /declares 8589934592 bytes, the whole file holds 2048/));
add('Collect over HTTP refuses the 3 GiB pax pack with a 400-class refusal, and serve answers the next call', (ctx) =>
  collectRefused(ctx, 'collect-3gib.aloudpack', paxHeaderDeclaring(3 * GiB), /declares 3221225472 bytes/));
add('Collect over HTTP refuses the 8 GiB pack (a 500 before), and serve answers the next call', (ctx) =>
  collectRefused(ctx, 'collect-8gib.aloudpack', paxSizeRecord(8 * GiB), /its header lies/));
add('a truncated pack refused three times by Collect leaves no file descriptor open (counted in /proc/self/fd)', async (ctx) => {
  // cut 100 bytes before the WAV's end (the second entry): its sizes still fit the file, so its target is open
  const whole = await readFile(ctx.pack);
  const wavHeader = whole.indexOf(Buffer.from('audio/demo-01.wav\0'));
  expect(wavHeader % 512).toBe(0);
  const cut = await writePack(ctx, 'cut.aloudpack', whole.subarray(0, wavHeader + 512 + 32_044 - 100));
  await rejection(ctx.app.collectPack(cut));
  const before = openDescriptors();
  for (let i = 0; i < 3; i++) expect((await rejection(ctx.app.collectPack(cut))).message).toMatch(/cut short/);
  expect(openDescriptors()).toBe(before);
  expect(await ctx.app.annotators()).toEqual([]);
});
add('a gzip-compressed pack is refused in one line (a pack is written plain: no ratio to trust)', async (ctx) => {
  expect((await tarRefusal(ctx, 'gz.aloudpack', gzipSync(plainTar([['events.jsonl', Buffer.alloc(1 << 20)]])))).message).toMatch(/it is compressed/);
});
add('more files than the entry limit are refused', async (ctx) => {
  const files: Array<[string, Buffer]> = Array.from({ length: 4 }, (_, i) => [`audio/${i}.wav`, Buffer.from('x')]);
  const error = await tarRefusal(ctx, 'many.tar', plainTar(files), { ...PACK_TAR_LIMITS, entries: 3 });
  expect(error).toBeInstanceOf(TarFormatError);
  expect(error.message).toBe('it holds more than 3 files');
});
add('a file over the per-entry limit is refused before its bytes are read', async (ctx) => {
  const error = await tarRefusal(ctx, 'big.tar', plainTar([['events.jsonl', Buffer.alloc(5000)]]), { ...PACK_TAR_LIMITS, entryBytes: 4096 });
  expect(error.message).toBe('entry "events.jsonl" is 5000 bytes (at most 4096)');
});
add('files over the total limit together are refused', async (ctx) => {
  const error = await tarRefusal(ctx, 'total.tar', plainTar([['a', Buffer.alloc(3000)], ['b', Buffer.alloc(3000)]]), { ...PACK_TAR_LIMITS, totalBytes: 4096 });
  expect(error.message).toBe('its files declare 6000 bytes together, more than 4096');
});
add('a path nested deeper than a pack nests is refused', async (ctx) => {
  expect((await tarRefusal(ctx, 'deep.tar', plainTar([['audio/a/b/c.wav', Buffer.from('x')]]))).message).toBe('entry "audio/a/b/c.wav" is nested deeper than 2 levels');
});

export const archivesGroup = hostileGroup<Ctx>({
  surface: 'files',
  area: 'session packs (archives)',
  async setup() {
    const { project, root } = await freshProject();
    const laptop = await recordedProject();
    const pack = path.join(root, 'ana.aloudpack');
    await packSession({ project: laptop.project, annotator: 'ana', out: pack });
    const rendererDir = path.join(root, 'renderer');
    await mkdir(rendererDir);
    await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Aloud</title>');
    const app = await AppService.open({ projectDir: project.dir, mode: 'browser', openEngine: null });
    const host = await startHttpHost({ app, rendererDir });
    const client = createApiClient(httpTransport(host.origin, { headers: { cookie: `aloud_token_${host.port}=${host.token}` } }));
    return { root, project, app, host, client, pack };
  },
  async teardown(ctx) {
    await ctx.host.close();
    await ctx.app.close();
  },
  cases,
});
