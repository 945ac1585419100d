import { existsSync } from 'node:fs';
import path from 'node:path';
import { defaultModelsDir } from '../models/modelsDir';
import { CONFIG_FILE, initProject } from './projectFolder';

export const DATA_DIR_ENV = 'ALOUD_DATA_DIR';

/** The per-user data folder (beside the models folder), or ALOUD_DATA_DIR. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[DATA_DIR_ENV];
  if (fromEnv) return path.resolve(fromEnv);
  return path.dirname(defaultModelsDir(process.platform, env));
}

/**
 * The annotator's own copy of the demo project, made on first use: sessions are written into a project
 * folder, and the shipped demo (in the repo or the app bundle) must stay untouched.
 */
export async function ensureUserDemoProject(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = path.join(userDataDir(env), 'projects', 'demo');
  if (!existsSync(path.join(dir, CONFIG_FILE))) await initProject(dir, { demo: true });
  return dir;
}
