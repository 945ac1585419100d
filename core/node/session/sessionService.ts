import { EventEmitter } from 'node:events';
import type { LivePartial } from '../../common/engine/liveUtterances';
import type { UtteranceOutcome, UtteranceRequest } from '../../common/engine/transcriptionScheduler';
import type { Utterance } from '../../common/engine/utteranceCutter';
import { createTranscriptAnalyzer, type TranscriptAnalysis } from '../../common/analysis/transcriptAnalysis';
import type { Item } from '../../common/items/item';
import { parseStepJudgments, type StepReward } from '../../common/parser/stepJudgment';
import { reasoningWithheld, type ReasoningView } from '../../common/reasoning/reasoningReveal';
import { itemModelReasoning } from '../../common/reasoning/reasoningSteps';
import { PARSER_VERSION } from '../../common/parser/parserVersion';
import type { ItemSessionState, LabelSource } from '../../common/session/itemState';
import { joinSegments, timeAtOffset } from '../../common/transcript/joinSegments';
import type { Segment } from '../../common/transcript/segment';
import { voiceCommitmentsOf } from '../../common/session/voiceCommitments';
import type { SessionState } from '../../common/session/sessionFold';
import {
  type RecordingStopReason,
  type SessionEvent,
  type SessionEventData,
  type SessionEventType,
} from '../../common/session/sessionEvents';
import type { WavWriter } from '../audio/wavWriter';
import { sha256Hex } from '../fs/sha256';
import { SerialQueue } from '../../common/concurrency/serialQueue';
import { SessionUsageError, SpokenLabelRequiredError, TranscriptionPendingError } from '../../common/session/sessionRefusals';
import { SessionWriteError } from './sessionFs';
import type { LiveCutter, SessionEngine } from '../engine/sessionEngine';
import { SessionStore, type OpenSessionOptions } from './sessionStore';
import { audioSignalsOf } from './itemAudioSignals';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';

/** What the UI hears from the service. */
export interface SessionServiceEvents {
  /** every event appended to the log */
  event: [SessionEvent];
  /** an item's folded state changed (transcript, labels, audio, signals) */
  item: [ItemSessionState];
  /** a write failed; recording has stopped and what was saved before is intact (not 'error': an unheard 'error' would throw) */
  write_error: [SessionWriteError];
  /** completing this item waits for its transcriptions (item id), or stopped waiting (null) */
  finishing: [string | null];
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
  /** transcriptions sent and not yet logged, per item: completing an item waits for its own */
  private readonly inFlightByItem = new Map<string, Set<Promise<void>>>();
  private finishingItem: string | null = null;
  private readonly analyze: (segments: readonly Segment[]) => TranscriptAnalysis;
  private readonly nextUtterance = new Map<string, number>();
  /** every call and every landing transcription, one at a time; refused once the session is closed */
  private readonly calls = new SerialQueue(() => new SessionUsageError('the session is closed'));

  private constructor(
    readonly store: SessionStore,
    private readonly engine: SessionEngine | null,
    private readonly items: ReadonlyMap<string, Item> | null,
  ) {
    super();
    this.analyze = createTranscriptAnalyzer(store.project.config);
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

  /** the item whose completion is waiting for its transcriptions, if any */
  get finishing(): string | null {
    return this.finishingItem;
  }

  /** Transcriptions of this item sent and not yet logged. */
  pendingFor(itemId: string): number {
    return this.inFlightByItem.get(itemId)?.size ?? 0;
  }

  /** Navigates to an item (stopping a running recording first); a resumed session starts at the last one opened. */
  openItem(itemId: string): Promise<void> {
    return this.serial(async () => {
      if (this.items && !this.items.has(itemId)) throw new SessionUsageError(`item "${itemId}" is not in the project's items`);
      // Utterances of the item left behind are still transcribed and logged to it (the identity check keeps
      // every result on its own item): what the annotator said there, often the commit phrase, is never dropped.
      if (this.recording) await this.stop('item_changed');
      const item = this.items?.get(itemId);
      await this.append('item_opened', { item_id: itemId, text_sha256: item ? sha256Hex(item.text) : null });
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
      this.requireLabel(label);
      await this.appendLabelAct(itemId, { label, source, quote: null, start: null, end: null });
      return this.emitItem(itemId);
    });
  }

  /**
   * Marks the current item done (stopping a recording). It first waits (at most thinkaloud.complete_wait_seconds)
   * for the item's pending transcriptions, so "say it, then press Enter" works while the engine is behind. With
   * thinkaloud.require_spoken_label an item needs a voice commitment to be complete: click/key labels are kept but
   * do not complete it on their own.
   */
  async completeItem(options: { waitMs?: number } = {}): Promise<ItemSessionState> {
    const itemId = await this.serial(async () => {
      const id = this.requireItem('complete');
      if (this.recording) await this.stop('user');
      return id;
    });
    await this.waitForItem(itemId, options.waitMs ?? this.store.project.config.thinkaloud.complete_wait_seconds * 1000);
    return this.serial(async () => {
      const state = this.store.itemState(itemId);
      if (this.store.project.config.thinkaloud.require_spoken_label && (state?.commitments.length ?? 0) === 0) {
        throw new SpokenLabelRequiredError(
          `"${itemId}" needs a spoken label before it can be completed: say, for example, "I label this ${this.store.project.config.schema.labels[0]!.name.toLowerCase()}". Keys and clicks are kept but do not complete an item in this project.`,
        );
      }
      // Enter pressed again on a completed item whose label has not changed since completes nothing new
      if (!(state?.completed_at && !state.changed_after_completion)) await this.append('item_completed', { item_id: itemId });
      return this.emitItem(itemId);
    });
  }

  /**
   * Shows the current item's model reasoning if aloud.yaml `reasoning.reveal` allows it now (after_blind: once
   * the item has a label); the first showing is logged with the steps as shown. Withheld reasoning is not sent.
   */
  showReasoning(): Promise<ReasoningView> {
    return this.serial(async () => {
      const itemId = this.requireItem('show its reasoning');
      const { reveal, split } = this.store.project.config.reasoning;
      const model = this.items?.get(itemId) ? itemModelReasoning(this.items.get(itemId)!, split) : null;
      const state = this.store.itemState(itemId);
      const withheld = reasoningWithheld(reveal, model !== null && model.steps.length > 0, state?.blind_label ?? null, Boolean(state?.reasoning));
      if (withheld === null && !state?.reasoning && model) {
        const rec = this.recording?.item_id === itemId ? this.recording : null;
        const samples = rec ? rec.writer.samples + rec.writer.pendingSamples : Math.round(((state?.audio_ms ?? 0) * AUDIO_SAMPLE_RATE) / 1000);
        await this.append('reasoning_shown', { item_id: itemId, steps: model.steps, model_label: model.label, split: model.split, reveal, audio_samples: samples });
        this.emitItem(itemId);
      }
      const shown = this.store.itemState(itemId)?.reasoning ?? null;
      return { item_id: itemId, reveal, shown: shown ? { shown_at: shown.shown_at, model_label: shown.model_label, steps: shown.steps } : null, withheld };
    });
  }

  /** A step of the shown reasoning judged by a key or a click (null withdraws the step's judgment). */
  judgeStep(index: number, reward: StepReward | null, source: 'click' | 'key'): Promise<ItemSessionState> {
    return this.serial(async () => {
      const itemId = this.requireItem('judge a step');
      const shown = this.store.itemState(itemId)?.reasoning;
      if (!shown) throw new SessionUsageError(`the model's reasoning of "${itemId}" has not been shown: steps can be judged once it is`);
      if (!Number.isInteger(index) || index < 1 || index > shown.steps.length) {
        throw new SessionUsageError(`step ${index} is not a step of the shown reasoning (steps 1 to ${shown.steps.length})`);
      }
      await this.append('step_judged', { item_id: itemId, index, reward, source, kind: 'step', quote: null, start: null, end: null, utterance: null, audio_ms: null });
      return this.emitItem(itemId);
    });
  }

  /**
   * A reviewer's correction of one segment's text, as a layer: the verbatim segment is never changed, and no label
   * changes unless labels are re-derived from the corrected text (rederiveFromCorrections).
   */
  correctSegment(itemId: string, utterance: number, segment: number, text: string): Promise<ItemSessionState> {
    return this.serial(async () => {
      const original = this.store.utterancesOf(itemId).find((u) => u.utterance === utterance)?.segments[segment];
      if (!original) throw new SessionUsageError(`"${itemId}" has no segment ${segment} in utterance ${utterance} (is it transcribed, or was it superseded?)`);
      await this.append('transcript_corrected', {
        item_id: itemId,
        utterance,
        segment,
        original_sha256: sha256Hex(original.text),
        text,
        annotator: this.store.annotator,
      });
      return this.emitItem(itemId);
    });
  }

  /**
   * Re-derives the item's label from the corrected transcript with the current configuration: its final
   * commitment becomes a label act of source "correction" (logged like any other act). Nothing found → no act.
   */
  rederiveFromCorrections(itemId: string): Promise<{ state: ItemSessionState; label: string | null }> {
    return this.serial(async () => {
      const state = this.store.itemState(itemId);
      if (!state || state.transcript_corrected === null) throw new SessionUsageError(`"${itemId}" has no corrected transcript to derive a label from`);
      const parsed = this.analyze([{ t0_ms: 0, t1_ms: 0, text: state.transcript_corrected }]);
      const final = parsed.commitments.at(-1);
      if (final) await this.appendLabelAct(itemId, { label: final.label, source: 'correction', quote: final.quote, start: final.start, end: final.end, stem: final.stem });
      return { state: this.emitItem(itemId), label: final?.label ?? null };
    });
  }

  /**
   * Transcribes the item's recorded audio again (recorded without a model, or with another one): its current
   * utterances are marked superseded (kept, never deleted), the whole WAV goes through the cutter and the engine,
   * and the new utterances are logged and parsed like live ones. Resolves when they are logged.
   */
  async transcribeAgain(itemId: string, read: (absolutePath: string) => Promise<Float32Array>, reason: string): Promise<ItemSessionState> {
    const engine = this.engine;
    if (!engine) throw new SessionUsageError('no transcription engine is loaded: install or import a whisper model first');
    // The cut and the VAD signals run in the call queue, where no recording can start: both use the session's one
    // VAD, whose stream state a running recording's cutter depends on.
    const { cuts, base, signals } = await this.serial(async () => {
      if (this.recording) {
        throw new SessionUsageError(
          this.recording.item_id === itemId ? `"${itemId}" is being recorded; stop the recording first` : `"${this.recording.item_id}" is being recorded; stop the recording before transcribing "${itemId}" again`,
        );
      }
      const state = this.store.itemState(itemId);
      if (!state?.audio_path) throw new SessionUsageError(`"${itemId}" has no recorded audio to transcribe`);
      const pcm = await read(this.store.absoluteAudioPath(itemId));
      const cutter = engine.createCutter();
      const cut = [...cutter.push(pcm), ...cutter.flush()];
      // recorded before the VAD model was there: its vad_* signals come with this pass (over the audio just read)
      const vadSignals = engine.vad ? audioSignalsOf(pcm, AUDIO_SAMPLE_RATE, this.store.project.config.thinkaloud, engine.vad) : null;
      return { cuts: cut, base: this.utteranceBase(itemId), signals: vadSignals };
    });
    const requests: UtteranceRequest[] = cuts.map((cut) => ({
      item_id: itemId,
      utterance: base + cut.index,
      start_sample: cut.startSample,
      end_sample: cut.endSample,
      pcm: cut.pcm,
    }));
    this.nextUtterance.set(itemId, Math.max(this.nextUtterance.get(itemId) ?? 0, base + requests.length));
    const outcomes = await Promise.all(requests.map((r) => engine.transcriber.transcribe(r)));
    const stale = outcomes.find((o) => o.kind === 'stale');
    // All or nothing: a failed pass leaves the current transcript and its labels as they were.
    if (stale) throw new SessionUsageError(`"${itemId}" was not transcribed again: ${stale.reason}; its transcript and labels are unchanged`);
    return this.serial(async () => {
      const before = this.store.itemState(itemId);
      const current = this.store.utterancesOf(itemId).map((u) => u.utterance);
      await this.guardWrite(() =>
        this.store.appendAll([
          ...(current.length > 0 ? [{ type: 'transcripts_superseded' as const, data: { item_id: itemId, utterances: current, reason } }] : []),
          ...requests.map((request, i) => {
            const outcome = outcomes[i] as Extract<UtteranceOutcome, { kind: 'accepted' }>;
            return { type: 'utterance_transcribed' as const, data: this.transcribedData(request, outcome) };
          }),
          ...(signals?.vad ? [{ type: 'signals_computed' as const, data: { item_id: itemId, audio_samples: signals.samples, audio: signals.audio, vad: signals.vad } }] : []),
        ]),
      );
      await this.parseAndLog(itemId, new Set(requests.map((r) => r.utterance)), before?.final_label ?? null);
      return this.emitItem(itemId);
    });
  }

  addNote(text: string): Promise<void> {
    return this.serial(async () => {
      await this.append('note', { item_id: this.currentItem, text });
    });
  }

  /** Waits until the item's transcriptions sent so far are logged; after `waitMs`, TranscriptionPendingError. */
  private async waitForItem(itemId: string, waitMs: number): Promise<void> {
    const pending = () => [...(this.inFlightByItem.get(itemId) ?? [])];
    if (pending().length === 0) return;
    this.finishingItem = itemId;
    this.emit('finishing', itemId);
    const deadline = Date.now() + waitMs;
    try {
      while (pending().length > 0) {
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new TranscriptionPendingError(
            `"${itemId}" is still being transcribed (${pending().length} utterance(s) after ${(waitMs / 1000).toFixed(1)} s); its audio is saved — press Enter again in a moment`,
          );
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([Promise.all(pending()), new Promise((resolve) => (timer = setTimeout(resolve, Math.min(left, 2 ** 31 - 1))))]);
        clearTimeout(timer);
      }
    } finally {
      this.finishingItem = null;
      this.emit('finishing', null);
    }
  }

  /** Logs that the keep-talking cue was shown during the running recording (so analyses can tell prompted speech). */
  logCue(cue: 'keep_talking', silenceMs: number): Promise<void> {
    return this.serial(async () => {
      if (!this.recording) throw new SessionUsageError('the keep-talking cue is only shown while recording');
      const { item_id, writer } = this.recording;
      // where the cue falls on the item's audio timeline: every sample the writer holds so far
      const audio_ms = Math.round(((writer.samples + writer.pendingSamples) * 1000) / AUDIO_SAMPLE_RATE);
      await this.append('cue_shown', { item_id, cue, silence_ms: Math.round(silenceMs), audio_ms });
    });
  }

  /** Resolves when every transcription sent so far has been logged (or found stale). */
  async drainTranscriptions(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Stops a running recording, waits for transcriptions, closes files and releases the lock. */
  async close(): Promise<void> {
    if (this.calls.closed) return;
    await this.serial(async () => {
      if (this.recording) await this.stop('closed').catch(() => undefined);
    }).catch(() => undefined);
    await this.drainTranscriptions();
    await this.calls.close();
    await this.engine?.transcriber.close();
    await this.store.close();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    return this.calls.run(task);
  }

  private requireLabel(label: string): void {
    const known = this.store.project.config.schema.labels.map((l) => l.name);
    if (!known.includes(label)) throw new SessionUsageError(`"${label}" is not a label of this project (labels: ${known.join(', ')})`);
  }

  /**
   * Logs one label act and, when it changes the item's final label, a label_changed record (saying when the
   * item was already completed: a change after completion is never silent).
   */
  private async appendLabelAct(
    itemId: string,
    act: { label: string; source: LabelSource; quote: string | null; start: number | null; end: number | null; stem?: string | null; audio_ms?: number | null; utterance?: number | null },
    options: { recordChange: boolean } = { recordChange: true },
  ): Promise<void> {
    const before = this.store.itemState(itemId)?.final_label ?? null;
    await this.append('label_committed', {
      item_id: itemId,
      label: act.label,
      source: act.source,
      quote: act.quote,
      start: act.start,
      end: act.end,
      stem: act.stem ?? null,
      audio_ms: act.audio_ms ?? null,
      utterance: act.utterance ?? null,
      parser_version: act.source === 'voice' || act.source === 'correction' ? PARSER_VERSION : null,
    });
    if (options.recordChange) await this.recordChange(itemId, before, act.source);
  }

  /** A label_changed record when the item's final label is no longer `before` (never silent, also after completion). */
  private async recordChange(itemId: string, before: string | null, source: LabelSource): Promise<void> {
    const after = this.store.itemState(itemId)!;
    if (before !== null && after.final_label !== null && before !== after.final_label) {
      await this.append('label_changed', { item_id: itemId, from: before, to: after.final_label, source, after_completion: after.completed_at !== null });
    }
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
    const { samples, audio, vad } = await this.store.itemAudioSignals(rec.item_id, this.engine?.vad ?? null);
    await this.append('recording_stopped', { item_id: rec.item_id, total_samples: rec.writer.samples, reason, error: null });
    await this.append('signals_computed', { item_id: rec.item_id, audio_samples: samples, audio, vad });
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
    const samples = Math.round(((logged?.audio_ms ?? 0) * AUDIO_SAMPLE_RATE) / 1000);
    await this.store
      .append('recording_stopped', { item_id: rec.item_id, total_samples: samples, reason: 'write_error', error: error.message })
      .then((event) => this.emit('event', event), () => undefined);
  }

  private transcribe(rec: Pick<Recording, 'item_id' | 'offset_samples' | 'utterance_base'>, cut: Utterance): void {
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
      .then((outcome) => this.serial(() => this.logTranscription(request, outcome)))
      .catch((e: unknown) => {
        if (e instanceof SessionWriteError) return;
        return this.serial(() =>
          this.append('stale_result', { item_id: request.item_id, request_id: `utterance-${utterance}`, reason: `transcription failed: ${(e as Error).message}` }),
        ).catch(() => undefined);
      })
      .finally(() => {
        this.inFlight.delete(job);
        this.inFlightByItem.get(request.item_id)?.delete(job);
      });
    this.inFlight.add(job);
    let forItem = this.inFlightByItem.get(request.item_id);
    if (!forItem) this.inFlightByItem.set(request.item_id, (forItem = new Set()));
    forItem.add(job);
  }

  private async logTranscription(request: UtteranceRequest, outcome: UtteranceOutcome): Promise<void> {
    if (outcome.kind === 'stale') {
      await this.append('stale_result', { item_id: request.item_id, request_id: outcome.request_id, reason: outcome.reason });
      return;
    }
    await this.append('utterance_transcribed', this.transcribedData(request, outcome));
    await this.parseAndLog(request.item_id, new Set([request.utterance]));
    await this.logVoiceStepJudgments(request, outcome.segments);
    this.emit('item', this.store.itemState(request.item_id)!);
  }

  private transcribedData(request: UtteranceRequest, outcome: Extract<UtteranceOutcome, { kind: 'accepted' }>): SessionEventData['utterance_transcribed'] {
    return {
      item_id: request.item_id,
      utterance: request.utterance,
      request_id: outcome.request_id,
      start_sample: request.start_sample,
      end_sample: request.end_sample,
      segments: outcome.segments,
      model: { name: outcome.model.name, sha256: outcome.model.sha256, whisper_cpp: this.engine?.whisperCpp ?? null },
    };
  }

  /**
   * The parser runs once, here, when transcriptions land: over the item's current transcript with the session's
   * configuration (a phrase may begin in an earlier utterance). What it found is logged — its diagnostics, and each
   * commitment that ends in the utterances that just landed, with its quote, offsets, audio time and utterance — so
   * the fold reads labels and never parses. Earlier utterances keep the labels logged when they landed, whatever
   * the configuration is now (only `session reparse` re-derives them). `finalBefore`: the final label before the
   * batch, so a batch that changes it gets one label_changed record.
   */
  private async parseAndLog(itemId: string, landed: ReadonlySet<number>, finalBefore?: string | null): Promise<void> {
    const found = voiceCommitmentsOf(this.store.utterancesOf(itemId), this.analyze);
    await this.append('transcript_parsed', { item_id: itemId, parser_version: PARSER_VERSION, config_sha256: this.store.configSha256, diagnostics: found.diagnostics });
    const batch = finalBefore !== undefined;
    for (const c of found.commitments) {
      if (c.utterance !== null && landed.has(c.utterance)) await this.appendLabelAct(itemId, { ...c, source: 'voice' }, { recordChange: !batch });
    }
    if (batch) await this.recordChange(itemId, finalBefore, 'voice');
  }

  /**
   * Step judgments spoken in one utterance, logged as it lands. Only phrases begun after the reasoning was shown
   * count (nobody judges steps they have not seen); a phrase split across two utterances is not heard.
   */
  private async logVoiceStepJudgments(request: UtteranceRequest, segments: readonly Segment[]): Promise<void> {
    const shown = this.store.itemState(request.item_id)?.reasoning;
    if (!shown || shown.steps.length === 0) return;
    const { thinkaloud } = this.store.project.config;
    const joined = joinSegments(segments);
    const { judgments } = parseStepJudgments(joined.text, { languages: thinkaloud.languages, stepCount: shown.steps.length, fillers: thinkaloud.fillers });
    for (const j of judgments) {
      if ((timeAtOffset(joined.spans, j.start) ?? 0) < shown.audio_ms) continue;
      await this.append('step_judged', {
        item_id: request.item_id,
        index: j.index,
        reward: j.reward,
        source: 'voice',
        kind: j.kind,
        quote: j.quote,
        start: j.start,
        end: j.end,
        utterance: request.utterance,
        audio_ms: timeAtOffset(joined.spans, j.end),
      });
    }
  }

  private emitItem(itemId: string): ItemSessionState {
    const state = this.store.itemState(itemId)!;
    this.emit('item', state);
    return state;
  }
}

