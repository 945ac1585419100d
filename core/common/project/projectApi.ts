/**
 * The projects domain of the app API: the open project, its annotators, recent projects, a native dialog, opening,
 * creating, importing items; its handlers are core/node/projects/projectHandlers.ts.
 */
import type { MethodTable } from '../apiSlice/methodSpec';
import type { SaidMessage } from '../refusal/refusalMessage';
import { type ArgCheck, nonEmptyString, nullableString, oneOf } from '../apiSlice/argChecks';
import type { Item } from '../items/item';
import { Refusal } from '../refusal/refusal';
import type { LabelSchema, ThinkAloudConfig } from './projectConfig';

export interface ProjectView {
  name: string;
  /** the project folder (absent in hosts older than the projects panel) */
  dir?: string;
  schema: LabelSchema;
  thinkaloud: ThinkAloudConfig;
  items: Item[];
}

/** An items import: all or nothing; problems name the file, line and field. */
export interface ImportOutcome {
  ok: boolean;
  added: number;
  unchanged: number;
  changed: number;
  removed: number;
  total: number;
  /** `said`: the problem as a catalog message when it has one (the app says it in the person's language) */
  problems: Array<{ file: string; line: number | null; field: string | null; message: string; said?: SaidMessage | null }>;
}

export interface NewProjectSpec {
  /** full path of a new or empty folder */
  dir: string;
  name: string;
  labels: Array<{ name: string; key: string | null }>;
  /** full path of an items file (JSONL, JSON or CSV), imported strictly; null: no items yet */
  items_file: string | null;
}

export interface ProjectChange {
  project: ProjectView;
  /** the items import, when one was asked for */
  items: ImportOutcome | null;
}

/** What a native dialog picks: a project folder to open, a (new or empty) folder to create one in, an items file, a session pack. */
export type PathKind = 'project-folder' | 'new-project-folder' | 'items-file' | 'pack-file';
export const PATH_KINDS: readonly PathKind[] = ['project-folder', 'new-project-folder', 'items-file', 'pack-file'];

export interface ProjectApi {
  project(): Promise<ProjectView>;
  /** annotators with a session in this project (one spelling each) */
  annotators(): Promise<string[]>;
  /** recently opened project folders, newest first */
  recentProjects(): Promise<Array<{ dir: string; name: string | null; problem: string | null }>>;
  /** the desktop app's native dialog (null when cancelled); browser mode has none and says to type the path */
  choosePath(kind: PathKind): Promise<string | null>;
  /** opens another project folder (closing the session); the page then starts again with an annotator */
  openProject(dir: string): Promise<ProjectView>;
  createProject(spec: NewProjectSpec): Promise<ProjectChange>;
  /** imports items into the open project through the strict import (append or replace) */
  importItems(file: string, mode: 'append' | 'replace'): Promise<ProjectChange>;
}

/** the shape only; the project folder's own checks judge the values */
const newProjectSpec: ArgCheck = (value, where) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('bad_request', `${where} must be an object`);
  const spec = value as Record<string, unknown>;
  const known = new Set(['dir', 'name', 'labels', 'items_file']);
  for (const key of Object.keys(spec)) if (!known.has(key)) throw new Refusal('bad_request', `${where}: unknown field "${key}"`);
  nonEmptyString(4096)(spec.dir, `${where}.dir`);
  nonEmptyString(200)(spec.name, `${where}.name`);
  nullableString(spec.items_file ?? null, `${where}.items_file`);
  if (!Array.isArray(spec.labels) || spec.labels.length === 0 || spec.labels.length > 50)
    throw new Refusal('bad_request', `${where}.labels must list 1–50 labels`);
  spec.labels.forEach((label: unknown, i) => {
    if (typeof label !== 'object' || label === null) throw new Refusal('bad_request', `${where}.labels[${i}] must be an object`);
    const l = label as Record<string, unknown>;
    nonEmptyString(100)(l.name, `${where}.labels[${i}].name`);
    if (l.key !== null && (typeof l.key !== 'string' || l.key.length !== 1))
      throw new Refusal('bad_request', `${where}.labels[${i}].key must be one character or null`);
  });
};

export const PROJECT_METHODS = {
  project: { params: [], scope: 'any-page' },
  annotators: { params: [], scope: 'any-page' },
  recentProjects: { params: [], scope: 'any-page' },
  choosePath: { params: [['kind', oneOf(PATH_KINDS)]], scope: 'session-page' },
  openProject: { params: [['dir', nonEmptyString(4096)]], scope: 'session-page' },
  createProject: { params: [['spec', newProjectSpec]], scope: 'session-page' },
  importItems: {
    params: [
      ['file', nonEmptyString(4096)],
      ['mode', oneOf(['append', 'replace'])],
    ],
    scope: 'session-page',
  },
} as const satisfies MethodTable<ProjectApi>;
