/**
 * The one app API, composed of the domains' slices: each domain declares its methods and their argument checks beside
 * its code (core/common/<domain>/<domain>Api.ts) and its handlers in core/node/<domain>/. The renderer calls it through
 * a client; Electron (IPC) and browser mode (HTTP on 127.0.0.1) are two transports of the same contract.
 */
import type { AdjudicationApi } from '../adjudication/adjudicationApi';
import type { AgreementApi } from '../agreement/agreementApi';
import type { CodingApi } from '../coding/codingApi';
import type { DeidentifyApi } from '../deidentify/deidentifyApi';
import type { ExportApi } from '../export/exportApi';
import type { GoldApi } from '../labelModels/goldApi';
import type { ModelsApi } from '../models/modelsApi';
import type { PacksApi } from '../packs/packsApi';
import type { ProjectApi } from '../project/projectApi';
import type { RoomsApi } from '../rooms/roomsApi';
import type { ItemSessionState } from '../session/itemState';
import type { SessionApi, SessionView } from '../session/sessionApi';
import type { SettingsApi } from '../settings/settingsApi';

/** Every method of the app API: the intersection of the domains' slices (apiMethods.ts composes their tables alike). */
export type AloudApi = SettingsApi &
  ProjectApi &
  SessionApi &
  ExportApi &
  AgreementApi &
  GoldApi &
  RoomsApi &
  ModelsApi &
  PacksApi &
  CodingApi &
  DeidentifyApi &
  AdjudicationApi;

export type AloudMethod = keyof AloudApi;

/** Events pushed to the renderer (IPC messages in Electron, server-sent events in browser mode). */
export type AloudEvent =
  /** an item changed outside any act (a transcription landing or failing); stamped like patches */
  | { type: 'item'; item: ItemSessionState; stamp: number }
  /** the open session was opened again (new settings, items or a model): its whole view replaces the page's */
  | { type: 'session_reopened'; view: SessionView }
  | { type: 'recording'; item_id: string | null; stamp: number }
  /** transcriptions queued or running, in all and per item */
  | { type: 'transcription'; pending: number; items: Record<string, number>; stamp: number }
  /** completing this item waits for its transcriptions (null: stopped waiting) */
  | { type: 'finishing'; item_id: string | null; stamp: number }
  /**
   * text of an utterance still being spoken: show it greyed, replace it with the final; never a transcript.
   * speculative: the speech ended and this is the final text unless speech resumes (shown in the final style, marked
   * "still listening"; the transcript and any label come only from the final at the cut)
   */
  | { type: 'partial'; item_id: string; utterance: number; text: string; speculative: boolean }
  | { type: 'error'; message: string }
  /** the transcription engine's process died ('crashed'), came back with its model ('restarted') or gave up ('stopped') */
  | { type: 'engine'; state: 'crashed' | 'restarted' | 'stopped'; message: string }
  /** an export running: records built of all (the file and receipt are written when done = total) */
  | { type: 'export_progress'; done: number; total: number }
  /** a session pack being collected: bytes read of all (checked before anything is written) */
  | { type: 'collect_progress'; done: number; total: number }
  | {
      type: 'model_download';
      name: string;
      state: 'running' | 'done' | 'cancelled' | 'failed';
      received_bytes: number;
      total_bytes: number | null;
      percent: number | null;
      message: string | null;
    };
