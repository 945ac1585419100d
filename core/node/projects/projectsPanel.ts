import { mkdir, readFile, stat } from 'node:fs/promises';
import { Refusal } from '../../common/refusal/refusal';
import { homedir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { ImportOutcome, NewProjectSpec } from '../../common/project/projectApi';
import { InputError, inputProblemSaid } from '../../common/io/inputProblem';
import { parseProjectConfig } from '../../common/project/projectConfig';
import { importIntoProject } from '../importing/itemsImport';
import { writeFileAtomic } from '../fs/atomicFile';
import { CONFIG_FILE, initProject, loadProjectConfig, type OpenProject } from '../project/projectFolder';
import { say } from '../../common/refusal/refusalMessage';

const MAX_RECENT = 10;

/** Where the host keeps the recent projects list (per user, never inside a project). */
export function defaultRecentFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'aloud', 'recent-projects.json');
}

export async function readRecent(file: string): Promise<string[]> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return Array.isArray(value) ? value.filter((d): d is string => typeof d === 'string' && path.isAbsolute(d)).slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

export async function rememberRecent(file: string, dir: string): Promise<void> {
  const list = [dir, ...(await readRecent(file)).filter((d) => d !== dir)].slice(0, MAX_RECENT);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(list, null, 2)}\n`);
}

/** A folder typed by a person: absolute, and an Aloud project (its aloud.yaml loads). */
export async function openProjectFolder(dir: string): Promise<OpenProject> {
  if (!path.isAbsolute(dir)) throw new Refusal('bad_request', say('refusal.projects.projectFolderGiveTheFull', { dir }));
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) throw new Refusal('not_found', say('refusal.projects.noSuchFolder', { dir }));
  return loadProjectConfig(dir);
}

/** Problems of an import, by file, line and field, or the counts of a finished one: the import is all or nothing. */
export async function importItemsInto(project: OpenProject, file: string, mode: 'append' | 'replace'): Promise<ImportOutcome> {
  if (!path.isAbsolute(file)) throw new Refusal('bad_request', say('refusal.projects.itemsFileGiveTheFull', { file }));
  try {
    const s = await importIntoProject({ project, source: file, kind: 'items', mode, force: false, dryRun: false });
    return {
      ok: true,
      added: s.items_added,
      unchanged: s.items_unchanged,
      changed: s.items_changed.length,
      removed: s.items_removed.length,
      total: s.items_total,
      problems: [],
    };
  } catch (e) {
    if (e instanceof InputError)
      return {
        ok: false,
        added: 0,
        unchanged: 0,
        changed: 0,
        removed: 0,
        total: 0,
        problems: e.problems.map((p) => {
          const said = inputProblemSaid(p);
          return { file: p.file, line: p.line, field: p.field, message: p.message, said: typeof said === 'object' ? said : null };
        }),
      };
    throw e;
  }
}

/**
 * Creates a project: an empty (or new) folder, aloud.yaml with the name and labels (checked by the same validation as
 * loading), and items through the strict import when a file is given. A refused items file leaves the project without items.
 */
export async function createProjectFolder(spec: NewProjectSpec): Promise<{ project: OpenProject; items: ImportOutcome | null }> {
  if (!path.isAbsolute(spec.dir)) throw new Refusal('bad_request', say('refusal.projects.projectFolderGiveTheFull', { dir: spec.dir }));
  const labels = spec.labels.map((l) => ({ name: l.name.trim(), ...(l.key ? { key: l.key } : {}) }));
  const config = {
    name: spec.name.trim(),
    schema: { name: 'labels', ordered: false, labels },
    items: 'items.jsonl',
    thinkaloud: { model: 'tiny.en', languages: ['en'] },
  };
  const text = `# Aloud project, created in the app\n${stringify(config)}`;
  // both refuse with what is wrong (a ConfigError, a ProjectError) before anything is written
  parseProjectConfig(text, path.join(spec.dir, CONFIG_FILE));
  await initProject(spec.dir, { demo: false });
  await writeFileAtomic(path.join(spec.dir, CONFIG_FILE), text);
  const project = await loadProjectConfig(spec.dir);
  const items = spec.items_file ? await importItemsInto(project, spec.items_file, 'replace') : null;
  return { project, items };
}
