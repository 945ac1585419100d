import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CAPTURE_SAMPLE_RATE, decodeChunkFrame } from '../../common/audio/chunkFrame';
import {
  ApiError,
  type AgreementReport,
  type AloudApi,
  type AloudEvent,
  type AppInfo,
  type CollectSummary,
  type ExportFormat,
  type PathKind,
  type ExportSummary,
  type ModelsView,
  type NewProjectSpec,
  type ProjectChange,
  type ProjectView,
  type SessionView,
  type SettingsChange,
  type ThinkAloudSettings,
} from '../../common/contract/aloudApi';
import type { Item } from '../../common/items/item';
import type { ReasoningView } from '../../common/reasoning/reasoningReveal';
import { resolveInside } from '../fs/resolveInside';
import { toApiError } from './apiDispatcher';
import { projectAgreement } from '../agreement/projectAgreement';
import { RoomController, roomApiError } from '../rooms/roomController';
import type { LeadRoomStatus } from '../../common/rooms/roomViews';
import { appVersion } from '../export/appVersion';
import { exportSessions } from '../export/exportSessions';
import { projectSessionSource } from '../export/projectSessions';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../project/projectFolder';
import { openSessionEngine } from '../session/sessionEngine';
import { existingAnnotator } from '../../common/annotators/annotatorName';
import type { ModelManifest } from '../../common/models/modelManifest';
import { ModelsPanel } from './modelsPanel';
import { readWav } from '../audio/wavFile';
import { writeThinkAloudSettings } from './projectSettings';
import { createProjectFolder, importItemsInto, openProjectFolder, readRecent, rememberRecent } from './projectsPanel';
import { collectPack } from './collectPacks';
import { normalizeAnnotatorName, sessionPaths } from '../session/sessionPaths';
import { SessionService, type SessionEngine } from '../session/sessionService';

export interface AppServiceOptions {
  projectDir: string;
  mode: AppInfo['mode'];
  /** a whisper model file; otherwise the project's thinkaloud.model among the installed models */
  modelFile?: string | null;
  modelsDir?: string;
  /** an engine script replacing whisper.cpp (tests, demos); default ALOUD_ENGINE_SCRIPT when set */
  engineScript?: string | null;
  /** where exports go; default <project>/exports */
  exportsDir?: string;
  /** opens the engine for a session; default: the whisper worker (tests may pass null for audio-only sessions) */
  openEngine?: ((project: OpenProject) => Promise<SessionEngine>) | null;
  now?: () => Date;
  /** the known models (default models/manifest.json); tests serve their own */
  modelManifest?: ModelManifest;
  /** tests only: model downloads may use plain http to 127.0.0.1 */
  allowLoopbackModelDownloads?: boolean;
  /** the recent projects list (hosts pass defaultRecentFile()); absent: no list is kept (tests) */
  recentFile?: string;
  /** the desktop shell's native dialog; browser mode has none (the page takes a typed path) */
  choosePath?: (kind: PathKind) => Promise<string | null>;
}

interface AppServiceEvents {
  event: [AloudEvent];
}

/**
 * The app API over the core: one project, one annotator session at a time. Electron's IPC handlers and the
 * browser-mode HTTP host both call this object, so the two transports behave the same.
 */
export class AppService implements AloudApi {
  private readonly emitter = new EventEmitter<AppServiceEvents>();
  private current: SessionService | null = null;
  private sessionRecovered: string | null = null;
  private engineProblem: string | null = null;
  private engineModel: { name: string; sha256: string } | null = null;
  /** next expected sample of the running recording: chunks must arrive in order and without gaps */
  private nextSample = 0;
  private lastPending = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly modelsPanel: ModelsPanel;
  /** norming rooms of the open project (a new controller when another project opens) */
  private rooms: RoomController;

  private constructor(
    private readonly options: AppServiceOptions,
    /** replaced when the app changes aloud.yaml (settings) or opens another project */
    public projectFolder: OpenProject,
    private items: Item[],
  ) {
    // rooms belong to the project the app opened with (a project opened later has no room until the app restarts)
    this.rooms = new RoomController(projectFolder, items);
    this.modelsPanel = new ModelsPanel({
      ...(options.modelsDir ? { modelsDir: options.modelsDir } : {}),
      ...(options.modelManifest ? { manifest: options.modelManifest } : {}),
      ...(options.allowLoopbackModelDownloads ? { allowLoopbackHttp: true } : {}),
      emit: (event) => this.emit(event),
      // a session without an engine loads the model that just arrived
      onInstalled: async () => {
        if (this.current && this.engineModel === null && this.options.openEngine === undefined) await this.reopenSession();
      },
    });
  }

  static async open(options: AppServiceOptions): Promise<AppService> {
    const project = await loadProjectConfig(options.projectDir);
    const items = await loadProjectItems(project);
    const service = new AppService(options, project, items);
    await service.remember(project);
    return service;
  }

  private async remember(project: OpenProject): Promise<void> {
    if (this.options.recentFile) await rememberRecent(this.options.recentFile, path.resolve(project.dir)).catch(() => undefined);
  }

  /** Listen to session events; returns the function that stops listening. */
  subscribe(listener: (event: AloudEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  async appInfo(): Promise<AppInfo> {
    return {
      app_version: await appVersion(),
      mode: this.options.mode,
      engine: { available: this.engineModel !== null, model: this.engineModel, problem: this.engineProblem },
    };
  }

  async project(): Promise<ProjectView> {
    const { config } = this.projectFolder;
    // a model's reasoning reaches the page only through showReasoning, which keeps it hidden until it may be seen
    return { name: config.name, dir: path.resolve(this.projectFolder.dir), schema: config.schema, thinkaloud: config.thinkaloud, items: this.items.map(withoutModelReasoning) };
  }

  openSession(annotator: string): Promise<SessionView> {
    return this.serial(async () => {
      // one annotator, one spelling: "ana" continues the session of "Ana"
      const existing = existingAnnotator(annotator, await projectSessionSource.annotators(this.projectFolder));
      return this.openSessionNow(existing ?? annotator);
    });
  }

  /** Opens (or reopens) a session; inside serial(). */
  private async openSessionNow(annotator: string): Promise<SessionView> {
    // A bad name is refused before anything changes; another annotator's session stays open until this one
    // has opened, so a refusal (a lock, a damaged log) leaves the annotator where they were.
    const previous = this.current;
    const reopening = previous !== null && previous.store.annotator === normalizeAnnotatorName(annotator);
    sessionPaths(this.projectFolder.dir, annotator);
    if (reopening) await this.closeSession();
    const engineBefore = { problem: this.engineProblem, model: this.engineModel };
    let engine: SessionEngine | null = null;
    const openEngine = this.options.openEngine === undefined ? this.defaultEngine() : this.options.openEngine;
    this.engineProblem = null;
    this.engineModel = null;
    if (openEngine) {
      try {
        engine = await openEngine(this.projectFolder);
      } catch (e) {
        // Recording still works without a model: audio is kept and can be transcribed later.
        this.engineProblem = (e as Error).message;
      }
    } else {
      this.engineProblem = 'transcription is off for this session';
    }
    let session: SessionService;
    try {
      session = await SessionService.open({ project: this.projectFolder, annotator, items: this.items, engine, ...(this.options.now ? { now: this.options.now } : {}) });
    } catch (e) {
      await engine?.transcriber.close().catch(() => undefined);
      if (!reopening) ({ problem: this.engineProblem, model: this.engineModel } = engineBefore);
      throw e;
    }
    if (!reopening) await this.closeSession();
    this.engineModel = engine ? (engine.model ?? null) : null;
    const { torn, interruptedRecording, recoveredAudio } = session.store.report;
    const recovered = [
      ...(torn ? [`the last line of the session log was torn (line ${torn.line}) and set aside in ${torn.tornFile}`] : []),
      ...(interruptedRecording ? [`the recording of "${interruptedRecording}" was interrupted and has been closed`] : []),
      ...recoveredAudio.map((a) => `the audio of "${a.item_id}" was repaired (${((a.samples_total * 1000) / 16_000 / 1000).toFixed(1)} s kept)`),
    ];
    this.sessionRecovered = recovered.length > 0 ? `${recovered.join('; ')}.` : null;
    session.on('item', (item) => this.emit({ type: 'item', item }));
    session.on('event', (event) => {
      if (event.type === 'recording_started') this.emit({ type: 'recording', item_id: event.data.item_id });
      if (event.type === 'recording_stopped') this.emit({ type: 'recording', item_id: null });
      this.emitPending();
    });
    session.on('write_error', (error) => this.emit({ type: 'error', message: error.message }));
    session.on('finishing', (itemId) => this.emit({ type: 'finishing', item_id: itemId }));
    session.on('partial', (p) => this.emit({ type: 'partial', item_id: p.item_id, utterance: p.utterance, text: p.text }));
    this.current = session;
    return this.view();
  }

  async session(): Promise<SessionView> {
    return this.view();
  }

  openItem(itemId: string): Promise<SessionView> {
    return this.withSession(async (s) => {
      // The item left behind keeps its pending transcriptions: they land on it while the annotator goes on.
      if (s.isRecording) await s.stopRecording();
      await s.openItem(itemId);
      return this.view();
    });
  }

  startRecording(device: string | null): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.startRecording({ device });
      this.nextSample = 0;
      return this.view();
    });
  }

  appendAudio(frame: Uint8Array): Promise<void> {
    return this.withSession(async (s) => {
      if (!s.isRecording) throw new ApiError('conflict', 'not recording: start a recording before sending audio');
      const chunk = decodeChunkFrame(frame);
      if (chunk.sampleRate !== CAPTURE_SAMPLE_RATE) throw new ApiError('bad_request', `audio chunk frame: sampleRate: must be ${CAPTURE_SAMPLE_RATE} Hz (got ${chunk.sampleRate})`);
      if (chunk.startSample !== this.nextSample) {
        throw new ApiError('bad_request', `audio chunk frame: startSample: ${chunk.startSample} does not continue the recording (expected ${this.nextSample})`);
      }
      await s.appendAudio(chunk.pcm);
      this.nextSample += chunk.pcm.length;
      this.emitPending();
    });
  }

  stopRecording(): Promise<SessionView> {
    return this.withSession(async (s) => {
      // Not waiting for the last utterance here: a click right after stopping is logged when it happens.
      await s.stopRecording();
      return this.view();
    });
  }

  commitLabel(label: string, source: 'click' | 'key'): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.commitLabel(label, source);
      return this.view();
    });
  }

  /** Waits (bounded) for the item's transcriptions outside the call queue, so other calls go on meanwhile. */
  async completeItem(): Promise<SessionView> {
    const s = await this.serial(async () => this.requireSession());
    try {
      await s.completeItem();
    } catch (e) {
      throw toApiError(e);
    }
    return this.serial(async () => this.view());
  }

  showReasoning(): Promise<ReasoningView> {
    return this.withSession((s) => s.showReasoning());
  }

  judgeStep(index: number, reward: 1 | 0 | -1 | null, source: 'click' | 'key'): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.judgeStep(index, reward, source);
      return this.view();
    });
  }

  logCue(cue: 'keep_talking', silenceMs: number): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.logCue(cue, silenceMs);
      return this.view();
    });
  }

  addNote(text: string): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.addNote(text);
      return this.view();
    });
  }

  exportSession(format: ExportFormat): Promise<ExportSummary> {
    return this.withSession(async (s) => {
      // Transcriptions still running would be missing from the export: wait for them first.
      await s.drainTranscriptions();
      const dir = this.options.exportsDir ?? path.join(this.projectFolder.dir, 'exports');
      await mkdir(dir, { recursive: true });
      if (!this.options.exportsDir) await resolveInside(this.projectFolder.dir, dir, 'write');
      const stamp = (this.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
      const safeName = s.store.annotator.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'annotator';
      const out = path.join(dir, `${safeName}-${stamp}.${format}`);
      const result = await exportSessions({ project: this.projectFolder, annotator: s.store.annotator, format, out, sessions: projectSessionSource });
      return { file: result.file, receipt: result.receipt_file, records: result.receipt.records, gaps: result.receipt.counts.gaps, summary: result.summary, sha256: result.receipt.sha256 };
    });
  }

  exportProject(format: ExportFormat, annotator: string | null): Promise<ExportSummary> {
    return this.withSession(async (s) => {
      await s.drainTranscriptions();
      const dir = this.options.exportsDir ?? path.join(this.projectFolder.dir, 'exports');
      await mkdir(dir, { recursive: true });
      const stamp = (this.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
      const who = annotator === null ? 'all-annotators' : annotator.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'annotator';
      const out = path.join(dir, `${who}-${stamp}.${format}`);
      let shown = -1;
      const result = await exportSessions({
        project: this.projectFolder,
        ...(annotator === null ? {} : { annotator }),
        format,
        out,
        sessions: projectSessionSource,
        onProgress: ({ done, total }) => {
          // about a hundred updates for a large project, not one per record
          const step = Math.floor((100 * done) / Math.max(1, total));
          if (step === shown) return;
          shown = step;
          this.emit({ type: 'export_progress', done, total });
        },
      });
      return {
        file: result.file,
        receipt: result.receipt_file,
        records: result.receipt.records,
        gaps: result.receipt.counts.gaps,
        summary: result.summary,
        sha256: result.receipt.sha256,
        annotators: annotator === null ? await projectSessionSource.annotators(this.projectFolder) : [annotator],
      };
    });
  }

  annotators(): Promise<string[]> {
    return projectSessionSource.annotators(this.projectFolder);
  }

  async models(rehash: boolean): Promise<ModelsView> {
    return this.modelsPanel.view(this.projectFolder.config.thinkaloud.model, rehash);
  }

  async downloadModel(name: string): Promise<ModelsView> {
    await this.modelsPanel.download(name);
    return this.models(false);
  }

  async cancelModelDownload(name: string): Promise<ModelsView> {
    this.modelsPanel.cancel(name);
    return this.models(false);
  }

  async importModel(file: string): Promise<ModelsView> {
    await this.modelsPanel.importFile(file);
    return this.models(false);
  }

  async removeModel(name: string): Promise<ModelsView> {
    if (this.engineModel?.name === name) throw new ApiError('conflict', `${name} is the model this session transcribes with: choose another default model first`);
    await this.modelsPanel.remove(name);
    return this.models(false);
  }

  updateThinkAloud(patch: Partial<ThinkAloudSettings>): Promise<SettingsChange> {
    return this.serial(async () => {
      if (this.current?.isRecording) throw new ApiError('conflict', 'stop the recording before changing the project settings');
      const { project, previous } = await writeThinkAloudSettings(this.projectFolder, patch);
      this.projectFolder = project;
      // the open session continues with the new settings (the log keeps what was recorded under the old ones)
      if (this.current) await this.reopenSessionNow();
      return { project: await this.project(), previous };
    });
  }

  correctSegment(itemId: string, utterance: number, segment: number, text: string): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.correctSegment(itemId, utterance, segment, text);
      return this.view();
    });
  }

  rederiveLabelsFromCorrections(itemId: string): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.rederiveFromCorrections(itemId);
      return this.view();
    });
  }

  /** Audio recorded before a model existed (or any item's, again): transcribed now, earlier transcripts superseded. */
  transcribeLater(itemId: string | null): Promise<SessionView> {
    return this.withSession(async (s) => {
      const ids = itemId !== null ? [itemId] : s.state().items.filter((i) => i.audio_ms > 0 && i.segments.length === 0).map((i) => i.item_id);
      const read = async (file: string) => (await readWav(file)).samples;
      for (const id of ids) await s.transcribeAgain(id, read, itemId === null ? 'transcribed later (no model when recorded)' : 'transcribed again from the app');
      return this.view();
    });
  }

  async choosePath(kind: PathKind): Promise<string | null> {
    if (!this.options.choosePath) throw new ApiError('not_found', 'this window has no file dialog (browser mode): type the full path instead');
    return this.options.choosePath(kind);
  }

  async recentProjects(): Promise<Array<{ dir: string; name: string | null; problem: string | null }>> {
    const dirs = this.options.recentFile ? await readRecent(this.options.recentFile) : [path.resolve(this.projectFolder.dir)];
    return Promise.all(
      dirs.map((dir) =>
        loadProjectConfig(dir).then(
          (p) => ({ dir, name: p.config.name, problem: null }),
          (e: Error) => ({ dir, name: null, problem: e.message }),
        ),
      ),
    );
  }

  openProject(dir: string): Promise<ProjectView> {
    return this.serial(async () => {
      const project = await openProjectFolder(dir);
      await this.switchProject(project);
      return this.project();
    });
  }

  createProject(spec: NewProjectSpec): Promise<ProjectChange> {
    return this.serial(async () => {
      const { project, items } = await createProjectFolder(spec);
      await this.switchProject(project);
      return { project: await this.project(), items };
    });
  }

  importItems(file: string, mode: 'append' | 'replace'): Promise<ProjectChange> {
    return this.serial(async () => {
      if (this.current?.isRecording) throw new ApiError('conflict', 'stop the recording before importing items');
      const outcome = await importItemsInto(this.projectFolder, file, mode);
      if (outcome.ok) {
        this.items = await loadProjectItems(this.projectFolder);
        if (this.current) await this.reopenSessionNow();
      }
      return { project: await this.project(), items: outcome };
    });
  }

  collectPack(file: string): Promise<CollectSummary> {
    return this.serial(() => collectPack(this.projectFolder, file, (event) => this.emit(event)));
  }

  /** Another project: the session closes (the page asks for an annotator again); inside serial(). */
  private async switchProject(project: OpenProject): Promise<void> {
    const items = await loadProjectItems(project).catch((e: Error) => {
      throw new ApiError('bad_request', e.message);
    });
    await this.closeSession();
    // a room belongs to its project: it is closed with it, and the next one opens in the new project
    await this.rooms.shutdown();
    this.rooms = new RoomController(project, items);
    this.projectFolder = project;
    this.items = items;
    await this.remember(project);
  }

  async agreement(): Promise<AgreementReport> {
    const { warnings: _warnings, ...report } = await projectAgreement(this.projectFolder);
    return report;
  }

  // norming rooms: the controller holds the room; a refusal becomes the contract's error
  openRoom(itemIds: string[] | null, lan: boolean): Promise<LeadRoomStatus> {
    return this.rooms.openRoom(itemIds, lan).catch((e: unknown) => Promise.reject(roomApiError(e)));
  }

  async room(): Promise<LeadRoomStatus | null> {
    return this.rooms.status();
  }

  revealRoomItem(itemId: string): Promise<LeadRoomStatus> {
    return this.rooms.reveal(itemId).catch((e: unknown) => Promise.reject(roomApiError(e)));
  }

  removeRoomMember(memberId: string): Promise<LeadRoomStatus> {
    return this.rooms.remove(memberId).catch((e: unknown) => Promise.reject(roomApiError(e)));
  }

  closeRoom(): Promise<null> {
    return this.rooms.closeRoom().catch((e: unknown) => Promise.reject(roomApiError(e)));
  }

  writeBackRoom(code: string): Promise<Array<{ member_id: string; annotator: string; labels: number }>> {
    return this.rooms.writeBack(code).catch((e: unknown) => Promise.reject(roomApiError(e)));
  }

  /** The WAV of an item in the open session (for review playback), or null when it has none. */
  itemAudioFile(itemId: string): string | null {
    const state = this.current?.itemState(itemId);
    if (!this.current || !state?.audio_path) return null;
    return path.join(this.projectFolder.dir, state.audio_path);
  }

  async close(): Promise<void> {
    await this.modelsPanel.close();
    await this.rooms.shutdown();
    await this.serial(() => this.closeSession());
  }

  private reopenSession(): Promise<void> {
    return this.serial(() => this.reopenSessionNow());
  }

  /** Closes and opens the current annotator's session again (new settings or a new model); inside serial(). */
  private async reopenSessionNow(): Promise<void> {
    const annotator = this.current?.store.annotator;
    if (!annotator || this.current?.isRecording) return;
    await this.openSessionNow(annotator);
    const view = this.view();
    for (const item of view.items) this.emit({ type: 'item', item });
  }

  private defaultEngine(): (project: OpenProject) => Promise<SessionEngine> {
    // only what the host was told (serve's --engine-script or ALOUD_ENGINE_SCRIPT, said on its console): never the environment here
    const engineScript = this.options.engineScript ?? null;
    return (project) => openSessionEngine({ project, modelFile: this.options.modelFile ?? null, engineScript, ...(this.options.modelsDir ? { modelsDir: this.options.modelsDir } : {}) });
  }

  private async closeSession(): Promise<void> {
    const s = this.current;
    this.current = null;
    if (s) {
      s.removeAllListeners();
      await s.close();
    }
  }

  private view(): SessionView {
    const s = this.requireSession();
    const state = s.state();
    return {
      annotator: s.store.annotator,
      current_item: state.current_item,
      recording_item: state.recording?.item_id ?? null,
      items: state.items,
      pending_transcriptions: s.pendingTranscriptions,
      recovered: this.sessionRecovered,
      finishing_item: s.finishing,
      config_changed: state.config_changed,
      notes: state.notes.map(({ item_id, text, ts }) => ({ item_id, text, ts })),
    };
  }

  private emitPending(): void {
    const pending = this.current?.pendingTranscriptions ?? 0;
    if (pending === this.lastPending) return;
    this.lastPending = pending;
    this.emit({ type: 'transcription', pending });
  }

  private emit(event: AloudEvent): void {
    this.emitter.emit('event', event);
  }

  private requireSession(): SessionService {
    if (!this.current) throw new ApiError('conflict', 'no session is open: choose an annotator first');
    return this.current;
  }

  private withSession<T>(task: (s: SessionService) => Promise<T>): Promise<T> {
    return this.serial(() => task(this.requireSession()));
  }

  /** Calls run one at a time, in arrival order, like the session service itself. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task).catch((e: unknown) => {
      throw toApiError(e);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function withoutModelReasoning(item: Item): Item {
  const { model_reasoning: _reasoning, model_steps: _steps, model_label: _label, ...rest } = item;
  return rest;
}
