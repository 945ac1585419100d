import type { CoderCodings } from '../../common/coding/codingFold';
import type { ItemSessionState } from '../../common/session/itemState';
import type { SessionNote } from '../../common/session/sessionFold';
import type { SessionKind } from '../../common/session/sessionEvents';
import type { OpenProject } from '../project/projectFolder';

/** One annotator's folded session, read without changing anything on disk. */
export interface AnnotatorStates {
  annotator: string;
  /** an annotator's own session, or a norming room's votes written back (absent: an annotator's) */
  kind?: SessionKind;
  items: ItemSessionState[];
  /** the annotator's notes, oldest first (item_id null: a note on the session) */
  notes?: SessionNote[];
  /** things the export should report but that do not stop it, e.g. a torn last log line left by a crash */
  warnings: string[];
  /** what the annotator coded as a coder (their coding events); absent: sources that hold none */
  codings?: CoderCodings;
}

/** Where exports get per-item session state from: the project's session folders, or states built by a test. */
export interface SessionSource {
  /** the annotators' sessions (their own, and rooms' write-backs): what exports, counts and the Start screen list */
  annotators(project: OpenProject): Promise<string[]>;
  /** sessions of coders who are not annotators (made by `import --codings`): read only for their codings */
  coders?(project: OpenProject): Promise<string[]>;
  load(project: OpenProject, annotator: string): Promise<AnnotatorStates>;
}

/** A SessionSource over fixed states (tests, and callers that already hold the fold's output). */
export function fixedSessionSource(sessions: readonly AnnotatorStates[]): SessionSource {
  return {
    annotators: async () => sessions.map((s) => s.annotator),
    load: async (_project, annotator) => {
      const found = sessions.find((s) => s.annotator === annotator);
      if (!found) throw new Error(`no session for annotator "${annotator}"`);
      return found;
    },
  };
}

/** Every session a source holds: annotators first, then coders who are not annotators (whose codings count too). */
export async function allSessionNames(source: SessionSource, project: OpenProject): Promise<string[]> {
  const annotators = await source.annotators(project);
  const coders = (await source.coders?.(project)) ?? [];
  return [...annotators, ...coders.filter((c) => !annotators.includes(c))];
}
