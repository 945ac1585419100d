import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { SessionFold } from '../../common/session/sessionFold';
import { CodingFold } from '../../common/coding/codingFold';
import type { SessionKind } from '../../common/session/sessionEvents';
import { EVENT_UPCASTERS } from '../../common/session/sessionLog';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { streamSessionLog } from './sessionLogStream';
import { resolveInside } from '../fs/resolveInside';
import { decodeFileName, normalizeAnnotatorName, sessionPaths } from './sessionPaths';
import { foldOptionsOf } from './sessionStore';
import type { AnnotatorStates, SessionSource } from './sessionSource';
import { say } from '../../common/refusal/refusalMessage';

/**
 * The annotators' own sessions, the names "Continue as" offers: a norming room's write-back (session_started says
 * kind "room"; before kinds were recorded, a "<name> (room CODE)" session of a room the project has) is left out.
 */
export async function annotatorSessions(project: OpenProject): Promise<string[]> {
  const names = await projectSessionSource.annotators(project);
  const own: string[] = [];
  for (const name of names) if ((await sessionKindOf(project, name)) === 'annotator') own.push(name);
  return own;
}

/** A session's kind from its first line only (cheap: no fold). */
async function sessionKindOf(project: OpenProject, name: string): Promise<SessionKind> {
  // a log that links out of the project is not read here either: loading it refuses it with the reason
  const real = await resolveInside(project.dir, sessionPaths(project.dir, name).events, 'read').catch(() => null);
  const file = real === null ? null : await open(real, 'r').catch(() => null);
  if (!file) return 'annotator';
  try {
    const { bytesRead, buffer } = await file.read(Buffer.alloc(4096), 0, 4096, 0);
    const first = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0]!;
    const kind = (JSON.parse(first) as { data?: { kind?: unknown } }).data?.kind;
    if (kind === 'room' || kind === 'annotator' || kind === 'coder') return kind;
  } catch {
    // a first line that does not read: the export and the session say what is wrong with it; here it is an annotator's
  } finally {
    await file.close();
  }
  const code = /\(room ([A-Z0-9]+)\)$/.exec(name)?.[1];
  return code &&
    (await stat(path.join(project.dir, 'rooms', code)).then(
      () => true,
      () => false,
    ))
    ? 'room'
    : 'annotator';
}

/**
 * Sessions as the session store keeps them: sessions/<annotator>/events.jsonl, read a chunk at a time without a lock
 * and without repairing anything (an export never writes into sessions), folded by the store's pure fold. A torn last line
 * (a crash mid-write) is left out, as the store does, and reported as a warning; other corruption throws.
 */
export const projectSessionSource: SessionSource & { coders(project: OpenProject): Promise<string[]> } = {
  /** every session but a coder's own (a coder who is not an annotator has no protocol, so no record) */
  async annotators(project: OpenProject): Promise<string[]> {
    const names: string[] = [];
    for (const name of await sessionFolders(project)) if ((await sessionKindOf(project, name)) !== 'coder') names.push(name);
    return names;
  },
  async coders(project: OpenProject): Promise<string[]> {
    const names: string[] = [];
    for (const name of await sessionFolders(project)) if ((await sessionKindOf(project, name)) === 'coder') names.push(name);
    return names;
  },
  async load(project: OpenProject, name: string): Promise<AnnotatorStates> {
    return loadSession(project, name);
  },
};

/** The session folders with a log, by annotator name, sorted. */
async function sessionFolders(project: OpenProject): Promise<string[]> {
  const root = path.join(path.resolve(project.dir), 'sessions');
  const entries = await readdir(root, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw e;
  });
  const names: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const log = path.join(root, entry.name, 'events.jsonl');
    const info = await stat(log).catch(() => null);
    if (info && !info.isFile()) throw new ProjectError(say('refusal.session.isNotAFileSo', { log }));
    if (info) names.push(decodeFileName(entry.name));
  }
  return names.sort();
}

async function loadSession(project: OpenProject, name: string): Promise<AnnotatorStates> {
  const annotator = normalizeAnnotatorName(name);
  const { events: file } = sessionPaths(project.dir, annotator);
  // folded as it is read: the log is never held whole
  // a log that is a link leading out of the project is refused before a byte of it is read (or quoted in an error)
  const real = await resolveInside(project.dir, file, 'read');
  const fold = new SessionFold(project.config, file, foldOptionsOf(project));
  // the coder's codings: a fold of their own over the same events, beside the session fold
  const coding = new CodingFold();
  const { events, torn } = await streamSessionLog(
    real,
    (event) => {
      fold.apply(event);
      coding.apply(event);
    },
    { upcasters: EVENT_UPCASTERS },
  );
  const state = fold.state();
  const warnings = torn ? [`${file}:${torn.line}: torn last line (a crash while writing) left out of the export`] : [];
  if (events === 0) throw new ProjectError(say('refusal.session.theSessionLogIsEmpty', { file }));
  if (state.recording) {
    warnings.push(
      `${annotator} is recording "${state.recording.item_id}" (or was, when a crash stopped it; opening the session recovers it): that item's audio in this export is incomplete`,
    );
  }
  if (state.config_changed) {
    warnings.push(
      `${annotator}: some spoken labels were derived under other label phrases than aloud.yaml has now (labels, synonyms, languages or stems); they are exported as recorded (config_changed: true); \`aloud session reparse\` re-derives them`,
    );
  }
  return { annotator, kind: state.kind, items: state.items, notes: state.notes, warnings, codings: coding.codings() };
}
