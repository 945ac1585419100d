import path from 'node:path';
import type { AloudApi, AloudEvent } from '../../common/contract/aloudApi';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../project/projectFolder';
import { protocolAudioFile } from '../adjudication/protocolAudio';
import { adjudicationHandlers } from '../adjudication/adjudicationHandlers';
import { agreementHandlers } from '../agreement/agreementHandlers';
import { codingHandlers } from '../coding/codingHandlers';
import { deidentifyHandlers } from '../deidentify/deidentifyHandlers';
import { exportHandlers } from '../export/exportHandlers';
import type { FileLookup } from '../fs/resolveInside';
import { modelsHandlers } from '../models/modelsHandlers';
import { packsHandlers } from '../packs/packsHandlers';
import { projectHandlers } from '../projects/projectHandlers';
import { roomsHandlers } from '../rooms/roomsHandlers';
import { sessionHandlers } from '../session/sessionHandlers';
import { settingsHandlers } from '../settings/settingsHandlers';
import { AppContext, type AppServiceOptions } from './appContext';

/** Each domain's handlers (core/node/<domain>/<domain>Handlers.ts, in the manner of Actual's server/<domain>/app.ts). */
export const DOMAIN_HANDLERS = {
  settings: settingsHandlers,
  project: projectHandlers,
  session: sessionHandlers,
  export: exportHandlers,
  agreement: agreementHandlers,
  rooms: roomsHandlers,
  models: modelsHandlers,
  packs: packsHandlers,
  coding: codingHandlers,
  deidentify: deidentifyHandlers,
  adjudication: adjudicationHandlers,
} as const;

/**
 * The app API's handler table: the domains' handlers over the one context they share. TypeScript checks that their
 * union covers AloudApi; test/core/node/app/apiComposition.test.ts that no method is handled twice.
 */
export function apiHandlers(app: AppContext): AloudApi {
  const d = DOMAIN_HANDLERS;
  return {
    ...d.settings(app),
    ...d.project(app),
    ...d.session(app),
    ...d.export(app),
    ...d.agreement(app),
    ...d.rooms(app),
    ...d.models(app),
    ...d.packs(app),
    ...d.coding(app),
    ...d.deidentify(app),
    ...d.adjudication(app),
  };
}

/** What a host has besides the API's methods: the project, the page's events, audio files, closing. */
export interface AppHostSide {
  /** The open project (replaced when the app changes aloud.yaml or opens another project). */
  readonly projectFolder: OpenProject;
  /** Listen to session events; returns the function that stops listening. */
  subscribe(listener: (event: AloudEvent) => void): () => void;
  /** The WAV of an item in the open session (for review playback), or null when it has none. */
  itemAudioFile(itemId: string): string | null;
  /**
   * Annotator n's recording of an item for the lead's side-by-side view (protocolAudioFile), checked inside the project;
   * in the call queue, so a session being written is read between calls. Only with a session open (the adjudicator's).
   */
  protocolAudioFile(itemId: string, protocol: number): Promise<FileLookup>;
  close(): Promise<void>;
}

/**
 * The app API over the core: one project, one annotator session at a time. Electron's IPC handlers and the
 * browser-mode HTTP host both call this object, so the two transports behave the same: its methods are the plain
 * handler table (apiHandlers), whatever a handler refuses leaves the dispatcher as a Refusal.
 */
export type AppService = AloudApi & AppHostSide;

export const AppService = {
  async open(options: AppServiceOptions): Promise<AppService> {
    const project = await loadProjectConfig(options.projectDir);
    const items = await loadProjectItems(project);
    const app = new AppContext(options, project, items);
    await app.remember(project);
    return serviceOver(app);
  },
};

function serviceOver(app: AppContext): AppService {
  let closing: Promise<void> | null = null;
  const hostSide: AppHostSide = {
    get projectFolder() {
      return app.project;
    },
    subscribe: (listener) => app.subscribe(listener),
    itemAudioFile: (itemId) => {
      const audioPath = app.session.open?.itemState(itemId)?.audio_path;
      return audioPath ? path.join(app.project.dir, audioPath) : null;
    },
    protocolAudioFile: (itemId, protocol) => {
      if (!app.session.open) return Promise.resolve({ ok: false, status: 404, reason: 'no session is open' });
      // a session that cannot be read is said without its message, which may spell out a real path
      return app.calls
        .run(() => protocolAudioFile(app.project, itemId, protocol))
        .catch((): FileLookup => ({
          ok: false,
          status: 404,
          reason: 'the sessions could not be read (`aloud adjudicate --project DIR --queue` says why)',
        }));
    },
    close: () => {
      closing ??= app.close();
      return closing;
    },
  };
  return Object.defineProperties(apiHandlers(app), Object.getOwnPropertyDescriptors(hostSide)) as AppService;
}
