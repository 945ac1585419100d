import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { LivePartial, LiveRecordingContext } from '../../common/engine/liveUtterances';
import type { UtteranceOutcome, UtteranceRequest } from '../../common/engine/transcriptionScheduler';
import type { Utterance, UtteranceCutter } from '../../common/engine/utteranceCutter';
import type { Item } from '../../common/items/item';
import type { ItemSessionState, LabelSource } from '../../common/session/itemState';
import type { SessionState } from '../../common/session/sessionFold';
import { SESSION_SAMPLE_RATE, type RecordingStopReason, type SessionEvent, type SessionEventData, type SessionEventType } from '../../common/session/sessionEvents';
import type { WavWriter } from '../audio/wavWriter';
import { SessionWriteError } from './sessionFs';
import { SessionStore, type OpenSessionOptions } from './sessionStore';

/** The live utterance cutter of one recording (the engine's utteranceCutter). */
export type LiveCutter = Pick<UtteranceCutter, 'push' | 'flush'>;

/**
 * What the session needs of the engine: transcribe utterances off the main thread, in order, with identity
 * checks: the engine's TranscriptionScheduler provides it. Segment times come back on the item timeline.
 */
export interface SessionTranscriber {
  transcribe(request: UtteranceRequest): Promise<UtteranceOutcome>;
  /** the annotator left the item: its queued requests end as stale */
  cancelItem(itemId: string): void;
  close(): Promise<void>;
}

export interface SessionEngine {
  transcriber: SessionTranscriber;
  /** with a context, the cutter may also show partial text and start finals early (engine's LiveUtterances) */
  createCutter(context?: LiveRecordingContext): LiveCutter;
  /** the loaded model, for the UI and provenance */
  model?: { name: string; sha256: string };
}

/** Completing an item needs a spoken label (thinkaloud.require_spoken_label) and it has none. */
export class SpokenLabelRequiredError extends Error {
  override name = 'SpokenLabelRequiredError';
}

/** A call that does not fit the session's state (no item open, not recording, unknown item or label). */
export class SessionUsageError extends Error {
  override name = 'SessionUsageError';
}

/** What the UI hears from the service. */
export interface SessionServiceEvents {
  /** every event appended to the log */
  event: [SessionEvent];
  /** an item's folded state changed (transcript, labels, audio, signals) */
  item: [ItemSessionState];
  /** a write failed; recording has stopped and what was saved before is intact (not 'error': an unheard 'error' would throw) */
  write_error: [SessionWriteError];
  /** text of the utterance being spoken, for display only: never logged, never parsed */
  partial: [LivePartial];
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
}

/** Audio is made durable (flushed, fsynced, logged) at least this often while recording. */
export const FLUSH_INTERVAL_MS = 1000;

/**
 * The one session API the UI and headless ingest call: navigate items, record audio, label by click or key,
 * complete items. Audio goes to the item's WAV (durable at least every second), through the live utterance
 * cutter to the transcriber; each transcription is logged, and the parser's new voice commitments with it.
 */
export class SessionService extends EventEmitter<SessionServiceEvents> {
  private recording: Recording | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly nextUtterance = new Map<string, number>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    readonly store: SessionStore,
    private readonly engine: SessionEngine | null,
    private readonly items: ReadonlyMap<string, Item> | null,
  ) {
    super();
  }

  /**
   * Opens (recovering if needed) an annotator's session. `items` restricts navigation to the project's items;
   * without `engine` audio is stored but not transcribed.
   */
  static async open(options: OpenSessionOptions & { engine?: SessionEngine | null; items?: readonly Item[] }): Promise<SessionService> {
    const store = await SessionStore.open(options);
    const items = options.items ? new Map(options.items.map((item) => [item.id, item])) : null;
    return new SessionService(store, options.engine ?? null, items);
  }

  state(): SessionState {
    return this.store.state();
  }

  itemState(itemId: string): ItemSessionState | null {
    return this.store.itemState(itemId);
  }

  get currentItem(): string | null {
    return this.store.state().current_item;
  }

  /** transcriptions sent and not yet logged (or found stale) */
  get pendingTranscriptions(): number {
    return this.inFlight.size;
  }

  get isRecording(): boolean {
    return this.recording !== null;
  }

  /** Navigates to an item (stopping a running recording first); a resumed session starts at the last one opened. */
  openItem(itemId: string): Promise<void> {
    return this.serial(async () => {
      if (this.items && !this.items.has(itemId)) throw new SessionUsageError(`item "${itemId}" is not in the project's items`);
      const previous = this.currentItem;
      if (this.recording) await this.stop('item_changed');
      if (previous !== null && previous !== itemId) this.engine?.transcriber.cancelItem(previous);
      const item = this.items?.get(itemId);
      await this.append('item_opened', { item_id: itemId, ...(item ? { text_sha256: createHash('sha256').update(item.text).digest('hex') } : {}) });
    });
  }

  /** Starts recording the current item; audio continues the item's WAV after what it already holds. */
  startRecording(options: { device?: string | null } = {}): Promise<void> {
    return this.serial(async () => {
      const itemId = this.requireItem('record');
      if (this.recording) throw new SessionUsageError(`already recording "${this.recording.item_id}"`);
      const writer = await this.guardWrite(() => this.store.audioWriter(itemId));
      const offset = writer.samples;
      await this.append('recording_started', { item_id: itemId, audio_path: this.store.audioPath(itemId), offset_samples: offset, device: options.device ?? null });
      const timer = setInterval(() => {
        void this.serial(() => this.flushIfDue(true)).catch(() => undefined);
      }, FLUSH_INTERVAL_MS);
      timer.unref();
      const base = this.utteranceBase(itemId);
      const live = { item_id: itemId, utterance_base: base, offset_samples: offset, onPartial: (p: LivePartial) => this.emit('partial', p) };
      this.recording = {
        item_id: itemId,
        writer,
        cutter: this.engine ? this.engine.createCutter(live) : { push: () => [], flush: () => [] },
        offset_samples: offset,
        utterance_base: base,
        last_flush_ms: Date.now(),
        timer,
      };
    });
  }

  /** Adds captured audio (16 kHz mono, full scale 1.0) to the running recording. */
  appendAudio(pcm: Float32Array): Promise<void> {
    return this.serial(async () => {
      const rec = this.recording;
      if (!rec) throw new SessionUsageError('not recording: call startRecording first');
      rec.writer.append(pcm);
      for (const utterance of rec.cutter.push(pcm)) this.transcribe(rec, utterance);
      await this.flushIfDue(false);
    });
  }

  /** Stops the recording: the last audio is flushed, the last utterance sent, audio signals computed and logged. */
  stopRecording(reason: RecordingStopReason = 'user'): Promise<void> {
    return this.serial(async () => {
      if (!this.recording) throw new SessionUsageError('not recording');
      await this.stop(reason);
    });
  }

  /** A label given by a click or a key. Returns the item's state after it. */
  commitLabel(label: string, source: Exclude<LabelSource, 'voice'>): Promise<ItemSessionState> {
    return this.serial(async () => {
      const itemId = this.requireItem('label');
      const known = this.store.project.config.schema.labels.map((l) => l.name);
      if (!known.includes(label)) throw new SessionUsageError(`"${label}" is not a label of this project (labels: ${known.join(', ')})`);
      const before = this.store.itemState(itemId)?.final_label ?? null;
      await this.append('label_committed', { item_id: itemId, label, source, quote: null, start: null, end: null, stem: null });
      if (before !== null && before !== label) await this.append('label_changed', { item_id: itemId, from: before, to: label, source });
      return this.emitItem(itemId);
    });
  }

  /**
   * Marks the current item done (stopping a recording). With thinkaloud.require_spoken_label an item needs a
   * voice commitment to be complete: click/key labels are kept but do not complete it on their own.
   */
  completeItem(): Promise<ItemSessionState> {
    return this.serial(async () => {
      const itemId = this.requireItem('complete');
      if (this.recording) await this.stop('user');
      const state = this.store.itemState(itemId);
      if (this.store.project.config.thinkaloud.require_spoken_label && (state?.commitments.length ?? 0) === 0) {
        throw new SpokenLabelRequiredError(
          `item "${itemId}" has no spoken label yet: say it, e.g. "I label this ${this.store.project.config.schema.labels[0]!.name.toLowerCase()}" (thinkaloud.require_spoken_label is true; set it to false in aloud.yaml to complete items labelled by key or click)`,
        );
      }
      await this.append('item_completed', { item_id: itemId });
      return this.emitItem(itemId);
    });
  }

  addNote(text: string): Promise<void> {
    return this.serial(async () => {
      await this.append('note', { item_id: this.currentItem, text });
    });
  }

  /** Resolves when every transcription sent so far has been logged (or found stale). */
  async drainTranscriptions(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Stops a running recording, waits for transcriptions, closes files and releases the lock. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.serial(async () => {
      if (this.recording) await this.stop('closed').catch(() => undefined);
    }).catch(() => undefined);
    await this.drainTranscriptions();
    this.closed = true;
    await this.engine?.transcriber.close();
    await this.store.close();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new SessionUsageError('the session is closed');
      return task();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private requireItem(what: string): string {
    const itemId = this.currentItem;
    if (itemId === null) throw new SessionUsageError(`no item is open: open one before you ${what}`);
    return itemId;
  }

  /** Utterance indices go on across recordings of an item: after those logged and those still in flight. */
  private utteranceBase(itemId: string): number {
    return Math.max(this.nextUtterance.get(itemId) ?? 0, this.store.nextUtteranceIndex(itemId));
  }

  private async append<T extends SessionEventType>(type: T, data: SessionEventData[T]): Promise<void> {
    const event = await this.guardWrite(() => this.store.append(type, data));
    this.emit('event', event);
  }

  /** Runs a write; a failed write stops the recording cleanly and is reported to the UI, then rethrown. */
  private async guardWrite<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (e instanceof SessionWriteError) {
        await this.abortRecording(e);
        this.emit('write_error', e);
      }
      throw e;
    }
  }

  private async flushIfDue(timerTick: boolean): Promise<void> {
    const rec = this.recording;
    if (!rec || rec.writer.pendingSamples === 0) return;
    const due = rec.writer.pendingSamples >= SESSION_SAMPLE_RATE || Date.now() - rec.last_flush_ms >= FLUSH_INTERVAL_MS;
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
    const { samples, audio } = await this.store.itemAudioSignals(rec.item_id);
    await this.append('recording_stopped', { item_id: rec.item_id, total_samples: rec.writer.samples, reason, error: null });
    await this.append('signals_computed', { item_id: rec.item_id, audio_samples: samples, audio });
    this.emitItem(rec.item_id);
  }

  /** After a write error: keep what is on disk, log the stop if the log still takes it, never throw. */
  private async abortRecording(error: SessionWriteError): Promise<void> {
    const rec = this.recording;
    if (!rec) return;
    this.recording = null;
    clearInterval(rec.timer);
    await this.store.closeAudio(rec.item_id, { abandon: true }).catch(() => undefined);
    const logged = this.store.itemState(rec.item_id);
    const samples = Math.round(((logged?.audio_ms ?? 0) * SESSION_SAMPLE_RATE) / 1000);
    await this.store
      .append('recording_stopped', { item_id: rec.item_id, total_samples: samples, reason: 'write_error', error: error.message })
      .then((event) => this.emit('event', event), () => undefined);
  }

  private transcribe(rec: Recording, cut: Utterance): void {
    if (!this.engine) return;
    const utterance = rec.utterance_base + cut.index;
    this.nextUtterance.set(rec.item_id, Math.max(this.nextUtterance.get(rec.item_id) ?? 0, utterance + 1));
    const request: UtteranceRequest = {
      item_id: rec.item_id,
      utterance,
      start_sample: rec.offset_samples + cut.startSample,
      end_sample: rec.offset_samples + cut.endSample,
      pcm: cut.pcm,
    };
    const job = this.engine.transcriber
      .transcribe(request)
      .then((outcome) => this.serialIgnoringClose(() => this.logTranscription(request, outcome)))
      .catch((e: unknown) => {
        if (e instanceof SessionWriteError) return;
        return this.serialIgnoringClose(() =>
          this.append('stale_result', { item_id: request.item_id, request_id: `utterance-${utterance}`, reason: `transcription failed: ${(e as Error).message}` }),
        ).catch(() => undefined);
      })
      .finally(() => this.inFlight.delete(job));
    this.inFlight.add(job);
  }

  /** Results may land while close() drains: they are still logged. */
  private serialIgnoringClose<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async logTranscription(request: UtteranceRequest, outcome: UtteranceOutcome): Promise<void> {
    if (outcome.kind === 'stale') {
      await this.append('stale_result', { item_id: request.item_id, request_id: outcome.request_id, reason: outcome.reason });
      return;
    }
    const before = this.store.itemState(request.item_id);
    await this.append('utterance_transcribed', {
      item_id: request.item_id,
      utterance: request.utterance,
      request_id: outcome.request_id,
      start_sample: request.start_sample,
      end_sample: request.end_sample,
      segments: outcome.segments,
      model: outcome.model,
    });
    const after = this.store.itemState(request.item_id)!;
    const seen = new Set((before?.commitments ?? []).map((c) => `${c.start}:${c.end}:${c.label}`));
    for (const c of after.commitments) {
      if (seen.has(`${c.start}:${c.end}:${c.label}`)) continue;
      await this.append('label_committed', { item_id: request.item_id, label: c.label, source: 'voice', quote: c.quote, start: c.start, end: c.end, stem: c.stem });
    }
    const from = before?.final_label ?? null;
    if (from !== null && after.final_label !== null && from !== after.final_label) {
      await this.append('label_changed', { item_id: request.item_id, from, to: after.final_label, source: 'voice' });
    }
    this.emit('item', after);
  }

  private emitItem(itemId: string): ItemSessionState {
    const state = this.store.itemState(itemId)!;
    this.emit('item', state);
    return state;
  }
}
