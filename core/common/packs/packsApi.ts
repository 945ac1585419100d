/** The session packs domain of the app API (Project → Collect…); its handler is core/node/packs/packsHandlers.ts. */
import type { MethodTable } from '../apiSlice/methodSpec';
import { nonEmptyString } from '../apiSlice/argChecks';

/** Project → Collect…: what collecting an annotator's session pack did (aloud session unpack). */
export interface CollectSummary {
  annotator: string;
  /** added: a new session; extended: events appended to the held one; unchanged: nothing new */
  status: 'added' | 'extended' | 'unchanged';
  /** events appended by this pack, and the session's events now */
  appended: number;
  events: number;
  audio_files: number;
}

/** a session pack being collected: bytes read of all (checked before anything is written) */
export type PacksEvent = { type: 'collect_progress'; done: number; total: number };

export interface PacksApi {
  /** Project → Collect…: an annotator's session pack (full path) into the open project, checked first; progress as collect_progress events */
  collectPack(file: string): Promise<CollectSummary>;
}

export const PACKS_METHODS = {
  collectPack: { params: [['file', nonEmptyString(4096)]], scope: 'session-page' },
} as const satisfies MethodTable<PacksApi>;
