import { EventEmitter } from 'node:events';
import path from 'node:path';
import { SerialQueue } from '../../common/concurrency/serialQueue';
import type { AloudEvent } from '../../common/contract/aloudApi';
import type { AppInfo } from '../../common/settings/settingsApi';
import type { PathKind, ProjectView } from '../../common/project/projectApi';
import { Refusal } from '../../common/refusal/refusal';
import type { Item } from '../../common/items/item';
import type { ModelManifest } from '../../common/models/modelManifest';
import { annotatorSessions, projectSessionSource } from '../session/projectSessions';
import { loadProjectItems, type OpenProject } from '../project/projectFolder';
import { RoomController } from '../rooms/roomController';
import { ShadowController } from '../rooms/shadowController';
import type { SessionService } from '../session/sessionService';
import { ModelsPanel } from '../models/modelsPanel';
import { rememberRecent } from '../projects/projectsPanel';
import { SessionSlot, type SessionSlotOptions } from '../session/sessionSlot';

export interface AppServiceOptions extends SessionSlotOptions {
  projectDir: string;
  mode: AppInfo['mode'];
  /** where exports go; default <project>/exports */
  exportsDir?: string;
  /** the known models (default models/manifest.json); tests serve their own */
  modelManifest?: ModelManifest;
  /** tests only: model downloads may use plain http to 127.0.0.1 */
  allowLoopbackModelDownloads?: boolean;
  /** the recent projects list (hosts pass defaultRecentFile()); absent: no list is kept (tests) */
  recentFile?: string;
  /** the desktop shell's native dialog; browser mode has none (the page takes a typed path) */
  choosePath?: (kind: PathKind) => Promise<string | null>;
}

/**
 * What every domain of the app API shares: one project and its items, one annotator session, the rooms of the
 * project, the models panel, the events the page hears, and the queue in which the calls that open, switch or close
 * the project or the session run, in arrival order (`calls.run`). Acts on the open session and its audio do not pass
 * it: the session's own queue orders them up to the log's fsync (SessionService).
 */
export class AppContext {
  readonly calls = new SerialQueue(() => new Refusal('conflict', 'the app is closing'));
  readonly session: SessionSlot;
  readonly models: ModelsPanel;
  /** norming rooms of the open project (a new controller when another project opens) */
  rooms: RoomController;
  /** the shadow room of the annotator's session, if she opened one (a new controller when another project opens) */
  shadow: ShadowController;
  private readonly events = new EventEmitter<{ event: [AloudEvent] }>();

  constructor(
    readonly options: AppServiceOptions,
    /** replaced when the app changes aloud.yaml (settings) or opens another project */
    public project: OpenProject,
    public items: Item[],
  ) {
    this.session = new SessionSlot(this);
    this.rooms = new RoomController(project, items, this.roomChanged('norming'));
    this.shadow = new ShadowController({ dir: project.dir, config: project.config, items }, this.roomChanged('shadow'));
    this.models = new ModelsPanel({
      ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
      ...(options.modelManifest ? { manifest: options.modelManifest } : {}),
      ...(options.allowLoopbackModelDownloads ? { allowLoopbackHttp: true } : {}),
      emit: (event) => this.emit(event),
      // a session without an engine loads the model that just arrived
      onInstalled: async () => {
        if (this.session.open && this.session.model === null && this.options.openEngine === undefined)
          await this.calls.run(() => this.session.reopen());
      },
    });
  }

  sessionChanged(session: SessionService | null): Promise<void> {
    return this.shadow.follow(session);
  }

  emit(event: AloudEvent): void {
    this.events.emit('event', event);
  }

  /** A room's change its lead's page cannot see (members act through the room's own listener). */
  private roomChanged(room: 'norming' | 'shadow'): () => void {
    return () => this.emit({ type: 'room_changed', room });
  }

  subscribe(listener: (event: AloudEvent) => void): () => void {
    this.events.on('event', listener);
    return () => this.events.off('event', listener);
  }

  /** The project as the page sees it: a model's reasoning reaches it only through showReasoning, which keeps it hidden until it may be seen. */
  projectView(): ProjectView {
    const { config } = this.project;
    return {
      name: config.name,
      dir: path.resolve(this.project.dir),
      schema: config.schema,
      thinkaloud: config.thinkaloud,
      items: this.items.map(withoutModelReasoning),
    };
  }

  /** The annotators with a session in the open project (one spelling each). */
  sessionNames(): Promise<string[]> {
    return projectSessionSource.annotators(this.project);
  }

  /** The annotators' own sessions ("Continue as" offers them), never a room's write-back or a coder's. */
  annotatorSessions(): Promise<string[]> {
    return annotatorSessions(this.project);
  }

  async remember(project: OpenProject): Promise<void> {
    if (this.options.recentFile) await rememberRecent(this.options.recentFile, path.resolve(project.dir)).catch(() => undefined);
  }

  /** Another project: the session closes (the page asks for an annotator again), and so does its room; inside the call queue. */
  async switchProject(project: OpenProject): Promise<void> {
    const items = await loadProjectItems(project).catch((e: Error) => {
      throw new Refusal('bad_request', e.message);
    });
    await this.session.close();
    await this.rooms.shutdown();
    await this.shadow.shutdown();
    this.rooms = new RoomController(project, items, this.roomChanged('norming'));
    this.shadow = new ShadowController({ dir: project.dir, config: project.config, items }, this.roomChanged('shadow'));
    this.project = project;
    this.items = items;
    await this.remember(project);
  }

  async close(): Promise<void> {
    await this.models.close();
    await this.rooms.shutdown();
    await this.shadow.shutdown();
    await this.calls.run(() => this.session.close());
    await this.calls.close();
  }
}

function withoutModelReasoning(item: Item): Item {
  const { model_reasoning: _reasoning, model_steps: _steps, model_label: _label, ...rest } = item;
  return rest;
}
