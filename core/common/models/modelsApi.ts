/** The models domain of the app API: what is known and installed, downloads, import, remove; handlers in core/node/models/modelsHandlers.ts. */
import type { MethodTable } from '../apiSlice/methodSpec';
import { boolean, nonEmptyString } from '../apiSlice/argChecks';
import type { SaidMessage } from '../refusal/refusalMessage';

/** The app's view of the whisper (and VAD) models: the manifest's, and any imported file. */
export interface ModelsView {
  /** the models folder */
  dir: string;
  /** the open project's thinkaloud.model */
  project_model: string;
  manifest_default: string;
  models: Array<{
    name: string;
    file: string;
    approx_mib: number;
    bytes: number | null;
    english_only: boolean;
    kind: 'whisper' | 'vad';
    installed: boolean;
    /** the file matches the manifest's checksum; null when not installed */
    verified: boolean | null;
    problem: string | null;
    /** the problem as a catalog message, said in the person's language (problem keeps the English) */
    problem_said: SaidMessage | null;
    downloading: boolean;
    in_manifest: boolean;
  }>;
}

/** a model download's progress and outcome */
export interface ModelsEvent {
  type: 'model_download';
  name: string;
  state: 'running' | 'done' | 'cancelled' | 'failed';
  received_bytes: number;
  total_bytes: number | null;
  percent: number | null;
  message: string | null;
  /** the message as a catalog message, said in the person's language */
  message_said?: SaidMessage | null;
}

export interface ModelsApi {
  /** rehash: check every file's checksum again (verify) */
  models(rehash: boolean): Promise<ModelsView>;
  /** starts a download; progress and the outcome arrive as model_download events */
  downloadModel(name: string): Promise<ModelsView>;
  cancelModelDownload(name: string): Promise<ModelsView>;
  /** copies a local model file (full path) into the models folder, checked */
  importModel(file: string): Promise<ModelsView>;
  removeModel(name: string): Promise<ModelsView>;
}

export const MODELS_METHODS = {
  models: { params: [['rehash', boolean]], scope: 'any-page' },
  downloadModel: { params: [['name', nonEmptyString(200)]], scope: 'session-page' },
  cancelModelDownload: { params: [['name', nonEmptyString(200)]], scope: 'session-page' },
  importModel: { params: [['file', nonEmptyString(4096)]], scope: 'session-page' },
  removeModel: { params: [['name', nonEmptyString(200)]], scope: 'session-page' },
} as const satisfies MethodTable<ModelsApi>;
