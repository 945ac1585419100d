import { EventEmitter } from 'node:events';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CAPTURE_SAMPLE_RATE, ChunkFrameError, decodeChunkFrame } from '../../common/audio/chunkFrame';
import {
  ApiError,
  type AgreementReport,
  type AloudApi,
  type AloudEvent,
  type AppInfo,
  type ExportFormat,
  type ExportSummary,
  type ProjectView,
  type SessionView,
} from '../../common/contract/aloudApi';
import type { Item } from '../../common/items/item';
import { projectAgreement } from '../agreement/projectAgreement';
import { appVersion } from '../export/appVersion';
import { exportSessions } from '../export/exportSessions';
import { projectSessionSource } from '../export/projectSessions';
import { ProjectError } from '../project/projectError';
import { loadProjectConfig, loadProjectItems, type OpenProject } from '../project/projectFolder';
import { openSessionEngine } from '../session/sessionEngine';
import { SessionWriteError } from '../session/sessionFs';
import { SessionService, SessionUsageError, SpokenLabelRequiredError, type SessionEngine } from '../session/sessionService';

export interface AppServiceOptions {
  projectDir: string;
  mode: AppInfo['mode'];
  /** a whisper model file; otherwise the project's thinkaloud.model among the installed models */
  modelFile?: string | null;
  modelsDir?: string;
  /** where exports go; default <project>/exports */
  exportsDir?: string;
  /** opens the engine for a session; default: the whisper worker (tests may pass null for audio-only sessions) */
  openEngine?: ((project: OpenProject) => Promise<SessionEngine>) | null;
  now?: () => Date;
}

/** Maps a core error to one the contract carries; anything unexpected is 'internal' with its message. */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof SpokenLabelRequiredError) return new ApiError('spoken_label_required', e.message);
  if (e instanceof SessionUsageError) return new ApiError('conflict', e.message);
  if (e instanceof SessionWriteError) return new ApiError('storage', e.message);
  if (e instanceof ProjectError || e instanceof ChunkFrameError) return new ApiError('bad_request', e.message);
  return new ApiError('internal', e instanceof Error ? e.message : String(e));
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

  private constructor(
    private readonly options: AppServiceOptions,
    readonly projectFolder: OpenProject,
    private readonly items: Item[],
  ) {}

  static async open(options: AppServiceOptions): Promise<AppService> {
    const project = await loadProjectConfig(options.projectDir);
    const items = await loadProjectItems(project);
    return new AppService(options, project, items);
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
    return { name: config.name, schema: config.schema, thinkaloud: config.thinkaloud, items: this.items };
  }

  openSession(annotator: string): Promise<SessionView> {
    return this.serial(async () => {
      await this.closeSession();
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
        throw e;
      }
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
      session.on('partial', (p) => this.emit({ type: 'partial', item_id: p.item_id, utterance: p.utterance, text: p.text }));
      this.current = session;
      return this.view();
    });
  }

  async session(): Promise<SessionView> {
    return this.view();
  }

  openItem(itemId: string): Promise<SessionView> {
    return this.withSession(async (s) => {
      // Leaving an item cancels its queued transcriptions (the engine's rule), so let the item's last
      // utterance, usually the one with the commit phrase, finish first.
      if (s.isRecording) await s.stopRecording();
      await s.drainTranscriptions();
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
      await s.stopRecording();
      // The view returned includes the last utterance's transcript and any label it committed.
      await s.drainTranscriptions();
      return this.view();
    });
  }

  commitLabel(label: string, source: 'click' | 'key'): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.commitLabel(label, source);
      return this.view();
    });
  }

  completeItem(): Promise<SessionView> {
    return this.withSession(async (s) => {
      await s.completeItem();
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
      const stamp = (this.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
      const safeName = s.store.annotator.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 60) || 'annotator';
      const out = path.join(dir, `${safeName}-${stamp}.${format}`);
      const result = await exportSessions({ project: this.projectFolder, annotator: s.store.annotator, format, out, sessions: projectSessionSource });
      return { file: result.file, receipt: result.receipt_file, records: result.receipt.records, gaps: result.receipt.counts.gaps, sha256: result.receipt.sha256 };
    });
  }

  async agreement(): Promise<AgreementReport> {
    const { warnings: _warnings, ...report } = await projectAgreement(this.projectFolder);
    return report;
  }

  /** The WAV of an item in the open session (for review playback), or null when it has none. */
  itemAudioFile(itemId: string): string | null {
    const state = this.current?.itemState(itemId);
    if (!this.current || !state?.audio_path) return null;
    return path.join(this.projectFolder.dir, state.audio_path);
  }

  async close(): Promise<void> {
    await this.serial(() => this.closeSession());
  }

  private defaultEngine(): (project: OpenProject) => Promise<SessionEngine> {
    return (project) => openSessionEngine({ project, modelFile: this.options.modelFile ?? null, ...(this.options.modelsDir ? { modelsDir: this.options.modelsDir } : {}) });
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
