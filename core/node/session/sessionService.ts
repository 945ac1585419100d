import { EventEmitter } from 'node:events';
import { createTranscriptAnalyzer } from '../../common/analysis/transcriptAnalysis';
import { ChunkFrameError, decodeChunkFrame } from '../../common/audio/chunkFrame';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { SerialQueue } from '../../common/concurrency/serialQueue';
import type { LivePartial } from '../../common/engine/liveUtterances';
import type { UtteranceOutcome, UtteranceRequest } from '../../common/engine/transcriptionScheduler';
import type { Utterance } from '../../common/engine/utteranceCutter';
import type { Item } from '../../common/items/item';
import type { ItemSessionState, LabelSource } from '../../common/session/itemState';
import { decideCompletion, decideLabelAct } from '../../common/session/labelRules';
import type { RecordingStopReason, SessionEvent, SessionEventData, SessionEventType } from '../../common/session/sessionEvents';
import type { CoderFolds } from '../../common/coding/codingFold';
import type { SessionEntry, SessionFold, SessionState } from '../../common/session/sessionFold';
import { SessionUsageError } from '../../common/session/sessionRefusals';
import {
  decideCompletionStart,
  decideCue,
  decideNote,
  decideOpenItem,
  decideRecordingStart,
  type SessionRuleContext,
} from '../../common/session/sessionRules';
import {
  decideTranscribedAgain,
  decideTranscriptionFailed,
  decideTranscriptionLanded,
  type EngineIdentity,
} from '../../common/session/transcriptionRules';
import type { WavWriter } from '../audio/wavWriter';
import type { LiveCutter, SessionEngine } from '../engine/sessionEngine';
import { sha256Hex } from '../fs/sha256';
import { audioSignalsOf } from './itemAudioSignals';
import { PendingTranscriptions } from './pendingTranscriptions';
import { DurableWriteError } from '../fs/durableFile';
import type { SessionServiceEvents } from './sessionServiceEvents';
import { SessionStore, type OpenSessionOptions } from './sessionStore';
import { say } from '../../common/refusal/refusalMessage';

/** What a feature's act gets of the session (SessionService.act). */
export interface SessionActContext {
  rules(): SessionRuleContext;
  /** samples the item's WAV holds now, the running recording's unflushed ones included */
  audioSamples(itemId: string): number;
  /** tells the page the item changed; its state now */
  itemChanged(itemId: string): ItemSessionState;
}

interface Recording {
  item_id: string;
  writer: WavWriter;
  cutter: LiveCutter;
  /** the item's audio length when this recording started */
  offset_samples: number;
  /** next utterance index of the item when this recording started */
  utterance_base: number;
  last_flush_ms: number;
  timer: ReturnType<typeof setInterval>;
  /** the next chunk frame must start at this sample of the recording: frames arrive in order and without gaps */
  next_frame_sample: number;
}

/** Audio is made durable (flushed, fsynced, logged) at least this often while recording. */
export const FLUSH_INTERVAL_MS = 1000;

/**
 * The session's shell, which the UI and headless ingest call. The rules are pure functions in core/common/session;
 * this is their shell: one queue for every call and every landing transcription (from the call to the log's fsync),
 * the recording (the item's WAV, durable at least every second, and the live cutter), the engine's jobs, and appending
 * what the rules decide. Features beyond recording, labelling and completing (coding, reasoning, corrections, text
 * selection) are composed over it in their own modules through `act`, so a new feature does not edit this file.
 */
export class SessionService extends EventEmitter<SessionServiceEvents> {
  private recording: Recording | null = null;
  private readonly transcriptions = new PendingTranscriptions(() => this.emit('pending', this.transcriptions.counts()));
  private readonly rules: SessionRuleContext;
  /** every call and every landing transcription, one at a time; refused once the session is closed */
  private readonly calls = new SerialQueue(() => new SessionUsageError(say('refusal.session.theSessionIsClosed2')));

  private constructor(
    readonly store: SessionStore,
    private readonly engine: SessionEngine | null,
    items: ReadonlyMap<string, Item> | null,
    reviewer: string | null,
  ) {
    super();
    const { config } = store.project;
    this.rules = {
      config,
      items,
      annotator: store.annotator,
      reviewer: reviewer ?? null,
      configSha256: store.configSha256,
      analyze: createTranscriptAnalyzer(config),
      sha256: sha256Hex,
    };
  }

  /** who this session's acts are by, when not its annotator (a reviewer's corrections) */
  get reviewer(): string | null {
    return this.rules.reviewer;
  }

  /** What the engine says of itself with every transcription and signal: whisper.cpp's version and the VAD. */
  private get engineIdentity(): EngineIdentity {
    return { whisperCpp: this.engine?.whisperCpp ?? null, vad: this.engine?.vad ? (this.engine.vadModel ?? null) : null };
  }

  /**
   * Opens (recovering if needed) an annotator's session. `items` restricts navigation to the project's items;
   * without `engine` audio is stored but not transcribed.
   */
  static async open(options: OpenSessionOptions & { engine?: SessionEngine | null; items?: readonly Item[] }): Promise<SessionService> {
    const store = await SessionStore.open(options);
    const items = options.items ? new Map(options.items.map((item) => [item.id, item])) : null;
    return new SessionService(store, options.engine ?? null, items, options.reviewer ?? null);
  }

  state(): SessionState {
    return this.store.state();
  }

  itemState(itemId: string): ItemSessionState | null {
    return this.store.itemState(itemId);
  }

  get currentItem(): string | null {
    return this.store.facts.currentItemId;
  }

  /** transcriptions sent and not yet logged (or found stale) */
  get pendingTranscriptions(): number {
    return this.transcriptions.size;
  }

  get isRecording(): boolean {
    return this.recording !== null;
  }

  /** the item whose completion is waiting for its transcriptions, if any */
  get finishing(): string | null {
    return this.transcriptions.finishing;
  }

  /** Transcriptions of this item sent and not yet logged. */
  pendingFor(itemId: string): number {
    return this.transcriptions.pendingFor(itemId);
  }

  /** Items with transcriptions sent and not yet logged, and how many each. */
  get pendingByItem(): Record<string, number> {
    return this.transcriptions.counts();
  }

  /**
   * Navigates to an item; a resumed session starts at the last one opened. Utterances of the item left behind are
   * still transcribed and logged to it (the identity check keeps every result on its own item).
   */
  openItem(itemId: string): Promise<void> {
    return this.calls.run(async () => {
      const { stopRecording, entries } = decideOpenItem(this.rules, { itemId, recording: this.recording !== null });
      if (stopRecording) await this.stop(stopRecording);
      await this.commit(() => entries);
    });
  }

  /** Starts recording the current item; audio continues the item's WAV after what it already holds. */
  startRecording(options: { device?: string | null } = {}): Promise<void> {
    return this.calls.run(async () => {
      const itemId = decideRecordingStart(this.store.facts, this.rules, this.recording);
      const writer = await this.guardWrite(() => this.store.audioWriter(itemId));
      const offset = writer.samples;
      await this.append('recording_started', {
        item_id: itemId,
        audio_path: this.store.audioPath(itemId),
        offset_samples: offset,
        device: options.device ?? null,
      });
      const timer = setInterval(() => {
        void this.calls.run(() => this.flushIfDue(true)).catch(() => undefined);
      }, FLUSH_INTERVAL_MS);
      timer.unref();
      const base = this.utteranceBase(itemId);
      const live = {
        item_id: itemId,
        utterance_base: base,
        offset_samples: offset,
        onPartial: (p: LivePartial) => this.emit('partial', p),
      };
      this.recording = {
        item_id: itemId,
        writer,
        cutter: this.engine ? this.engine.createCutter(live) : { push: () => [], flush: () => [] },
        offset_samples: offset,
        utterance_base: base,
        last_flush_ms: Date.now(),
        timer,
        next_frame_sample: 0,
      };
    });
  }

  /** Adds captured audio (16 kHz mono, full scale 1.0) to the running recording. */
  appendAudio(pcm: Float32Array): Promise<void> {
    return this.calls.run(() => this.addAudio(this.runningRecording(), pcm));
  }

  /**
   * One chunk frame of the running recording (the app's audio call): 16 kHz, numbered from the recording's start, in
   * order and without gaps. Checked in the session's queue, where frames keep their order up to the log's fsync.
   */
  appendFrame(frame: Uint8Array): Promise<void> {
    return this.calls.run(async () => {
      const rec = this.runningRecording();
      const chunk = decodeChunkFrame(frame);
      if (chunk.sampleRate !== AUDIO_SAMPLE_RATE)
        // i18n-ignore: an audio frame from the app's own capture code: a bug, not a person's act
        throw new ChunkFrameError('sampleRate', `must be ${AUDIO_SAMPLE_RATE} Hz (got ${chunk.sampleRate})`);
      if (chunk.startSample !== rec.next_frame_sample)
        // i18n-ignore: an audio frame from the app's own capture code: a bug, not a person's act
        throw new ChunkFrameError(
          'startSample',
          `${chunk.startSample} does not continue the recording (expected ${rec.next_frame_sample})`,
        );
      await this.addAudio(rec, chunk.pcm);
      rec.next_frame_sample += chunk.pcm.length;
    });
  }

  /** The running recording, or the one refusal for audio sent while none runs. */
  private runningRecording(): Recording {
    if (!this.recording) throw new SessionUsageError(say('refusal.session.notRecordingStartARecording'));
    return this.recording;
  }

  private async addAudio(rec: Recording, pcm: Float32Array): Promise<void> {
    rec.writer.append(pcm);
    this.emit('audio', { item_id: rec.item_id, start_sample: rec.writer.samples + rec.writer.pendingSamples - pcm.length, pcm });
    for (const utterance of rec.cutter.push(pcm)) this.transcribe(rec, utterance);
    await this.flushIfDue(false);
  }

  /** Stops the recording: the last audio is flushed, the last utterance sent, audio signals computed and logged. */
  stopRecording(reason: RecordingStopReason = 'user'): Promise<void> {
    return this.calls.run(async () => {
      if (!this.recording) throw new SessionUsageError(say('refusal.session.notRecording'));
      await this.stop(reason);
    });
  }

  /**
   * A label given by a click or a key (or a room's vote written back). Returns the item's state after it. A change of
   * a completed item's label is refused unless `confirmed` (decideLabelAct).
   */
  commitLabel(label: string, source: Exclude<LabelSource, 'voice'>, options: { confirmed?: boolean } = {}): Promise<ItemSessionState> {
    return this.calls.run(async () => {
      await this.commit((facts, at) => decideLabelAct(facts, this.rules, { label, source, confirmed: options.confirmed ?? false }, at));
      return this.emitItem(this.store.facts.currentItemId!);
    });
  }

  /**
   * Marks the current item done (stopping a recording). It first waits (at most thinkaloud.complete_wait_seconds)
   * for the item's pending transcriptions, so "say it, then press Enter" works while the engine is behind; then the
   * completion rule (decideCompletion) decides.
   */
  async completeItem(options: { waitMs?: number } = {}): Promise<ItemSessionState> {
    const itemId = await this.calls.run(async () => {
      const start = decideCompletionStart(this.store.facts, this.recording !== null);
      if (start.stopRecording) await this.stop(start.stopRecording);
      return start.itemId;
    });
    await this.transcriptions.settleForCompletion(
      itemId,
      options.waitMs ?? this.rules.config.thinkaloud.complete_wait_seconds * 1000,
      (waiting) => this.emit('finishing', waiting),
    );
    return this.calls.run(async () => {
      await this.commit((facts) => decideCompletion(facts, this.rules, itemId));
      return this.emitItem(itemId);
    });
  }

  /**
   * Transcribes the item's recorded audio again (recorded without a model, or with another one): the whole WAV goes
   * through the cutter and the engine, and the rule for a second transcription (decideTranscribedAgain) logs the
   * result, all or nothing. Resolves when it is logged.
   */
  async transcribeAgain(itemId: string, read: (absolutePath: string) => Promise<Float32Array>, reason: string): Promise<ItemSessionState> {
    const engine = this.engine;
    if (!engine) throw new SessionUsageError(say('refusal.session.noTranscriptionEngineIsLoaded'));
    // The cut and the VAD signals run in the call queue, where no recording can start: both use the session's one
    // VAD, whose stream state a running recording's cutter depends on.
    const { cuts, base, signals } = await this.calls.run(async () => {
      if (this.recording) {
        throw new SessionUsageError(
          this.recording.item_id === itemId
            ? say('refusal.session.beingRecordedStopFirst', { itemId })
            : say('refusal.session.beingRecordedStopBeforeTranscribing', { recording: this.recording.item_id, itemId }),
        );
      }
      if (!this.store.itemState(itemId)?.audio_path) throw new SessionUsageError(say('refusal.session.hasNoRecordedAudioTo', { itemId }));
      const pcm = await read(this.store.absoluteAudioPath(itemId));
      const cutter = engine.createCutter();
      // recorded before the VAD model was there: its vad_* signals come with this pass (over the audio just read)
      const vadSignals = engine.vad
        ? audioSignalsOf(pcm, AUDIO_SAMPLE_RATE, this.rules.config.thinkaloud, engine.vad, this.store.takeStarts(itemId))
        : null;
      return { cuts: [...cutter.push(pcm), ...cutter.flush()], base: this.utteranceBase(itemId), signals: vadSignals };
    });
    const requests: UtteranceRequest[] = cuts.map((cut) => ({
      item_id: itemId,
      utterance: base + cut.index,
      start_sample: cut.startSample,
      end_sample: cut.endSample,
      pcm: cut.pcm,
    }));
    this.transcriptions.reserve(itemId, base + requests.length);
    const outcomes = await Promise.all(requests.map((r) => engine.transcriber.transcribe(r)));
    const transcriptions = requests.map((request, i) => ({ request, outcome: outcomes[i]! }));
    return this.calls.run(async () => {
      await this.commit((facts, at) =>
        decideTranscribedAgain(facts, this.rules, { itemId, reason, transcriptions, engine: this.engineIdentity, signals }, at),
      );
      return this.emitItem(itemId);
    });
  }

  /**
   * An act of a feature composed over the session (coding, reasoning, corrections, text selection: each in its own
   * module): `decide` is the feature's pure rule over the fold and the session's rule context; what it returns is
   * appended as one commit point in the session's queue, and `answer` reads the result there, before any later act.
   */
  /** A coder's act: decided on her session and coding folds as the appends so far left them (CoderFolds), one commit point. */
  recordCoding(decide: (folds: CoderFolds, at: string) => readonly SessionEntry[]): Promise<SessionEvent[]> {
    return this.act((session, at) => decide({ session, coding: this.store.coding }, at));
  }

  act(decide: (facts: SessionFold, at: string, session: SessionActContext) => readonly SessionEntry[]): Promise<SessionEvent[]>;
  act<T>(
    decide: (facts: SessionFold, at: string, session: SessionActContext) => readonly SessionEntry[],
    answer: (events: SessionEvent[], session: SessionActContext) => T,
  ): Promise<T>;
  act<T>(
    decide: (facts: SessionFold, at: string, session: SessionActContext) => readonly SessionEntry[],
    answer?: (events: SessionEvent[], session: SessionActContext) => T,
  ): Promise<T | SessionEvent[]> {
    return this.calls.run(async () => {
      const events = await this.commit((facts, at) => decide(facts, at, this.actContext));
      return answer ? answer(events, this.actContext) : events;
    });
  }

  /** What a feature's rule reads besides the fold, and how its act tells the page of an item it changed. */
  private readonly actContext: SessionActContext = {
    rules: () => this.rules,
    audioSamples: (itemId) => this.audioSamples(itemId),
    itemChanged: (itemId) => this.emitItem(itemId),
  };

  /** The rules' context of this session (what a feature's read-only answer needs, e.g. the transcript analyzer). */
  get ruleContext(): SessionRuleContext {
    return this.rules;
  }

  addNote(text: string): Promise<void> {
    return this.calls.run(async () => {
      await this.commit((facts) => decideNote(facts, text));
    });
  }

  /** Logs that the keep-talking cue was shown during the running recording (so analyses can tell prompted speech). */
  logCue(cue: 'keep_talking', silenceMs: number): Promise<void> {
    return this.calls.run(async () => {
      const rec = this.recording;
      const recording = rec
        ? { item_id: rec.item_id, audio_ms: Math.round((this.audioSamples(rec.item_id) * 1000) / AUDIO_SAMPLE_RATE) }
        : null;
      await this.commit(() => decideCue(recording, cue, silenceMs));
    });
  }

  /** Resolves when every transcription sent so far has been logged (or found stale). */
  drainTranscriptions(): Promise<void> {
    return this.transcriptions.drain();
  }

  /** Stops a running recording, waits for transcriptions, closes files and releases the lock. */
  async close(): Promise<void> {
    if (this.calls.closed) return;
    await this.calls
      .run(async () => {
        if (this.recording) await this.stop('closed').catch(() => undefined);
      })
      .catch(() => undefined);
    await this.drainTranscriptions();
    await this.calls.close();
    await this.engine?.transcriber.close();
    await this.store.close();
  }

  /** Samples the item's WAV holds: the running recording's, unflushed ones included, or what the log knows. */
  private audioSamples(itemId: string): number {
    const rec = this.recording?.item_id === itemId ? this.recording : null;
    return rec
      ? rec.writer.samples + rec.writer.pendingSamples
      : Math.round(((this.store.itemState(itemId)?.audio_ms ?? 0) * AUDIO_SAMPLE_RATE) / 1000);
  }

  /** Utterance indices go on across recordings of an item: after those logged and those still in flight. */
  private utteranceBase(itemId: string): number {
    return this.transcriptions.nextUtteranceIndex(itemId, this.store.nextUtteranceIndex(itemId));
  }

  /** Appends what a rule decided (one commit point), and tells the UI. */
  private async commit(decide: (facts: SessionFold, at: string) => readonly SessionEntry[]): Promise<SessionEvent[]> {
    const events = await this.guardWrite(() => this.store.commit(decide));
    for (const event of events) this.emit('event', event);
    return events;
  }

  /** The recording's own events (started, audio made durable, stopped, signals): no rule decides them. */
  private async append<T extends SessionEventType>(type: T, data: SessionEventData[T]): Promise<void> {
    await this.commit(() => [{ type, data } as SessionEntry]);
  }

  /** Runs a write; a failed write stops the recording cleanly and is reported to the UI, then rethrown. */
  private async guardWrite<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (e instanceof DurableWriteError) {
        await this.abortRecording(e);
        this.emit('write_error', e);
      }
      throw e;
    }
  }

  private async flushIfDue(timerTick: boolean): Promise<void> {
    const rec = this.recording;
    if (!rec || rec.writer.pendingSamples === 0) return;
    const due = rec.writer.pendingSamples >= AUDIO_SAMPLE_RATE || Date.now() - rec.last_flush_ms >= FLUSH_INTERVAL_MS;
    if (!due && !timerTick) return;
    await this.flushAudio(rec);
  }

  /** WAV first (written, header patched, fsynced), then the event saying so: the log never claims unsaved audio. */
  private async flushAudio(rec: Recording): Promise<void> {
    const before = rec.writer.samples;
    const after = await this.guardWrite(() => rec.writer.flush());
    rec.last_flush_ms = Date.now();
    if (after > before) await this.append('audio_appended', { item_id: rec.item_id, offset_samples: before, samples: after - before });
  }

  private async stop(reason: RecordingStopReason): Promise<void> {
    const rec = this.recording!;
    await this.flushAudio(rec);
    clearInterval(rec.timer);
    this.recording = null;
    for (const utterance of rec.cutter.flush()) this.transcribe(rec, utterance);
    await this.guardWrite(() => this.store.closeAudio(rec.item_id));
    const { samples, audio, vad, takes } = await this.store.itemAudioSignals(rec.item_id, this.engine?.vad ?? null);
    await this.append('recording_stopped', { item_id: rec.item_id, total_samples: rec.writer.samples, reason, error: null });
    await this.append('signals_computed', {
      item_id: rec.item_id,
      audio_samples: samples,
      audio,
      vad,
      vad_model: vad ? this.engineIdentity.vad : null,
      takes,
    });
    this.emitItem(rec.item_id);
  }

  /** After a write error: keep what is on disk, log the stop if the log still takes it, never throw. */
  private async abortRecording(error: DurableWriteError): Promise<void> {
    const rec = this.recording;
    if (!rec) return;
    this.recording = null;
    clearInterval(rec.timer);
    await this.store.closeAudio(rec.item_id, { abandon: true }).catch(() => undefined);
    const logged = this.store.itemState(rec.item_id);
    const samples = Math.round(((logged?.audio_ms ?? 0) * AUDIO_SAMPLE_RATE) / 1000);
    await this.store
      .append('recording_stopped', { item_id: rec.item_id, total_samples: samples, reason: 'write_error', error: error.message })
      .then(
        (event) => this.emit('event', event),
        () => undefined,
      );
  }

  /** Sends a cut utterance to the engine; its outcome lands in the call queue, where its rule logs it. */
  private transcribe(rec: Pick<Recording, 'item_id' | 'offset_samples' | 'utterance_base'>, cut: Utterance): void {
    if (!this.engine) return;
    const utterance = rec.utterance_base + cut.index;
    this.transcriptions.reserve(rec.item_id, utterance + 1);
    const request: UtteranceRequest = {
      item_id: rec.item_id,
      utterance,
      start_sample: rec.offset_samples + cut.startSample,
      end_sample: rec.offset_samples + cut.endSample,
      pcm: cut.pcm,
    };
    const job = this.engine.transcriber
      .transcribe(request)
      .then((outcome) => this.calls.run(() => this.logTranscription(request, outcome)))
      .catch((e: unknown) => {
        if (e instanceof DurableWriteError) return;
        return this.calls
          .run(() => this.commit(() => decideTranscriptionFailed(request, (e as Error).message)))
          .then(
            () => undefined,
            () => undefined,
          );
      });
    this.transcriptions.track(request.item_id, job);
  }

  private async logTranscription(request: UtteranceRequest, outcome: UtteranceOutcome): Promise<void> {
    await this.commit((facts, at) => decideTranscriptionLanded(facts, this.rules, request, outcome, this.engineIdentity, at));
    if (outcome.kind === 'accepted') this.emit('item', this.store.itemState(request.item_id)!);
  }

  private emitItem(itemId: string): ItemSessionState {
    const state = this.store.itemState(itemId)!;
    this.emit('item', state);
    return state;
  }
}
