import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import type { AppInfo } from '../../common/settings/settingsApi';
import type { SessionEvent, SessionNoteView, SessionPatch, SessionView } from '../../common/session/sessionApi';
import { Refusal, asRefusal } from '../../common/refusal/refusal';
import type { Item } from '../../common/items/item';
import { type EngineLauncher, forkEngineLauncher } from '../engine/engineProcessHost';
import type { EngineSupervisorEvent } from '../engine/engineSupervisor';
import { openSessionEngine, type SessionEngine } from '../engine/sessionEngine';
import type { OpenProject } from '../project/projectFolder';
import { normalizeAnnotatorName, sessionPaths } from './sessionPaths';
import { SessionService } from './sessionService';
import { englishRefusal, say, type RefusalMessage } from '../../common/refusal/refusalMessage';

/** How the app opens a session's engine and clock (AppServiceOptions). */
export interface SessionSlotOptions {
  /** a whisper model file; otherwise the project's thinkaloud.model among the installed models */
  modelFile?: string | null;
  modelsDir?: string;
  /** an engine script replacing whisper.cpp (tests, demos); default ALOUD_ENGINE_SCRIPT when set */
  engineScript?: string | null;
  /** starts the engine process: the desktop app passes its utility-process launcher; absent: forked (CLI, tests) */
  engineLauncher?: EngineLauncher;
  /** opens the engine for a session; default: whisper.cpp in the engine process (tests may pass null for audio-only sessions) */
  openEngine?: ((project: OpenProject) => Promise<SessionEngine>) | null;
  now?: () => Date;
}

/** What the slot reads of the app: its options, the open project and its items, and where its events go. */
export interface SessionSlotHost {
  readonly options: SessionSlotOptions;
  readonly project: OpenProject;
  readonly items: Item[];
  emit(event: SessionEvent): void;
  /** the annotator's session opened, or closed (null): what listens to it (a shadow room's tap) follows */
  sessionChanged(session: SessionService | null): Promise<void>;
}

/**
 * The one annotator session the app has open, with the engine it transcribes with: opening (the engine first; a
 * session that cannot open leaves the one before open), reopening under new settings or a new model, the view the
 * page gets, the session's events as the contract's, and the order of the audio chunks a recording receives.
 */
export class SessionSlot {
  private current: SessionService | null = null;
  private recovered: RefusalMessage | null = null;
  private engineProblem: string | null = null;
  /** the engine problem as a catalog message, when it has one */
  private engineProblemSaid: RefusalMessage | null = null;
  private engineModel: { name: string; sha256: string } | null = null;
  private lastPending = '{}';
  /** items whose fold changed since the last patch (or the opening), in the order of their first change */
  private readonly changedItems = new Set<string>();
  /** notes the patches so far have covered (the opening view's, and those patches added): the next patch adds those after them */
  private notesSent = 0;
  /** acts running: what changes meanwhile travels in their patches; a change outside any act is pushed as an item event */
  private acting = 0;
  private pushScheduled = false;
  /**
   * the stamp of the last view, patch or item event handed out: each gets a larger one. It starts from the clock
   * (µs), so a restarted host's stamps are larger than those a page kept from the one before.
   */
  private stamp = 0;

  constructor(private readonly app: SessionSlotHost) {}

  get open(): SessionService | null {
    return this.current;
  }

  private nextStamp(): number {
    this.stamp = Math.max(this.stamp + 1, Date.now() * 1000);
    return this.stamp;
  }

  /** The open session, or the refusal that says to choose an annotator first. */
  require(): SessionService {
    if (!this.current) throw new Refusal('conflict', say('refusal.session.noSessionIsOpenChoose'));
    return this.current;
  }

  engineInfo(): AppInfo['engine'] {
    return {
      available: this.engineModel !== null,
      model: this.engineModel,
      problem: this.engineProblem,
      problem_said: this.engineProblemSaid,
    };
  }

  /** The model the open session transcribes with, if any. */
  get model(): { name: string; sha256: string } | null {
    return this.engineModel;
  }

  /** Opens (or reopens) the annotator's session; run inside the app's call queue. */
  async openSession(annotator: string, reviewer: string | null = null): Promise<SessionView> {
    const { options, project, items } = this.app;
    // A bad name is refused before anything changes; another annotator's session stays open until this one
    // has opened, so a refusal (a lock, a damaged log) leaves the annotator where they were.
    const previous = this.current;
    const reopening = previous !== null && previous.store.annotator === normalizeAnnotatorName(annotator);
    sessionPaths(project.dir, annotator);
    if (reopening) await this.close();
    const engineBefore = { problem: this.engineProblem, said: this.engineProblemSaid, model: this.engineModel };
    let engine: SessionEngine | null = null;
    const openEngine = options.openEngine === undefined ? this.defaultEngine() : options.openEngine;
    this.engineProblem = null;
    this.engineProblemSaid = null;
    this.engineModel = null;
    if (openEngine) {
      try {
        engine = await openEngine(project);
      } catch (e) {
        // Recording still works without a model: audio is kept and can be transcribed later.
        this.engineProblem = (e as Error).message;
        this.engineProblemSaid = asRefusal(e).say ?? null;
      }
    } else {
      this.engineProblemSaid = say('refusal.engine.transcriptionOff');
      this.engineProblem = englishRefusal(this.engineProblemSaid);
    }
    let session: SessionService;
    try {
      session = await SessionService.open({ project, annotator, items, engine, reviewer, ...(options.now ? { now: options.now } : {}) });
    } catch (e) {
      await engine?.transcriber.close().catch(() => undefined);
      if (!reopening) ({ problem: this.engineProblem, said: this.engineProblemSaid, model: this.engineModel } = engineBefore);
      throw e;
    }
    if (!reopening) await this.close();
    this.engineModel = engine ? (engine.model ?? null) : null;
    const { torn, interruptedRecording, recoveredAudio } = session.store.report;
    const recovered = [
      ...(torn ? [say('refusal.session.recovered.torn', { line: String(torn.line), file: torn.tornFile })] : []),
      ...(interruptedRecording ? [say('refusal.session.recovered.interrupted', { itemId: interruptedRecording })] : []),
      ...recoveredAudio.map((a) =>
        say('refusal.session.recovered.audio', { itemId: a.item_id, seconds: (a.samples_total / AUDIO_SAMPLE_RATE).toFixed(1) }),
      ),
    ];
    const last = recovered.pop();
    // what the opening repaired, one message: the parts after semicolons, then a full stop
    const list = last && recovered.reduceRight((rest, first) => say('refusal.session.recovered.list', { first, rest }), last);
    this.recovered = list ? say('refusal.session.recovered.end', { what: list }) : null;
    this.forward(session);
    this.current = session;
    // the page that opened it gets every note in the view; patches add those after them
    this.notesSent = session.store.fields().note_count;
    await this.app.sessionChanged(session);
    return this.view();
  }

  /** Closes and opens the current annotator's session again (new settings, items or model); inside the call queue. */
  async reopen(): Promise<void> {
    const annotator = this.current?.store.annotator;
    if (!annotator || this.current?.isRecording) return;
    // one whole view, not an event per item: at 10,000 items those were 11 MB and a page applying each in turn
    this.app.emit({ type: 'session_reopened', view: await this.openSession(annotator, this.current?.reviewer ?? null) });
  }

  async close(): Promise<void> {
    const s = this.current;
    this.current = null;
    this.changedItems.clear();
    if (s) {
      await this.app.sessionChanged(null);
      s.removeAllListeners();
      await s.close();
    }
  }

  /** One chunk frame of the running recording, handed to the session (its queue checks and orders it up to the log). */
  async appendAudio(frame: Uint8Array): Promise<void> {
    await this.require().appendFrame(frame);
    this.emitPending();
  }

  /**
   * The whole session, for opening it (the only answer that visits every item): every item as its line in the list,
   * and the open item in full. It changes nothing: a view read meanwhile (a reload, a test) does not take from the
   * next patch what it must carry, and re-sent items and notes replace what the page holds (sessionPatch.ts).
   */
  view(): SessionView {
    const s = this.require();
    const fields = s.store.fields();
    const open = fields.current_item === null ? null : s.itemState(fields.current_item);
    return {
      annotator: s.store.annotator,
      current_item: fields.current_item,
      recording_item: fields.recording?.item_id ?? null,
      items: s.store.summaries(),
      item_states: open ? { [open.item_id]: open } : {},
      pending_transcriptions: s.pendingTranscriptions,
      pending_items: s.pendingByItem,
      recovered: this.recovered && englishRefusal(this.recovered),
      recovered_said: this.recovered,
      finishing_item: s.finishing,
      config_changed: fields.config_changed,
      notes: s.store.notesFrom(0).map(noteView),
      reviewer: s.reviewer,
      kind: s.store.kind,
      stamp: this.nextStamp(),
    };
  }

  /**
   * Runs an act on the open session and answers with what changed (patch). An act refused after it changed something
   * (a recording stopped before a refused completion) pushes those items, so the page never misses a change.
   */
  async act(task: (s: SessionService) => Promise<unknown>): Promise<SessionPatch> {
    const s = this.require();
    this.acting++;
    try {
      await task(s);
      // of the session the act ran on: one opened meanwhile answers with its own view, whose stamp is newer
      return this.patch(s);
    } catch (e) {
      this.pushChanged();
      throw e;
    } finally {
      this.acting--;
    }
  }

  /**
   * What changed since the page last got the view or a patch: each changed item as the fold has it now (after the
   * events were appended), the notes added and the session's fields. Its cost follows the change, not the session.
   */
  patch(s: SessionService = this.require()): SessionPatch {
    const fields = s.store.fields();
    const changed = [...this.changedItems].flatMap((itemId) => s.itemState(itemId) ?? []);
    this.changedItems.clear();
    const added = s.store.notesFrom(this.notesSent).map(noteView);
    const notesFrom = this.notesSent;
    this.notesSent = fields.note_count;
    return {
      changed_items: changed,
      notes_from: notesFrom,
      added_notes: added,
      current_item: fields.current_item,
      recording_item: fields.recording?.item_id ?? null,
      pending_transcriptions: s.pendingTranscriptions,
      pending_items: s.pendingByItem,
      finishing_item: s.finishing,
      config_changed: fields.config_changed,
      stamp: this.nextStamp(),
    };
  }

  /** The session's own events, as the contract's events. */
  private forward(session: SessionService): void {
    const emit = (event: SessionEvent) => this.app.emit(event);
    let timed: string | null = session.store.timedItem;
    session.on('event', (event) => {
      const itemId = (event.data as { item_id?: unknown }).item_id;
      if (typeof itemId === 'string') this.changedItems.add(itemId);
      // the open item's time on item runs with every event; the one left behind stops
      if (timed !== null) this.changedItems.add(timed);
      timed = session.store.timedItem;
      if (timed !== null) this.changedItems.add(timed);
      if (this.changedItems.size === 0) return;
      // a transcription landing, audio made durable by the timer, a failed engine: no act will answer with it
      if (this.acting === 0 && !this.pushScheduled) {
        this.pushScheduled = true;
        queueMicrotask(() => {
          this.pushScheduled = false;
          if (this.acting === 0) this.pushChanged();
        });
      }
    });
    session.on('item', (item) => emit({ type: 'item', item, stamp: this.nextStamp() }));
    session.on('event', (event) => {
      if (event.type === 'recording_started') emit({ type: 'recording', item_id: event.data.item_id, stamp: this.nextStamp() });
      if (event.type === 'recording_stopped') emit({ type: 'recording', item_id: null, stamp: this.nextStamp() });
      this.emitPending();
    });
    session.on('write_error', (error) => emit({ type: 'error', message: error.message }));
    session.on('finishing', (itemId) => emit({ type: 'finishing', item_id: itemId, stamp: this.nextStamp() }));
    session.on('partial', (p) =>
      emit({ type: 'partial', item_id: p.item_id, utterance: p.utterance, text: p.text, speculative: p.speculative }),
    );
    session.on('pending', () => this.emitPending());
  }

  /** The changed items as item events (for changes no act answers with), as the fold has them now. */
  private pushChanged(): void {
    const s = this.current;
    if (!s) return;
    const changed = [...this.changedItems].flatMap((itemId) => s.itemState(itemId) ?? []);
    this.changedItems.clear();
    for (const item of changed) this.app.emit({ type: 'item', item, stamp: this.nextStamp() });
  }

  private emitPending(): void {
    const items = this.current?.pendingByItem ?? {};
    const key = JSON.stringify(items);
    if (key === this.lastPending) return;
    this.lastPending = key;
    this.app.emit({ type: 'transcription', pending: this.current?.pendingTranscriptions ?? 0, items, stamp: this.nextStamp() });
  }

  private defaultEngine(): (project: OpenProject) => Promise<SessionEngine> {
    // only what the host was told (serve's --engine-script or ALOUD_ENGINE_SCRIPT, said on its console): never the environment here
    const { modelFile, engineScript, modelsDir, engineLauncher } = this.app.options;
    // the engine process's crashes, restarts and giving up reach the Label screen in words
    const onEngineEvent = (event: EngineSupervisorEvent): void => {
      if (event.type === 'started') return;
      if (event.type === 'stopped') [this.engineProblem, this.engineProblemSaid] = [event.message, null];
      this.app.emit({ type: 'engine', state: event.type, message: event.message });
    };
    return (project) =>
      openSessionEngine({
        project,
        modelFile: modelFile ?? null,
        engineScript: engineScript ?? null,
        launchEngine: engineLauncher ?? forkEngineLauncher,
        onEngineEvent,
        ...(modelsDir ? { modelsDir } : {}),
      });
  }
}

/** A note as the page shows it (the log's note without what only the log needs). */
function noteView({ item_id, text, ts }: { item_id: string | null; text: string; ts: string }): SessionNoteView {
  return { item_id, text, ts };
}
