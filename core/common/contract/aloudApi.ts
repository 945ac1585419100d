/**
 * The one app API. The renderer calls it through a client; Electron (IPC) and browser mode (HTTP on
 * 127.0.0.1) are two transports of the same contract, and the same handlers serve both.
 */
import type { AlphaResult } from '../agreement/krippendorff';
import type { Item } from '../items/item';
import type { LabelSchema, ThinkAloudConfig } from '../project/projectConfig';
import type { ItemSessionState } from '../session/itemState';

export interface AppInfo {
  app_version: string;
  /** how this renderer is hosted */
  mode: 'electron' | 'browser';
  engine: { available: boolean; model: { name: string; sha256: string } | null; problem: string | null };
}

export interface ProjectView {
  name: string;
  schema: LabelSchema;
  thinkaloud: ThinkAloudConfig;
  items: Item[];
}

/** Where the annotator is and what each item holds so far. */
export interface SessionView {
  annotator: string;
  current_item: string | null;
  recording_item: string | null;
  /** items the annotator has touched, folded from the event log */
  items: ItemSessionState[];
  /** transcriptions queued or running */
  pending_transcriptions: number;
  /** a torn last log line found (and set aside) when the session was opened */
  recovered: string | null;
  /** the annotator's notes, oldest first */
  notes: Array<{ item_id: string | null; text: string; ts: string }>;
}

export type ExportFormat = 'jsonl' | 'json' | 'csv';

export interface ExportSummary {
  /** where the host wrote the file (the renderer never chooses a path) */
  file: string;
  receipt: string;
  records: number;
  gaps: number;
  sha256: string;
}

export interface AgreementReport {
  annotators: string[];
  items: number;
  blind: AlphaResult;
  final: AlphaResult;
  /** per item: each annotator's blind and final label */
  table: Array<{ item_id: string; labels: Record<string, { blind: string | null; final: string | null }> }>;
}

/** Events pushed to the renderer (IPC messages in Electron, server-sent events in browser mode). */
export type AloudEvent =
  | { type: 'item'; item: ItemSessionState }
  | { type: 'recording'; item_id: string | null }
  | { type: 'transcription'; pending: number }
  /** text of an utterance still being spoken: show it greyed, replace it with the final; never a transcript */
  | { type: 'partial'; item_id: string; utterance: number; text: string }
  | { type: 'error'; message: string };

/** Every method of the app API; arguments and results are plain JSON, except audio which is binary. */
export interface AloudApi {
  appInfo(): Promise<AppInfo>;
  project(): Promise<ProjectView>;
  /** opens (or resumes) this annotator's session; recovers after a crash */
  openSession(annotator: string): Promise<SessionView>;
  session(): Promise<SessionView>;
  openItem(itemId: string): Promise<SessionView>;
  startRecording(device: string | null): Promise<SessionView>;
  /** one binary chunk frame (core/common/audio/chunkFrame) of the current recording */
  appendAudio(frame: Uint8Array): Promise<void>;
  stopRecording(): Promise<SessionView>;
  commitLabel(label: string, source: 'click' | 'key'): Promise<SessionView>;
  completeItem(): Promise<SessionView>;
  addNote(text: string): Promise<SessionView>;
  exportSession(format: ExportFormat): Promise<ExportSummary>;
  agreement(): Promise<AgreementReport>;
}

export type AloudMethod = keyof AloudApi;

/** The method names, for transports that must check what they are asked to call. */
export const ALOUD_METHODS: readonly AloudMethod[] = [
  'appInfo',
  'project',
  'openSession',
  'session',
  'openItem',
  'startRecording',
  'appendAudio',
  'stopRecording',
  'commitLabel',
  'completeItem',
  'addNote',
  'exportSession',
  'agreement',
];

export function isAloudMethod(name: unknown): name is AloudMethod {
  return typeof name === 'string' && (ALOUD_METHODS as readonly string[]).includes(name);
}

/** An error crossing the contract: a code the UI can act on and a message a person can read. */
export interface ApiErrorBody {
  code: 'bad_request' | 'not_found' | 'conflict' | 'spoken_label_required' | 'engine' | 'storage' | 'internal';
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorBody['code'],
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
