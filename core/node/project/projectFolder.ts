import { cp, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError, formatInputProblem } from '../../common/io/inputProblem';
import { decodeInputBytes } from '../../common/io/inputText';
import { fileURLToPath } from 'node:url';
import { ConfigError, parseProjectConfig, type ProjectConfig } from '../../common/project/projectConfig';
import type { Item } from '../../common/items/item';
import type { LabelSchemaContext } from '../../common/reasoning/modelLabel';
import { readItemsFile } from './itemsFile';
import { ProjectError } from '../fs/projectError';
import { say } from '../../common/refusal/refusalMessage';

export const CONFIG_FILE = 'aloud.yaml';

/** The demo project shipped in the repo; used when no project is given. */
export const DEMO_PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../demo-project');

export interface OpenProject {
  dir: string;
  configPath: string;
  config: ProjectConfig;
  /** the exact bytes of aloud.yaml, for config_sha256 in exports */
  configText: string;
}

const MAX_CONFIG_BYTES = 1024 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** aloud.yaml's text: strict UTF-8 (a wrong encoding would silently change label names), at most 1 MiB. */
function configTextOf(bytes: Uint8Array, configPath: string): string {
  try {
    return decodeInputBytes(bytes, configPath, {
      limits: { maxFileBytes: MAX_CONFIG_BYTES, maxLineBytes: MAX_CONFIG_BYTES },
      lineBased: false,
      decode: (b) => strictUtf8.decode(b),
    });
  } catch (e) {
    // i18n-ignore: aloud.yaml's size and UTF-8 checks (the input stage's words) stay English
    if (e instanceof InputError) throw new ProjectError(e.problems.map(formatInputProblem).join('; '));
    throw e;
  }
}

export async function loadProjectConfig(dir: string): Promise<OpenProject> {
  return loadProjectConfigFile(path.join(dir, CONFIG_FILE));
}

/** Loads a config file by path (e.g. `analyze --config`); the project folder is the file's folder. */
export async function loadProjectConfigFile(configPath: string): Promise<OpenProject> {
  const dir = path.dirname(configPath);
  let configText: string;
  try {
    configText = configTextOf(await readFile(configPath), configPath);
  } catch (e) {
    if (e instanceof ProjectError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ProjectError(say('refusal.project.configNotFound', { configPath, dir }));
    if (code === 'EISDIR') throw new ProjectError(say('refusal.project.configIsFolder', { configPath }));
    throw new ProjectError(say('refusal.project.configCannotRead', { configPath, detail: code ?? (e as Error).message }));
  }
  try {
    return { dir, configPath, config: parseProjectConfig(configText, configPath), configText };
  } catch (e) {
    if (e instanceof ConfigError) throw new ProjectError(e.say ?? e.message);
    throw e;
  }
}

export function itemsPath(project: OpenProject): string {
  return path.resolve(project.dir, project.config.items);
}

export async function loadProjectItems(project: OpenProject): Promise<Item[]> {
  // the project's own items keep a model answer that a later schema change left without a label (import rejects one)
  return readItemsFile(itemsPath(project), undefined, projectLabelSchema(project, 'keep'));
}

/** The labels and languages a model's answer (`model_label`) in the project's items is resolved against. */
export function projectLabelSchema(project: OpenProject, unresolved: 'reject' | 'keep' = 'reject'): LabelSchemaContext {
  return { labels: project.config.schema.labels, languages: project.config.thinkaloud.languages, unresolved };
}

/** Create a project folder: an empty one with a starter aloud.yaml, or a copy of the demo. */
export async function initProject(dir: string, options: { demo: boolean }): Promise<OpenProject> {
  const existing = await stat(dir).catch(() => null);
  if (existing && !existing.isDirectory()) throw new ProjectError(say('refusal.project.notAFolder', { dir }));
  if (existing && (await readdir(dir)).length > 0) {
    throw new ProjectError(say('refusal.project.folderNotEmpty', { dir }));
  }
  await mkdir(dir, { recursive: true });
  if (options.demo) {
    await cp(DEMO_PROJECT_DIR, dir, { recursive: true, errorOnExist: true, force: false });
  } else {
    const demoConfig = await readFile(path.join(DEMO_PROJECT_DIR, CONFIG_FILE), 'utf8');
    const name = path.basename(path.resolve(dir));
    const starter = demoConfig.replace(/^# .*\n/, '').replace(/^name: .*$/m, `name: ${JSON.stringify(name)}`);
    await writeFile(path.join(dir, CONFIG_FILE), starter, { flag: 'wx' });
    await writeFile(path.join(dir, 'items.jsonl'), '', { flag: 'wx' });
  }
  return loadProjectConfig(dir);
}
