import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultModelsDir, resolveModelsDir } from '../../../../core/node/models/modelsDir';

describe('models folder', () => {
  it('uses the per-user data folder of each platform', () => {
    expect(defaultModelsDir('linux', {}, '/home/ann')).toBe('/home/ann/.local/share/aloud/models');
    expect(defaultModelsDir('linux', { XDG_DATA_HOME: '/data/ann' }, '/home/ann')).toBe('/data/ann/aloud/models');
    expect(defaultModelsDir('linux', { XDG_DATA_HOME: 'relative' }, '/home/ann')).toBe('/home/ann/.local/share/aloud/models');
    expect(defaultModelsDir('darwin', {}, '/Users/ann')).toBe('/Users/ann/Library/Application Support/Aloud/models');
    expect(defaultModelsDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toBe('C:\\Users\\ann\\AppData\\Roaming\\Aloud\\models');
    expect(defaultModelsDir('win32', {}, 'C:\\Users\\ann')).toBe('C:\\Users\\ann\\AppData\\Roaming\\Aloud\\models');
  });

  it('an explicit folder wins over ALOUD_MODELS_DIR, which wins over the default', () => {
    expect(resolveModelsDir('/explicit', { ALOUD_MODELS_DIR: '/from-env' })).toBe('/explicit');
    expect(resolveModelsDir(undefined, { ALOUD_MODELS_DIR: '/from-env' })).toBe('/from-env');
    expect(resolveModelsDir('rel', {})).toBe(path.resolve('rel'));
    expect(resolveModelsDir(undefined, { HOME: '/home/x' })).toBe(defaultModelsDir(process.platform, { HOME: '/home/x' }));
  });
});
