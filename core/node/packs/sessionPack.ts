import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import {
  describeEventLine,
  firstItemDifference,
  manifestProblems,
  PACK_LOG,
  PACK_MANIFEST,
  PACK_VERSION,
  packPathProblem,
  type PackFile,
  type SessionPackManifest,
} from '../../common/packs/sessionPack';
import { JsonSyntaxError, parseStrictJson } from '../../common/io/strictJson';
import { SessionLogError } from '../../common/session/sessionLog';
import { annotatorNameProblem, clashingName } from '../../common/names/personNames';
import { appVersion } from '../exportFiles/appVersion';
import { projectFacts } from '../export/exportSessions';
import { moveAllIntoPlace, moveFolderIntoPlace, moveIntoPlace, writeFileAtomicStreamed } from '../fs/atomicFile';
import { sha256Hex } from '../fs/sha256';
import { Refusal } from '../../common/refusal/refusal';
import { say } from '../../common/refusal/refusalMessage';
import { ProjectError } from '../fs/projectError';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { acquireSessionLock } from '../session/sessionLock';
import { processIsAlive } from '../process/processAlive';
import { streamSessionLog } from '../session/sessionLogStream';
import { decodeFileName, normalizeAnnotatorName, sessionPaths } from '../session/sessionPaths';
import { readTar, TarFormatError, TarWriter } from './tarArchive';

/** A file that is not a readable pack (a damaged or hostile archive, over a limit): nothing of it was written. */
export class PackUnreadableError extends Refusal {
  override name = 'PackUnreadableError';
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** A pack that is refused: nothing of it was written into the project. The message names what differs. */
export class PackRefusedError extends Refusal {
  override name = 'PackRefusedError';
  constructor(message: string) {
    super('conflict', message);
  }
}

export interface PackResult {
  file: string;
  annotator: string;
  events: number;
  audio_files: number;
  bytes: number;
}

export interface UnpackResult {
  file: string;
  annotator: string;
  /** added: a session the project did not hold; extended: events appended to the held one; unchanged: nothing new */
  status: 'added' | 'extended' | 'unchanged';
  events_before: number;
  events_after: number;
  /** events appended after the prefix both logs share */
  appended: number;
  /** WAV files written (new, or changed since the last pack) */
  audio_files: number;
  /** files of the pack no event of its log names: left out of the project */
  stray_files: string[];
}

/** The pack path ("audio/<item>.wav") of a WAV the log names, or null when the path is not a file of the session's audio folder. */
function packAudioOf(paths: { projectDir: string; audioDir: string }, audioPath: string): string | null {
  const parts = audioPath.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) return null;
  const absolute = path.resolve(paths.projectDir, ...parts);
  if (path.dirname(absolute) !== paths.audioDir) return null;
  const name = `audio/${path.basename(absolute)}`;
  return packPathProblem(name) === null ? name : null;
}

/** The first symbolic link among the folders and files from the project folder down to each of `files`, or null. */
async function firstLinkOnPaths(projectDir: string, files: readonly string[]): Promise<string | null> {
  const root = path.resolve(projectDir);
  const checked = new Set<string>();
  for (const file of files) {
    const parts = path.relative(root, file).split(path.sep);
    for (let i = 1; i <= parts.length; i++) {
      const step = path.join(root, ...parts.slice(0, i));
      if (checked.has(step)) continue;
      checked.add(step);
      if ((await lstat(step).catch(() => null))?.isSymbolicLink()) return path.relative(root, step).split(path.sep).join('/');
    }
  }
  return null;
}

/** How far packing or unpacking is, in bytes. */
export type PackProgress = (done: number, total: number) => void;

async function* fileBytes(file: string, end?: number): AsyncGenerator<Buffer> {
  if (end === 0) return;
  for await (const piece of createReadStream(file, end === undefined ? {} : { end: end - 1 })) yield piece as Buffer;
}

/**
 * `aloud session pack`: one annotator's session as one file (a tar), for the lead to collect: the log (its complete
 * lines, checked as the session store reads them), every WAV of the session, and last the manifest (the project's
 * name, the sha256 of every item's id, text and context, and of every file). The session is locked while it is read,
 * so no window writes into it meanwhile; the pack is written under a hidden name and renamed when complete.
 */
export async function packSession(options: {
  project: OpenProject;
  annotator: string;
  out: string;
  force?: boolean;
  onProgress?: PackProgress;
  now?: () => Date;
}): Promise<PackResult> {
  const { project } = options;
  const annotator = normalizeAnnotatorName(options.annotator);
  const paths = sessionPaths(project.dir, annotator);
  if (
    !(await stat(paths.events).then(
      (s) => s.isFile(),
      () => false,
    ))
  )
    throw new ProjectError(`${project.dir}: no session of "${annotator}" to pack (${paths.events} not found)`);
  const out = path.resolve(options.out);
  if (
    !(await stat(path.dirname(out)).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    throw new ProjectError(`--out ${options.out}: the folder ${path.dirname(out)} does not exist`);
  if (
    !options.force &&
    (await lstat(out).then(
      () => true,
      () => false,
    ))
  )
    throw new ProjectError(`--out ${options.out}: file exists; choose another name or pass --force to replace it`);
  const items = await loadProjectItems(project);
  const lock = await acquireSessionLock(paths.lock, {
    sessionLabel: say('refusal.session.lock.sessionOf', { annotator, dir: project.dir }),
  });
  try {
    // the log's complete lines, read as the store reads them (a torn last line is not an event and stays behind)
    const logHash = createHash('sha256');
    let logBytes = 0;
    let lastLine: Buffer | null = null;
    const streamed = await streamSessionLog(paths.events, () => undefined, {
      onLine: ({ bytes }) => {
        logHash.update(bytes).update('\n');
        logBytes += bytes.length + 1;
        lastLine = bytes;
      },
    });
    const audio = await sessionAudio(paths.audioDir);
    const total = logBytes + audio.reduce((n, a) => n + a.bytes, 0);
    let done = 0;
    const counted = async function* (pieces: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const piece of pieces) {
        done += piece.length;
        options.onProgress?.(done, total);
        yield piece;
      }
    };
    const bytes = await writeFileAtomicStreamed(out, async (handle) => {
      const files: PackFile[] = [];
      const tar = new TarWriter(handle);
      const missingNewline = streamed.missingFinalNewline && lastLine !== null ? [lastLine as Buffer, Buffer.from('\n')] : [];
      files.push({
        path: PACK_LOG,
        sha256: await tar.add(PACK_LOG, logBytes, counted(concat(fileBytes(paths.events, streamed.completeBytes), missingNewline))),
        bytes: logBytes,
      });
      if (files[0]!.sha256 !== logHash.digest('hex')) throw new ProjectError(`${paths.events}: changed while it was packed; pack again`);
      for (const wav of audio)
        files.push({
          path: `audio/${wav.name}`,
          sha256: await tar.add(`audio/${wav.name}`, wav.bytes, counted(fileBytes(wav.file))),
          bytes: wav.bytes,
        });
      const facts = projectFacts(project, items);
      const manifest: SessionPackManifest = {
        pack_version: PACK_VERSION,
        kind: 'aloud-session-pack',
        project: project.config.name,
        annotator,
        events: streamed.events,
        items: items.map((item) => ({
          id: item.id,
          id_sha256: sha256Hex(item.id),
          text_sha256: facts.items.get(item.id)!.textSha256,
          context_sha256: facts.items.get(item.id)!.contextSha256,
        })),
        files,
        app_version: await appVersion(),
        created_at: (options.now ?? (() => new Date()))().toISOString(),
      };
      const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
      await tar.add(PACK_MANIFEST, manifestBytes.length, [manifestBytes]);
      await tar.end();
      return tar.bytes;
    });
    return { file: out, annotator, events: streamed.events, audio_files: audio.length, bytes };
  } finally {
    await lock.release();
  }
}

async function* concat(first: AsyncIterable<Buffer>, rest: readonly Buffer[]): AsyncGenerator<Buffer> {
  yield* first;
  yield* rest;
}

/** The session's WAV files (regular files named <item>.wav in audio/), in name order. */
async function sessionAudio(audioDir: string): Promise<Array<{ name: string; file: string; bytes: number }>> {
  const entries = await readdir(audioDir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const found: Array<{ name: string; file: string; bytes: number }> = [];
  for (const entry of entries) {
    if (!entry.isFile() || packPathProblem(`audio/${entry.name}`) !== null) continue;
    const file = path.join(audioDir, entry.name);
    found.push({ name: entry.name, file, bytes: (await stat(file)).size });
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Where unpacking works before anything reaches the sessions: a hidden folder of the project, named by host and process. */
const UNPACK_PREFIX = '.aloud-unpack-';

/** Removes unpack folders this host's dead processes left (a killed unpack); another host's are left to it. */
async function clearStaleUnpacks(projectDir: string): Promise<void> {
  const host = hostname().replace(/[^A-Za-z0-9-]/g, '_');
  for (const name of await readdir(projectDir).catch(() => [] as string[])) {
    const match = new RegExp(`^${UNPACK_PREFIX}(.+)-(\\d+)-[0-9a-f]{8}$`).exec(name);
    if (!match || match[1] !== host) continue;
    if (!processIsAlive(Number(match[2]))) await rm(path.join(projectDir, name), { recursive: true, force: true });
  }
}

/** Per-line sha256 of a log's complete lines (to compare two logs line by line without holding either). */
async function lineDigests(file: string): Promise<{ digests: Buffer[]; events: number }> {
  const digests: Buffer[] = [];
  const { events } = await streamSessionLog(file, () => undefined, {
    onLine: ({ bytes }) => void digests.push(createHash('sha256').update(bytes).digest()),
  });
  return { digests, events };
}

/** The text of line `n` (1-based) of a log, for a refusal that names it. */
async function lineOf(file: string, n: number): Promise<string | null> {
  let found: string | null = null;
  await streamSessionLog(file, () => undefined, {
    onLine: ({ line, bytes }) => void (line === n ? (found = bytes.toString('utf8')) : undefined),
  }).catch(() => undefined);
  return found;
}

/**
 * `aloud session unpack`: adds the annotator's session of a pack to the lead's project, or extends the one it holds.
 * Everything is checked before anything reaches the project's sessions: the pack is read into a hidden folder of the
 * project, every file against the manifest's sha256, the manifest's project name and every item (id, text, context)
 * against this project, the log as the session store reads it; the first difference refuses the whole pack, in
 * words. A session the project does not hold yet is moved in as a folder. A held one must be a prefix of the pack's
 * log (logs are append-only; a pack that does not extend it is refused, naming the first event that differs): new
 * and changed WAVs are moved in first, then the log is replaced by the pack's (the held events plus the new ones) in
 * one rename, under the session's lock; a kill leaves the old log whole, and unpacking again finishes the work.
 */
/** The steps of unpacking into a held session, for crash-point tests: each is durable when reported. */
export type UnpackStep = 'checked' | 'audio-placed' | 'log-replaced';

export async function unpackSession(options: {
  project: OpenProject;
  file: string;
  onProgress?: PackProgress;
  crashPoint?: (step: UnpackStep) => Promise<void>;
}): Promise<UnpackResult> {
  const step = options.crashPoint ?? (() => Promise.resolve());
  const { project } = options;
  const file = path.resolve(options.file);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new ProjectError(`${options.file}: pack not found`);
  await clearStaleUnpacks(project.dir);
  const work = path.join(
    project.dir,
    `${UNPACK_PREFIX}${hostname().replace(/[^A-Za-z0-9-]/g, '_')}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  const session = path.join(work, 'session');
  await mkdir(path.join(session, 'audio'), { recursive: true });
  const refuse = (message: string): never => {
    throw new PackRefusedError(`${options.file}: ${message}; nothing was unpacked`);
  };
  try {
    // 1. every entry into the hidden folder, hashed as it is written
    const extracted = new Map<string, { sha256: string; bytes: number }>();
    let manifestText: string | null = null;
    const handle = await open(file, 'r');
    try {
      await readTar(
        handle,
        {
          file: async (name, size) => {
            const problem = packPathProblem(name);
            if (problem) refuse(problem);
            if (extracted.has(name) || (name === PACK_MANIFEST && manifestText !== null)) refuse(`"${name}" is in the pack twice`);
            if (name === PACK_MANIFEST) {
              if (size > 256 * 1024 * 1024) refuse('its manifest is over 256 MiB');
              const pieces: Buffer[] = [];
              return { piece: (b) => void pieces.push(b), end: () => void (manifestText = Buffer.concat(pieces).toString('utf8')) };
            }
            const target = await open(path.join(session, ...name.split('/')), 'wx');
            const hash = createHash('sha256');
            let bytes = 0;
            return {
              piece: async (b) => {
                hash.update(b);
                bytes += b.length;
                for (let done = 0; done < b.length;) done += (await target.write(b, done)).bytesWritten;
              },
              end: async () => {
                await target.sync();
                await target.close();
                extracted.set(name, { sha256: hash.digest('hex'), bytes });
              },
              discard: () => target.close(),
            };
          },
        },
        (read) => options.onProgress?.(read, info.size),
      );
    } catch (e) {
      if (e instanceof TarFormatError)
        throw new PackUnreadableError(`${options.file}: not a readable session pack: ${e.message}; nothing was unpacked`);
      throw e;
    } finally {
      await handle.close();
    }
    // 2. the manifest, and every file against it
    if (manifestText === null) return refuse('it has no manifest.json (cut short, or not an Aloud session pack)');
    let value: unknown;
    try {
      value = parseStrictJson(manifestText).value;
    } catch (e) {
      if (e instanceof JsonSyntaxError) refuse(`its manifest is not valid JSON (${e.message})`);
      throw e;
    }
    const problems = manifestProblems(value, PACK_MANIFEST, sha256Hex);
    if (problems.length > 0) refuse(`its manifest is not valid: ${problems[0]!.field ?? ''} ${problems[0]!.message}`.replace('  ', ' '));
    const manifest = value as SessionPackManifest;
    for (const listed of manifest.files) {
      const got = extracted.get(listed.path);
      if (!got) refuse(`${listed.path} is listed in the manifest but not in the pack`);
      if (got!.sha256 !== listed.sha256 || got!.bytes !== listed.bytes) {
        refuse(
          `${listed.path} is not what the manifest says (sha256 ${got!.sha256}, ${got!.bytes} bytes; the manifest says ${listed.sha256}, ${listed.bytes} bytes): the pack was changed or damaged`,
        );
      }
    }
    for (const name of extracted.keys())
      if (!manifest.files.some((f) => f.path === name)) refuse(`${name} is in the pack but not in its manifest`);
    // 3. the same project and the same items
    if (manifest.project !== project.config.name)
      refuse(`it is a pack of project "${manifest.project}", this project is "${project.config.name}"`);
    const difference = firstItemDifference(manifest.items, projectFacts(project, await loadProjectItems(project)).items);
    if (difference) refuse(difference);
    const annotator = normalizeAnnotatorName(manifest.annotator);
    const nameProblem = annotatorNameProblem(annotator);
    if (nameProblem) refuse(nameProblem);
    const heldFolders = await readdir(path.join(project.dir, 'sessions'), { withFileTypes: true }).catch(() => []);
    const like = clashingName(
      annotator,
      heldFolders.filter((f) => f.isDirectory()).map((f) => decodeFileName(f.name)),
    );
    if (like !== null)
      refuse(`it is the session of "${annotator}", which looks like the existing annotator "${like}"; rename one of them first`);
    // 4. the log, as the session store reads it: whole, every event checked, the annotator's own
    const packLog = path.join(session, PACK_LOG);
    const paths = sessionPaths(project.dir, annotator);
    let started: { annotator?: unknown } | null = null;
    let packed;
    // every WAV the log names must be a file of the session's own audio folder (a path leaving it would poison every export)
    const namedAudio = new Set<string>();
    try {
      packed = await streamSessionLog(packLog, (event) => {
        if (event.seq === 1) started = event.data as { annotator?: unknown };
        if (event.type !== 'recording_started') return;
        const named = packAudioOf(paths, event.data.audio_path);
        if (named === null)
          refuse(
            `its log's event ${event.seq} (recording_started) names the audio ${JSON.stringify(event.data.audio_path)}, which is not a file of the session's audio folder (sessions/${path.basename(paths.dir)}/audio/)`,
          );
        namedAudio.add(named!);
      });
    } catch (e) {
      if (e instanceof SessionLogError) refuse(`its log is damaged: ${e.problem} (line ${e.line})`);
      throw e;
    }
    if (packed.torn || packed.missingFinalNewline) refuse('its log ends in an incomplete line');
    if (packed.events !== manifest.events) refuse(`its log holds ${packed.events} events, the manifest says ${manifest.events}`);
    if ((started as { annotator?: unknown } | null)?.annotator !== annotator)
      refuse(
        `its log is the session of "${String((started as { annotator?: unknown } | null)?.annotator)}", not of "${annotator}" as the manifest says`,
      );

    // files no event names are left out of the project and reported
    const strayFiles = manifest.files.map((f) => f.path).filter((name) => name !== PACK_LOG && !namedAudio.has(name));
    for (const name of strayFiles) await rm(path.join(session, ...name.split('/')), { force: true });
    const placed = manifest.files.filter((f) => f.path !== PACK_LOG && namedAudio.has(f.path));

    // 5. into the project, through no symbolic link: every folder and file unpacking writes must be the project's own
    const linked = await firstLinkOnPaths(project.dir, [paths.events, ...placed.map((f) => path.join(paths.dir, ...f.path.split('/')))]);
    if (linked)
      refuse(
        `${linked} is a symbolic link; unpacking writes only into the project's own folders (replace the link by a folder, or move it out)`,
      );
    const held = await stat(paths.events).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!held) {
      if (
        await lstat(paths.dir).then(
          () => true,
          () => false,
        )
      )
        refuse(`${paths.dir} exists but holds no session log; move it out of the project first`);
      await mkdir(path.dirname(paths.dir), { recursive: true });
      await moveFolderIntoPlace(session, paths.dir);
      return {
        file,
        annotator,
        status: 'added',
        events_before: 0,
        events_after: packed.events,
        appended: packed.events,
        audio_files: placed.length,
        stray_files: strayFiles,
      };
    }
    const lock = await acquireSessionLock(paths.lock, {
      sessionLabel: say('refusal.session.lock.sessionOf', { annotator, dir: project.dir }),
    });
    try {
      let heldLines;
      try {
        heldLines = await lineDigests(paths.events);
      } catch (e) {
        if (e instanceof SessionLogError)
          refuse(`the session of "${annotator}" this project holds is damaged (${e.message}); check it with aloud doctor --project`);
        throw e;
      }
      const packLines = await lineDigests(packLog);
      const shared = Math.min(heldLines.events, packLines.events);
      for (let i = 0; i < shared; i++) {
        if (!heldLines.digests[i]!.equals(packLines.digests[i]!)) {
          refuse(
            `its log does not extend the session of "${annotator}" this project holds: ${describeEventLine(i + 1, await lineOf(packLog, i + 1))} in the pack is ${describeEventLine(i + 1, await lineOf(paths.events, i + 1))} here`,
          );
        }
      }
      if (heldLines.events > packLines.events) {
        refuse(
          `its log does not extend the session of "${annotator}" this project holds: it ends at event ${packLines.events}, this project holds ${heldLines.events} (from ${describeEventLine(packLines.events + 1, await lineOf(paths.events, packLines.events + 1))}); an older pack`,
        );
      }
      await step('checked');
      // WAV first, then the log saying so: new and changed audio in place before the events that name it
      const audioMoves: Array<{ from: string; to: string }> = [];
      await mkdir(paths.audioDir, { recursive: true });
      for (const listed of placed) {
        const target = path.join(paths.dir, ...listed.path.split('/'));
        const existing = await readFile(target).catch(() => null);
        if (existing && sha256Hex(existing) === listed.sha256) continue;
        audioMoves.push({ from: path.join(session, ...listed.path.split('/')), to: target });
      }
      await moveAllIntoPlace(audioMoves);
      const audioFiles = audioMoves.length;
      await step('audio-placed');
      const appended = packLines.events - heldLines.events;
      if (appended > 0) await moveIntoPlace(packLog, paths.events);
      await step('log-replaced');
      return {
        file,
        annotator,
        status: appended > 0 ? 'extended' : 'unchanged',
        events_before: heldLines.events,
        events_after: packLines.events,
        appended,
        audio_files: audioFiles,
        stray_files: strayFiles,
      };
    } finally {
      await lock.release();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
