import path from 'node:path';
import type { AloudApi, AloudEvent, AloudMethod } from '../../common/contract/aloudApi';
import { ALOUD_METHODS } from '../../common/contract/apiMethods';
import { asRefusal } from '../../common/refusal/refusal';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../project/projectFolder';
import { protocolAudioFile } from '../adjudication/protocolAudio';
import type { FileLookup } from '../fs/resolveInside';
import { AppContext, type AppServiceOptions } from './appContext';
import { adjudicationApi } from './adjudicationApi';
import { codingApi } from './codingApi';
import { deidentifyApi } from './deidentifyApi';
import { exportApi } from './exportApi';
import { modelsApi } from './modelsApi';
import { projectsApi } from './projectsApi';
import { roomsApi } from './roomsApi';
import { sessionApi } from './sessionApi';
import { settingsApi } from './settingsApi';

/** The app API's domains, each a file that registers its handlers (in the manner of Actual's server/<domain>/app.ts). */
const DOMAINS = [sessionApi, exportApi, modelsApi, projectsApi, roomsApi, settingsApi, codingApi, deidentifyApi, adjudicationApi] as const;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every method of the contract has a handler in some domain, with the contract's signature: TypeScript checks it here. */
const coversTheContract: (handlers: UnionToIntersection<ReturnType<(typeof DOMAINS)[number]>>) => AloudApi = (handlers) => handlers;

/** The domains' handlers as one table keyed like API_METHODS; a method two domains register is a mistake found at start. */
function handlersOf(app: AppContext): AloudApi {
  const table: Record<string, unknown> = {};
  for (const domain of DOMAINS) {
    for (const [method, handler] of Object.entries(domain(app))) {
      if (Object.hasOwn(table, method)) throw new Error(`${method}: registered by two domains of the app API`);
      table[method] = handler;
    }
  }
  return coversTheContract(table as never);
}

/** One method per entry of the contract's table (API_METHODS) on the prototype, each routed to its domain's handler. */
abstract class ApiRouter {
  protected abstract route(method: AloudMethod, args: unknown[]): Promise<unknown>;
}
for (const method of ALOUD_METHODS) {
  Object.defineProperty(ApiRouter.prototype, method, {
    value: function (this: ApiRouter, ...args: unknown[]) {
      return this.route(method, args);
    },
    writable: true,
    configurable: true,
  });
}
/** ApiRouter with the contract's methods in its type: what the loop above put on its prototype. */
const RoutedApi = ApiRouter as unknown as abstract new () => ApiRouter & AloudApi;

/**
 * The app API over the core: one project, one annotator session at a time. Electron's IPC handlers and the
 * browser-mode HTTP host both call this object, so the two transports behave the same. It is a router: each method
 * goes to its domain's handler (sessionApi, exportApi, modelsApi, projectsApi, roomsApi, settingsApi), and whatever
 * a handler refuses leaves as a Refusal.
 */
export class AppService extends RoutedApi {
  private readonly handlers: AloudApi;
  private closing: Promise<void> | null = null;

  private constructor(private readonly app: AppContext) {
    super();
    this.handlers = handlersOf(app);
  }

  static async open(options: AppServiceOptions): Promise<AppService> {
    const project = await loadProjectConfig(options.projectDir);
    const items = await loadProjectItems(project);
    const app = new AppContext(options, project, items);
    await app.remember(project);
    return new AppService(app);
  }

  /** The open project (replaced when the app changes aloud.yaml or opens another project). */
  get projectFolder(): OpenProject {
    return this.app.project;
  }

  /** Listen to session events; returns the function that stops listening. */
  subscribe(listener: (event: AloudEvent) => void): () => void {
    return this.app.subscribe(listener);
  }

  /** The WAV of an item in the open session (for review playback), or null when it has none. */
  itemAudioFile(itemId: string): string | null {
    const audioPath = this.app.session.open?.itemState(itemId)?.audio_path;
    return audioPath ? path.join(this.app.project.dir, audioPath) : null;
  }

  /**
   * Annotator n's recording of an item for the lead's side-by-side view (protocolAudioFile), checked inside the project;
   * in the call queue, so a session being written is read between calls. Only with a session open (the adjudicator's).
   */
  protocolAudioFile(itemId: string, protocol: number): Promise<FileLookup> {
    if (!this.app.session.open) return Promise.resolve({ ok: false, status: 404, reason: 'no session is open' });
    // a session that cannot be read is said without its message, which may spell out a real path
    return this.app.calls
      .run(() => protocolAudioFile(this.app.project, itemId, protocol))
      .catch((): FileLookup => ({
        ok: false,
        status: 404,
        reason: 'the sessions could not be read (`aloud adjudicate --project DIR --queue` says why)',
      }));
  }

  close(): Promise<void> {
    this.closing ??= this.app.close();
    return this.closing;
  }

  protected async route(method: AloudMethod, args: unknown[]): Promise<unknown> {
    const handler = this.handlers[method] as (...callArgs: unknown[]) => Promise<unknown>;
    try {
      return await handler(...args);
    } catch (e) {
      throw asRefusal(e);
    }
  }
}
