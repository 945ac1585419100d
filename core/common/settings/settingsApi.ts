/**
 * The settings domain of the app API: what this app is and runs with, and the project's thinkaloud settings; its
 * handlers are core/node/settings/settingsHandlers.ts.
 */
import type { MethodTable } from '../apiSlice/methodSpec';
import type { ArgCheck } from '../apiSlice/argChecks';
import type { ProjectView } from '../project/projectApi';
import { Refusal } from '../refusal/refusal';
import type { SaidMessage } from '../refusal/refusalMessage';

export interface AppInfo {
  app_version: string;
  /** how this renderer is hosted */
  mode: 'electron' | 'browser';
  engine: {
    available: boolean;
    model: { name: string; sha256: string } | null;
    problem: string | null;
    /** the problem as a catalog message when it has one, said in the person's language (problem keeps the English) */
    problem_said: SaidMessage | null;
  };
}

/** The thinkaloud settings the app can change (written to aloud.yaml through its validation). */
export interface ThinkAloudSettings {
  model: string;
  chunk_seconds: number;
  silence_threshold_dbfs: number;
  min_pause_ms: number;
  long_pause_ms: number;
  require_spoken_label: boolean;
}

export interface SettingsChange {
  project: ProjectView;
  /** the values before the change: send them back to undo it */
  previous: ThinkAloudSettings;
}

export interface SettingsApi {
  appInfo(): Promise<AppInfo>;
  /** changes thinkaloud settings in aloud.yaml (validated; nothing written when invalid) */
  updateThinkAloud(patch: Partial<ThinkAloudSettings>): Promise<SettingsChange>;
}

/** the shape only; aloud.yaml's own validation judges the values */
const thinkAloudPatch: ArgCheck = (value, where) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Refusal('bad_request', `${where} must be an object`);
  const types: Record<string, string> = {
    model: 'string',
    chunk_seconds: 'number',
    silence_threshold_dbfs: 'number',
    min_pause_ms: 'number',
    long_pause_ms: 'number',
    require_spoken_label: 'boolean',
  };
  for (const [key, v] of Object.entries(value)) {
    if (!(key in types)) throw new Refusal('bad_request', `${where}: thinkaloud.${key} cannot be changed from the app`);
    if (typeof v !== types[key]) throw new Refusal('bad_request', `${where}: thinkaloud.${key} must be a ${types[key]}`);
  }
};

export const SETTINGS_METHODS = {
  appInfo: { params: [], scope: 'any-page' },
  updateThinkAloud: { params: [['patch', thinkAloudPatch]], scope: 'session-page' },
} as const satisfies MethodTable<SettingsApi>;
