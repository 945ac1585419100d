import { readdirSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { Refusal } from '../../../core/common/refusal/refusal';
import { AppService } from '../../../core/node/app/appService';
import { startHttpHost, type HttpHost } from '../../../core/node/app/httpHost';
import { packSession } from '../../../core/node/packs/sessionPack';
import { PACK_TAR_LIMITS, readTar, TarFormatError, type TarLimits } from '../../../core/node/packs/tarArchive';
import type { OpenProject } from '../../../core/node/project/projectFolder';
import { createApiClient } from '../../../renderer/src/contract/apiClient';
import { httpTransport } from '../../../renderer/src/contract/httpTransport';
import { cli } from '../../helpers/cli';
import { freshProject, recordedProject, rejection, unchanged } from '../fixtures';
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
  expect(await ctx.client.annotators()).toEqual([]);
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
  unpackRefused(
    ctx,
    'pax-3gib.aloudpack',
    paxHeaderDeclaring(3 * GiB),
    /a ExtendedHeader record declares 3221225472 bytes \(at most 65536\)/,
  ),
);
add('a pack whose pax size record says 8 GiB: unpack exits 2 with one line (a stack trace before)', (ctx) =>
  unpackRefused(
    ctx,
    'pax-8gib.aloudpack',
    paxSizeRecord(8 * GiB),
    /entry "events.jsonl" declares 8589934592 bytes, the whole file holds 3072: it was cut short or its header lies/,
  ),
);
add('a pack whose ustar size field says 8 GiB (base-256): unpack exits 2 with one line', (ctx) =>
  unpackRefused(ctx, 'ustar-8gib.aloudpack', ustarDeclaring(8 * GiB), /declares 8589934592 bytes, the whole file holds 2048/),
);
add('Collect over HTTP refuses the 3 GiB pax pack with a 400-class refusal, and serve answers the next call', (ctx) =>
  collectRefused(ctx, 'collect-3gib.aloudpack', paxHeaderDeclaring(3 * GiB), /declares 3221225472 bytes/),
);
add('Collect over HTTP refuses the 8 GiB pack (a 500 before), and serve answers the next call', (ctx) =>
  collectRefused(ctx, 'collect-8gib.aloudpack', paxSizeRecord(8 * GiB), /its header lies/),
);
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
  expect((await tarRefusal(ctx, 'gz.aloudpack', gzipSync(plainTar([['events.jsonl', Buffer.alloc(1 << 20)]])))).message).toMatch(
    /it is compressed/,
  );
});
add('more files than the entry limit are refused', async (ctx) => {
  const files: Array<[string, Buffer]> = Array.from({ length: 4 }, (_, i) => [`audio/${i}.wav`, Buffer.from('x')]);
  const error = await tarRefusal(ctx, 'many.tar', plainTar(files), { ...PACK_TAR_LIMITS, entries: 3 });
  expect(error).toBeInstanceOf(TarFormatError);
  expect(error.message).toBe('it holds more than 3 files');
});
add('a file over the per-entry limit is refused before its bytes are read', async (ctx) => {
  const error = await tarRefusal(ctx, 'big.tar', plainTar([['events.jsonl', Buffer.alloc(5000)]]), {
    ...PACK_TAR_LIMITS,
    entryBytes: 4096,
  });
  expect(error.message).toBe('entry "events.jsonl" is 5000 bytes (at most 4096)');
});
add('files over the total limit together are refused', async (ctx) => {
  const error = await tarRefusal(
    ctx,
    'total.tar',
    plainTar([
      ['a', Buffer.alloc(3000)],
      ['b', Buffer.alloc(3000)],
    ]),
    { ...PACK_TAR_LIMITS, totalBytes: 4096 },
  );
  expect(error.message).toBe('its files declare 6000 bytes together, more than 4096');
});
add('a path nested deeper than a pack nests is refused', async (ctx) => {
  expect((await tarRefusal(ctx, 'deep.tar', plainTar([['audio/a/b/c.wav', Buffer.from('x')]]))).message).toBe(
    'entry "audio/a/b/c.wav" is nested deeper than 2 levels',
  );
});

/** A lead project and a laptop copy where ana recorded demo-01; `edit` may change the laptop's session before it is packed. */
async function packedElsewhere(
  ctx: Ctx,
  name: string,
  edit?: (sessionDir: string) => Promise<void>,
): Promise<{ lead: OpenProject; pack: string; root: string; outside: string }> {
  const { project: lead, root, outside } = await freshProject();
  const laptop = await recordedProject();
  const sessionDir = path.join(laptop.project.dir, 'sessions', 'ana');
  await edit?.(sessionDir);
  const pack = path.join(ctx.root, name);
  await packSession({ project: laptop.project, annotator: 'ana', out: pack });
  return { lead, pack, root, outside };
}

add(
  'unpack refuses to write through a symlinked sessions/<name> folder pointing outside the project (it rewrote the outside log before)',
  async (ctx) => {
    let firstEvents = '';
    const { lead, pack, outside } = await packedElsewhere(ctx, 'linked.aloudpack', async (dir) => {
      firstEvents = (await readFile(path.join(dir, 'events.jsonl'), 'utf8')).split('\n').slice(0, 2).join('\n') + '\n';
    });
    // an older copy of ana's session (its first two events) outside, linked in as her session folder
    const older = path.join(outside, 'ana');
    await mkdir(path.join(older, 'audio'), { recursive: true });
    await writeFile(path.join(older, 'events.jsonl'), firstEvents);
    await mkdir(path.join(lead.dir, 'sessions'), { recursive: true });
    await symlink(older, path.join(lead.dir, 'sessions', 'ana'));
    const run = await cli('session', 'unpack', pack, '--project', lead.dir);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^aloud session unpack: .*: sessions\/ana is a symbolic link; unpacking writes only into the project's own folders .*; nothing was unpacked\n$/,
    );
    await unchanged(path.join(older, 'events.jsonl'), firstEvents);
    expect(readdirSync(path.join(older, 'audio'))).toEqual([]);
  },
);
add('unpack refuses a symlinked sessions folder, and a held session whose audio folder is a link outside', async (ctx) => {
  const { lead, pack, outside } = await packedElsewhere(ctx, 'linked-audio.aloudpack');
  expect((await cli('session', 'unpack', pack, '--project', lead.dir)).code).toBe(0);
  // the second pack extends the held session; its audio folder now points outside
  const audio = path.join(lead.dir, 'sessions', 'ana', 'audio');
  await rename(audio, path.join(outside, 'audio'));
  await symlink(path.join(outside, 'audio'), audio);
  await rm(path.join(outside, 'audio', 'demo-01.wav'));
  const run = await cli('session', 'unpack', pack, '--project', lead.dir);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(/sessions\/ana\/audio is a symbolic link/);
  expect(readdirSync(path.join(outside, 'audio'))).toEqual([]);
  const other = await freshProject();
  await symlink(other.outside, path.join(other.project.dir, 'sessions'));
  const linkedSessions = await cli('session', 'unpack', pack, '--project', other.project.dir);
  expect(linkedSessions.err).toMatch(/: sessions is a symbolic link/);
  expect(readdirSync(other.outside)).toEqual([]);
});
add('unpack refuses a log whose audio path leaves the project (sessions/ana/../../../../etc/passwd), naming the event', async (ctx) => {
  const { lead, pack } = await packedElsewhere(ctx, 'escape.aloudpack', async (dir) => {
    const log = await readFile(path.join(dir, 'events.jsonl'), 'utf8');
    await writeFile(
      path.join(dir, 'events.jsonl'),
      log.replace('"audio_path":"sessions/ana/audio/demo-01.wav"', '"audio_path":"sessions/ana/../../../../etc/passwd"'),
    );
  });
  const run = await cli('session', 'unpack', pack, '--project', lead.dir);
  expect(run.code).toBe(1);
  expect(run.err).toMatch(
    /^aloud session unpack: .*: its log's event 3 \(recording_started\) names the audio "sessions\/ana\/..\/..\/..\/..\/etc\/passwd", which is not a file of the session's audio folder .*; nothing was unpacked\n$/,
  );
  expect(await readdirNames(path.join(lead.dir, 'sessions'))).toEqual([]);
});
add('unpack leaves out a stray file no event names (a text file named .wav) and says so; doctor --project reports one too', async (ctx) => {
  const { lead, pack } = await packedElsewhere(ctx, 'stray.aloudpack', (dir) =>
    writeFile(path.join(dir, 'audio', 'notes.wav'), 'not audio, and no event names me\n'),
  );
  const run = await cli('session', 'unpack', pack, '--project', lead.dir);
  expect(run.code, run.err).toBe(0);
  expect(run.err).toBe('aloud session unpack: left out 1 file of the pack that no event of its log names: audio/notes.wav\n');
  expect(readdirSync(path.join(lead.dir, 'sessions', 'ana', 'audio'))).toEqual(['demo-01.wav']);
  await writeFile(path.join(lead.dir, 'sessions', 'ana', 'audio', 'synced-in.wav'), 'stray');
  const doctor = await cli('doctor', '--project', lead.dir, '--json');
  expect(JSON.parse(doctor.out)).toMatchObject({
    findings: [expect.objectContaining({ severity: 'warning', kind: 'stray_file', file: 'sessions/ana/audio/synced-in.wav' })],
  });
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
