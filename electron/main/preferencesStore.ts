import ElectronStore from 'electron-store';
import { PreferencesStore, preferencesStoreOptions, type PreferencesBackend } from '../../core/node/preferences/preferences';

/**
 * The user's preferences in Electron's userData folder (electron-store, the schema core/node declares). A file that
 * cannot be read is left untouched and the app runs on preferences kept in memory, with the problem to show.
 */
export function openAppPreferences(): { preferences: PreferencesStore; problem: string | null } {
  const { projectName: _projectName, configName, ...options } = preferencesStoreOptions;
  try {
    const store = new ElectronStore<Record<string, unknown>>({ ...options, name: configName } as ConstructorParameters<
      typeof ElectronStore<Record<string, unknown>>
    >[0]);
    return { preferences: new PreferencesStore(store), problem: null };
  } catch (e) {
    const memory: Record<string, unknown> = {};
    const backend: PreferencesBackend = { path: '(in memory)', store: memory, set: (values) => void Object.assign(memory, values) };
    return {
      preferences: new PreferencesStore(backend),
      problem: `Your preferences could not be read (${(e as Error).message}); they are kept in memory until you fix or delete the file.`,
    };
  }
}
