import Conf from 'conf';

/** The user's own settings: who annotates, where, with which microphone and model. Never project data. */
export interface Preferences {
  annotator_name: string | null;
  /** absolute path of the last project folder opened */
  last_project: string | null;
  /** capture device id as the renderer reports it */
  microphone: string | null;
  /** model name (as in the models manifest) or a path to a model file */
  model: string | null;
}

export const PREFERENCE_KEYS: ReadonlyArray<keyof Preferences> = ['annotator_name', 'last_project', 'microphone', 'model'];

const nullableText = (maxLength: number) => ({ type: ['string', 'null'], minLength: 1, maxLength, default: null }) as const;

/** JSON Schema of each key (electron-store's and conf's `schema` option: the `properties` of the root object). */
export const preferencesSchema = {
  annotator_name: nullableText(200),
  last_project: nullableText(4096),
  microphone: nullableText(1024),
  model: nullableText(4096),
} as const;

/**
 * Options for conf in Node and for electron-store in the Electron shell (`new ElectronStore(preferencesStoreOptions)`):
 * one schema, unknown keys refused, so project data cannot land in preferences.
 */
export const preferencesStoreOptions = {
  projectName: 'aloud',
  configName: 'preferences',
  schema: preferencesSchema,
  rootSchema: { additionalProperties: false },
  clearInvalidConfig: false,
  accessPropertiesByDotNotation: false,
  watch: false,
} as const;

/** What Preferences needs of a store; both conf's Conf and electron-store's ElectronStore provide it. */
export interface PreferencesBackend {
  readonly path: string;
  readonly store: Record<string, unknown>;
  set(values: Record<string, unknown>): void;
}

/** A preferences file that cannot be read or a value the schema refuses; names the file and the key. */
export class PreferencesError extends Error {
  override name = 'PreferencesError';
}

function violation(e: unknown, file: string): PreferencesError {
  const message = (e as Error).message.replace(/^Config schema violation: /, '');
  return new PreferencesError(`${file}: ${message}`);
}

export class PreferencesStore {
  constructor(private readonly backend: PreferencesBackend) {}

  get path(): string {
    return this.backend.path;
  }

  get(): Preferences {
    const store = this.backend.store;
    const value = (key: keyof Preferences): string | null => (typeof store[key] === 'string' ? (store[key] as string) : null);
    return {
      annotator_name: value('annotator_name'),
      last_project: value('last_project'),
      microphone: value('microphone'),
      model: value('model'),
    };
  }

  /** Sets some keys (null clears one); refuses unknown keys and values the schema does not allow, saving nothing. */
  update(patch: Partial<Preferences>): Preferences {
    for (const key of Object.keys(patch)) {
      if (!PREFERENCE_KEYS.includes(key as keyof Preferences)) {
        throw new PreferencesError(
          `${this.path}: unknown preference "${key}" (known: ${PREFERENCE_KEYS.join(', ')}); project data belongs in the project folder`,
        );
      }
    }
    try {
      this.backend.set(patch);
    } catch (e) {
      throw violation(e, this.path);
    }
    return this.get();
  }
}

/** Preferences in plain Node (CLI, tests): conf with the same schema electron-store uses in the app. */
export function openNodePreferences(options: { cwd: string }): PreferencesStore {
  const file = `${options.cwd}/${preferencesStoreOptions.configName}.json`;
  let backend: Conf<Record<string, unknown>>;
  try {
    backend = new Conf<Record<string, unknown>>({ ...preferencesStoreOptions, cwd: options.cwd } as ConstructorParameters<
      typeof Conf<Record<string, unknown>>
    >[0]);
  } catch (e) {
    if (e instanceof SyntaxError) throw new PreferencesError(`${file}: not valid JSON (${e.message}); fix or delete the file`);
    throw violation(e, file);
  }
  return new PreferencesStore(backend);
}
