import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { SessionFold } from '../../common/session/sessionFold';
import { SessionLogError } from '../../common/session/sessionLog';
import { encodedFileName } from '../../common/names/nameRules';
import { checkSessionWav } from '../audio/wavCheck';
import { ProjectError } from '../fs/projectError';
import type { OpenProject } from '../project/projectFolder';
import { streamSessionLog } from './sessionLogStream';
import { decodeFileName } from './sessionPaths';
import { foldOptionsOf } from './sessionStore';
import { parseLockOwner } from '../process/pidFileLock';
import { say } from '../../common/refusal/refusalMessage';

/** One finding of `aloud doctor --project`. */
export interface FolderFinding {
  /** a problem spoils data or hides it; a warning is worth knowing and harmless by itself */
  severity: 'problem' | 'warning';
  kind:
    | 'damaged_log'
    | 'torn_line'
    | 'conflict_copy'
    | 'two_computers'
    | 'open_elsewhere'
    | 'missing_audio'
    | 'audio_differs'
    | 'recording_open'
    | 'unfinished_unpack'
    | 'stray_file';
  /** the annotator's session it is about (null: the project folder) */
  annotator: string | null;
  /** relative to the project folder, "/" separated */
  file: string;
  line: number | null;
  message: string;
}

export interface FolderReport {
  project: string;
  sessions: number;
  findings: FolderFinding[];
}

/** The copy the store keeps of a torn line it cut: events.jsonl.line-N.<time>.torn (not a second log). */
const KEPT_TORN_LINE = /^events\.jsonl\.line-\d+\.\d+\.torn$/;

const relative = (project: OpenProject, file: string): string => path.relative(project.dir, file).split(path.sep).join('/');

/**
 * Checks a project folder that a team shares through a file-sync tool or git, where each annotator writes only their
 * own session log: every log read whole as the store reads it (a damaged line, a torn last line), copies a sync tool
 * made of a log or a session folder it could not merge, a log written from two computers, a session open on another
 * computer, audio the log records but the folder lacks (or holds only in part: still syncing), a recording left open,
 * and an unpack a kill left unfinished. Nothing is changed.
 */
export async function checkSyncedFolder(project: OpenProject): Promise<FolderReport> {
  const findings: FolderFinding[] = [];
  const add = (finding: FolderFinding): void => void findings.push(finding);
  for (const name of await readdir(project.dir).catch(() => [] as string[])) {
    if (name.startsWith('.aloud-unpack-'))
      add({
        severity: 'warning',
        kind: 'unfinished_unpack',
        annotator: null,
        file: name,
        line: null,
        message:
          'an unpack that was stopped left this folder; unpack the same pack again (nothing of it reached the sessions), then delete the folder',
      });
  }
  const root = path.join(project.dir, 'sessions');
  const entries = await readdir(root, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw new ProjectError(say('refusal.session.cannotBeRead', { root, value: e.code ?? e.message }));
  });
  let sessions = 0;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(root, entry.name);
    const annotator = decodeFileName(entry.name);
    // Aloud names a session folder by encoding the annotator's name; a sync tool's copy ("ana (1)", "ana (conflicted copy)") is not such a name
    if (encodedFileName(annotator) !== entry.name) {
      add({
        severity: 'problem',
        kind: 'conflict_copy',
        annotator,
        file: relative(project, dir),
        line: null,
        message: `is not a session folder Aloud made (it would be named ${encodedFileName(annotator)}): a copy a sync tool made of a folder it could not merge? Compare it with the annotator's own folder and keep one (aloud session pack/unpack carries a session without conflicts)`,
      });
    }
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files) {
      if (file !== 'events.jsonl' && file.startsWith('events') && !KEPT_TORN_LINE.test(file)) {
        add({
          severity: 'problem',
          kind: 'conflict_copy',
          annotator,
          file: relative(project, path.join(dir, file)),
          line: null,
          message:
            'a second copy of the session log: two computers wrote this session, and the sync tool kept both; the events in it are not in events.jsonl',
        });
      }
    }
    const log = path.join(dir, 'events.jsonl');
    if (
      !(await stat(log).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      continue;
    sessions++;
    const fold = new SessionFold(project.config, log, foldOptionsOf(project));
    const hosts: string[] = [];
    let streamed;
    try {
      streamed = await streamSessionLog(log, (event) => {
        fold.apply(event);
        if (event.type === 'session_resumed' && !hosts.includes(event.data.host)) hosts.push(event.data.host);
      });
    } catch (e) {
      if (!(e instanceof SessionLogError)) throw e;
      add({
        severity: 'problem',
        kind: 'damaged_log',
        annotator,
        file: relative(project, log),
        line: e.line,
        message: `${e.problem}; the session cannot be opened or exported until this line is mended (a merge of two versions leaves such lines)`,
      });
      continue;
    }
    if (streamed.torn) {
      add({
        severity: 'warning',
        kind: 'torn_line',
        annotator,
        file: relative(project, log),
        line: streamed.torn.line,
        message:
          'the last line is cut short (a crash, or a sync that copied the file while it was written); exports leave it out, and opening the session cuts it and keeps its bytes',
      });
    }
    if (hosts.length > 1) {
      add({
        severity: 'warning',
        kind: 'two_computers',
        annotator,
        file: relative(project, log),
        line: null,
        message: `the session was opened on ${hosts.length} computers (${hosts.join(', ')}); in a synced folder two computers writing one log at once lose events: each annotator should work on one computer`,
      });
    }
    const lock = await readFile(path.join(dir, '.lock'), 'utf8').catch(() => null);
    if (lock !== null) {
      const owner = parseLockOwner(lock);
      add({
        severity: 'warning',
        kind: 'open_elsewhere',
        annotator,
        file: relative(project, path.join(dir, '.lock')),
        line: null,
        message: `the session is open for writing${owner?.host ? ` on ${owner.host} (process ${owner.pid}, since ${owner.started_at})` : ''}; its log may still grow`,
      });
    }
    const state = fold.state();
    if (state.recording) {
      add({
        severity: 'warning',
        kind: 'recording_open',
        annotator,
        file: relative(project, log),
        line: null,
        message: `"${state.recording.item_id}" is being recorded (or was, when a crash stopped it); its audio is incomplete until the session is opened again`,
      });
    }
    for (const item of state.items) {
      if (!item.audio_path) continue;
      const check = await checkSessionWav(project.dir, item.audio_path, { durationMs: item.audio_ms });
      if (check.status === 'missing')
        add({
          severity: 'problem',
          kind: 'missing_audio',
          annotator,
          file: item.audio_path,
          line: null,
          message: `the log records ${item.audio_ms} ms of audio for "${item.item_id}" but the file is not in the folder (not synced yet, or left out: a .gitignore, a sync filter)`,
        });
      else if (check.status === 'disagrees')
        add({
          severity: 'problem',
          kind: 'audio_differs',
          annotator,
          file: item.audio_path,
          line: null,
          message: `${check.problem} (still syncing, or changed)`,
        });
    }
    // a file in the session's audio folder that no event names is no part of the session (a pack or a sync put it there)
    const named = new Set(state.items.flatMap((item) => (item.audio_path ? [item.audio_path] : [])));
    for (const file of await readdir(path.join(dir, 'audio')).catch(() => [] as string[])) {
      const audio = relative(project, path.join(dir, 'audio', file));
      if (file.startsWith('.') || named.has(audio)) continue;
      add({
        severity: 'warning',
        kind: 'stray_file',
        annotator,
        file: audio,
        line: null,
        message:
          'no event of the session names this file: it is not part of the session and no export carries it; move it out of the project',
      });
    }
  }
  return { project: project.config.name, sessions, findings };
}
