import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACK_MANIFEST, type SessionPackManifest } from '../../../../core/common/packs/sessionPack';
import {
  PackRefusedError,
  packSession,
  PackUnreadableError,
  unpackSession,
  type UnpackStep,
} from '../../../../core/node/packs/sessionPack';
import { readTar, TarWriter } from '../../../../core/node/packs/tarArchive';
import { loadProjectConfig, type OpenProject } from '../../../../core/node/project/projectFolder';
import { sessionPaths } from '../../../../core/node/session/sessionPaths';
import { cli } from '../../../helpers/cli';
import { recordSession, type ScriptedItem } from '../export/recordSession';

let root: string;
let lead: OpenProject;
let n = 0;

/** A laptop: a copy of the lead's project folder (the same aloud.yaml and items), before anyone labelled. */
async function laptop(name: string, edit?: (items: string) => string): Promise<OpenProject> {
  const dir = path.join(root, name);
  await cp(path.join(root, 'pristine'), dir, { recursive: true });
  if (edit) await writeFile(path.join(dir, 'items.jsonl'), edit(await readFile(path.join(dir, 'items.jsonl'), 'utf8')));
  return loadProjectConfig(dir);
}

async function pack(project: OpenProject, annotator: string): Promise<string> {
  const out = path.join(root, `${annotator}-${n++}.aloudpack`);
  await packSession({ project, annotator, out });
  return out;
}

const logOf = (project: OpenProject, annotator: string) => readFile(sessionPaths(project.dir, annotator).events, 'utf8');
const sessionsOf = async (project: OpenProject) => (await readdir(path.join(project.dir, 'sessions')).catch(() => [] as string[])).sort();
const leftovers = async (project: OpenProject) => (await readdir(project.dir)).filter((f) => f.startsWith('.aloud-unpack-'));

async function refused(project: OpenProject, file: string): Promise<string> {
  const error = await unpackSession({ project, file }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PackRefusedError);
  return (error as Error).message;
}

const ANA_FIRST: ScriptedItem[] = [
  { id: 'demo-01', said: [' Hmm, this is kind of polite.', ' I label this polite.'], complete: true },
  { id: 'demo-03', click: 'Impolite' },
];
const ANA_MORE: ScriptedItem[] = [
  { id: 'demo-02', said: [' My answer is impolite.'], complete: true },
  { id: 'demo-04', click: 'Neutral', complete: true },
];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'aloud-packs-'));
  expect((await cli('init', '--project', path.join(root, 'pristine'), '--demo')).code).toBe(0);
  lead = await laptop('lead');
});

describe('session pack and unpack', () => {
  it("adds an annotator's session to the lead's project: the same log, the same audio, a tar any tool lists", async () => {
    const ana = await laptop('ana');
    await recordSession(ana, 'ana', ANA_FIRST);
    const file = await pack(ana, 'ana');
    const listed = spawnSync('tar', ['tf', file], { encoding: 'utf8' });
    expect(listed.stdout.trim().split('\n')).toEqual(['events.jsonl', 'audio/demo-01.wav', 'manifest.json']);
    const result = await unpackSession({ project: lead, file });
    expect(result).toMatchObject({ annotator: 'ana', status: 'added', events_before: 0, appended: result.events_after, audio_files: 1 });
    expect(await logOf(lead, 'ana')).toBe(await logOf(ana, 'ana'));
    const wav = (p: OpenProject) => readFile(path.join(sessionPaths(p.dir, 'ana').audioDir, 'demo-01.wav'));
    expect((await wav(lead)).equals(await wav(ana))).toBe(true);
    expect(await leftovers(lead)).toEqual([]);
  });

  it('appends exactly the events after the shared prefix when a later pack of the same annotator comes', async () => {
    const ana = await loadProjectConfig(path.join(root, 'ana'));
    const before = await logOf(lead, 'ana');
    await recordSession(ana, 'ana', ANA_MORE);
    const file = await pack(ana, 'ana');
    const now = await logOf(ana, 'ana');
    const newLines = now.slice(before.length);
    expect(now.startsWith(before)).toBe(true);
    const result = await unpackSession({ project: lead, file });
    expect(result).toMatchObject({
      status: 'extended',
      events_before: before.split('\n').length - 1,
      appended: newLines.split('\n').length - 1,
      audio_files: 1,
    });
    expect(await logOf(lead, 'ana')).toBe(before + newLines);
    // the same pack again: nothing new
    expect(await unpackSession({ project: lead, file })).toMatchObject({ status: 'unchanged', appended: 0, audio_files: 0 });
  });

  it('refuses a pack of a project whose item text differs, naming the item, and writes nothing', async () => {
    const eve = await laptop('eve', (items) => items.replace("I'm sorry for the confusion earlier.", 'I am NOT sorry.'));
    await recordSession(eve, 'eve', [{ id: 'demo-01', click: 'Polite' }]);
    const sessionsBefore = await sessionsOf(lead);
    expect(await refused(lead, await pack(eve, 'eve'))).toMatch(
      /item "demo-03" \(item 3 of the pack\) has another text in the pack than in this project/,
    );
    expect(await sessionsOf(lead)).toEqual(sessionsBefore);
    expect(await leftovers(lead)).toEqual([]);
  });

  it('refuses a pack whose manifest does not match its files (a wrong hash, a changed byte), naming the file', async () => {
    const ben = await laptop('ben');
    await recordSession(ben, 'ben', [{ id: 'demo-05', said: [' I label this rude.'], complete: true }]);
    const good = await pack(ben, 'ben');
    const entries = await tarEntries(good);
    const manifest = JSON.parse(entries.get(PACK_MANIFEST)!.toString('utf8')) as SessionPackManifest;
    const wrongHash = path.join(root, 'wrong-hash.aloudpack');
    manifest.files[1]!.sha256 = '0'.repeat(64);
    await writeTar(wrongHash, new Map([...entries, [PACK_MANIFEST, Buffer.from(JSON.stringify(manifest))]]));
    expect(await refused(lead, wrongHash)).toMatch(
      /audio\/demo-05\.wav is not what the manifest says \(sha256 [0-9a-f]{64}, \d+ bytes; the manifest says 0{64}/,
    );
    const changedByte = path.join(root, 'changed-byte.aloudpack');
    const log = Buffer.from(entries.get('events.jsonl')!);
    log[log.indexOf('rude')] = 'R'.charCodeAt(0);
    await writeTar(changedByte, new Map([...entries, ['events.jsonl', log]]));
    expect(await refused(lead, changedByte)).toMatch(/events\.jsonl is not what the manifest says/);
    const cut = path.join(root, 'cut.aloudpack');
    await writeFile(cut, (await readFile(good)).subarray(0, 2000));
    const cutShort = await unpackSession({ project: lead, file: cut }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(cutShort).toBeInstanceOf(PackUnreadableError);
    expect(cutShort!.message).toMatch(/not a readable session pack: .*cut short.*; nothing was unpacked$/);
    expect(await sessionsOf(lead)).not.toContain('ben');
    expect(await leftovers(lead)).toEqual([]);
  });

  it('refuses a pack whose log does not extend the held one (another history, an older pack), naming the first differing event', async () => {
    // cleo's laptop is copied after her first pack; the copy then goes on differently from the original
    const cleo = await laptop('cleo');
    await recordSession(cleo, 'cleo', [{ id: 'demo-01', click: 'Polite' }]);
    const first = await pack(cleo, 'cleo');
    expect((await unpackSession({ project: lead, file: first })).status).toBe('added');
    await cp(cleo.dir, path.join(root, 'cleo-other'), { recursive: true });
    const other = await loadProjectConfig(path.join(root, 'cleo-other'));
    await recordSession(cleo, 'cleo', [{ id: 'demo-02', click: 'Neutral' }]);
    await recordSession(other, 'cleo', [{ id: 'demo-06', click: 'Impolite' }]);
    const heldBefore = await logOf(lead, 'cleo');
    expect((await unpackSession({ project: lead, file: await pack(cleo, 'cleo') })).status).toBe('extended');
    const held = await logOf(lead, 'cleo');
    const firstNew = heldBefore.split('\n').length;
    const message = await refused(lead, await pack(other, 'cleo'));
    expect(message).toContain(`its log does not extend the session of "cleo" this project holds: event ${firstNew} (`);
    expect(message).toMatch(/\(session_resumed at .*\) in the pack is event \d+ \(session_resumed at .*\) here/);
    expect(await refused(lead, first)).toMatch(
      new RegExp(`it ends at event ${firstNew - 1}, this project holds ${held.split('\n').length - 1} .*an older pack`),
    );
    expect(await logOf(lead, 'cleo')).toBe(held);
  });

  it('a kill between the audio and the log leaves the held log whole; unpacking again finishes', async () => {
    const dan = await laptop('dan');
    await recordSession(dan, 'dan', [{ id: 'demo-01', click: 'Polite' }]);
    await unpackSession({ project: lead, file: await pack(dan, 'dan') });
    const held = await logOf(lead, 'dan');
    await recordSession(dan, 'dan', [{ id: 'demo-07', said: [' I label this polite.'], complete: true }]);
    const later = await pack(dan, 'dan');
    let reached!: () => void;
    const killed = new Promise<void>((resolve) => (reached = resolve));
    const stopAt = (at: UnpackStep) => (step: UnpackStep) =>
      step === at ? (reached(), new Promise<void>(() => undefined)) : Promise.resolve();
    void unpackSession({ project: lead, file: later, crashPoint: stopAt('audio-placed') });
    await killed;
    expect(await logOf(lead, 'dan')).toBe(held);
    // the "killed" process's lock, as a dead process leaves it
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    await writeFile(
      sessionPaths(lead.dir, 'dan').lock,
      `${JSON.stringify({ pid: Number(dead), host: hostname(), started_at: new Date().toISOString() })}\n`,
    );
    expect(await unpackSession({ project: lead, file: later })).toMatchObject({ status: 'extended', audio_files: 0 });
    expect(await logOf(lead, 'dan')).toBe(await logOf(dan, 'dan'));
  });

  it("the merged project's export is the union of the annotators' own exports", async () => {
    const merged = await laptop('merged');
    const own: string[] = [];
    for (const annotator of ['ana', 'ben']) {
      const laptopProject = await loadProjectConfig(path.join(root, annotator));
      const out = path.join(root, `${annotator}-own.jsonl`);
      expect((await cli('export', '--project', laptopProject.dir, '--format', 'jsonl', '--out', out, '--force')).code).toBe(0);
      own.push(...(await readFile(out, 'utf8')).trim().split('\n'));
      const packed = path.join(root, `${annotator}-merge.aloudpack`);
      expect((await cli('session', 'pack', '--project', laptopProject.dir, '--annotator', annotator, '--out', packed)).code).toBe(0);
      const unpacked = await cli('session', 'unpack', packed, '--project', merged.dir, '--json');
      expect(unpacked.code, unpacked.err).toBe(0);
      // --json: the status and counts, stray files as their count (and the first 20)
      expect(JSON.parse(unpacked.out)).toMatchObject({ annotator, status: 'added', stray_files: [], stray_files_count: 0 });
    }
    const out = path.join(root, 'merged.jsonl');
    expect((await cli('export', '--project', merged.dir, '--format', 'jsonl', '--out', out)).code).toBe(0);
    const withoutTime = (line: string) => JSON.stringify({ ...JSON.parse(line), exported_at: null });
    expect((await readFile(out, 'utf8')).trim().split('\n').map(withoutTime).sort()).toEqual(own.map(withoutTime).sort());
    expect((await cli('validate', out, '--project', merged.dir)).code).toBe(0);
  });

  it('the CLI refuses in one line, exit 1, and says so in --json', async () => {
    const other = path.join(root, 'other');
    expect((await cli('init', '--project', other)).code).toBe(0);
    const run = await cli('session', 'unpack', path.join(root, 'ana-0.aloudpack'), '--project', other);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^aloud session unpack: .*: it is a pack of project "politeness-demo", this project is ".*"; nothing was unpacked\n$/,
    );
    const missing = await cli(
      'session',
      'pack',
      '--project',
      path.join(root, 'lead'),
      '--annotator',
      'nobody',
      '--out',
      path.join(root, 'x.aloudpack'),
    );
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.err).toMatch(/no session of "nobody" to pack/);
  });
});

/** The entries of a pack, by name. */
async function tarEntries(file: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const handle = await open(file, 'r');
  try {
    await readTar(handle, {
      file: (name) => {
        const pieces: Buffer[] = [];
        return { piece: (b) => void pieces.push(Buffer.from(b)), end: () => void entries.set(name, Buffer.concat(pieces)) };
      },
    });
  } finally {
    await handle.close();
  }
  return entries;
}

async function writeTar(file: string, entries: Map<string, Buffer>): Promise<void> {
  const handle = await open(file, 'w');
  const tar = new TarWriter(handle);
  for (const [name, bytes] of entries) await tar.add(name, bytes.length, [bytes]);
  await tar.end();
  await handle.close();
}
