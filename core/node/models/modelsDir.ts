import os from 'node:os';
import path from 'node:path';

export const MODELS_DIR_ENV = 'ALOUD_MODELS_DIR';

/** The per-user models folder for a platform, before any override. */
export function defaultModelsDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'win32') {
    return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'Aloud', 'models');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Aloud', 'models');
  const dataHome = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  return path.join(dataHome, 'aloud', 'models');
}

/** An explicit folder wins, then ALOUD_MODELS_DIR, then the per-user default. */
export function resolveModelsDir(dir?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (dir !== undefined && dir !== '') return path.resolve(dir);
  const fromEnv = env[MODELS_DIR_ENV];
  if (fromEnv) return path.resolve(fromEnv);
  return defaultModelsDir(process.platform, env);
}
