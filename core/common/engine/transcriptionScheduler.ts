import type { Segment } from '../transcript/segment';
import { resolveDecodeSettings } from './decodeSettings';
import { type DecodeSettings, type EngineTranscription, type RequestIdentity, type TranscriptionEngine } from './engineTypes';
import { AUDIO_SAMPLE_RATE } from '../audio/sampleRate';

/** One utterance of an item to transcribe; samples on the item's audio timeline. */
export interface UtteranceRequest {
  item_id: string;
  utterance: number;
  start_sample: number;
  end_sample: number;
  pcm: Float32Array;
}

export type UtteranceOutcome =
  /** the result matched the pending request in every identity field; segments are on the item's timeline */
  | { kind: 'accepted'; request_id: string; segments: Segment[]; model: { name: string; sha256: string } }
  /** cancelled before it ran, or its result arrived after the annotator left the item, or did not match */
  | { kind: 'stale'; request_id: string; reason: string };

export type SchedulerEvent =
  | { type: 'accepted'; identity: RequestIdentity; segments: Segment[]; transcribed: number }
  | { type: 'stale_result'; identity: RequestIdentity; reason: string }
  /** text of the utterance so far, for display only: never counted, never the transcript */
  | { type: 'partial'; identity: RequestIdentity; text: string; segments: Segment[]; elapsed_ms: number }
  /** a final started before the cut was dropped (speech resumed, or the cut fell elsewhere) */
  | { type: 'speculation_discarded'; identity: RequestIdentity; reason: string }
  /** a speculative final's text is ready (shown, not yet the transcript: the cut decides) */
  | { type: 'speculation_ready'; identity: RequestIdentity; text: string }
  /** the cut matched a speculative final: its result (or the job still running) is the utterance's */
  | { type: 'speculation_adopted'; identity: RequestIdentity; finished: boolean };

export interface TranscriptionSchedulerOptions {
  /** `abort` (optional) lets a final stop a running partial instead of waiting for it */
  engine: Pick<TranscriptionEngine, 'transcribe' | 'close'> & Partial<Pick<TranscriptionEngine, 'abort'>>;
  /** the model the engine loaded: its name for the session log and its file's sha256 */
  model: { name: string; sha256: string };
  /** sha256 (hex) of the PCM's Float32 bytes, the same digest the engine computes (core/node: sha256OfPcm) */
  hashAudio: (pcm: Float32Array) => string;
  settings?: Partial<DecodeSettings>;
  sampleRate?: number;
  /** start of every request_id (default: random, so ids stay unique across restarts of a session) */
  requestIdPrefix?: string;
  onEvent?: (event: SchedulerEvent) => void;
  /** wall clock for the partial budget (default performance.now / Date.now) */
  now?: () => number;
}

/** A final start the cut has not confirmed yet: the audio up to where the cut falls if the silence holds. */
export type SpeculativeRequest = UtteranceRequest;

/** What a partial needs: the open utterance's audio so far. */
export type PartialRequest = UtteranceRequest;

type JobKind = 'final' | 'speculative' | 'partial';

interface Job {
  kind: JobKind;
  identity: RequestIdentity;
  pcm: Float32Array | null;
  offsetMs: number;
  /** speculative jobs: where the utterance they guess at starts and ends */
  span?: { start_sample: number; end_sample: number };
  resolve: (outcome: UtteranceOutcome) => void;
  reject: (error: unknown) => void;
  /** speculative jobs: the engine's answer, kept until the cut adopts or discards it */
  result?: { ok: true; value: EngineTranscription } | { ok: false; error: unknown };
  discarded?: boolean;
  /** partial and speculative jobs: who shows the text (display only; a speculative final's text becomes the transcript only through the cut) */
  onText?: (text: string, identity: RequestIdentity) => void;
}

/**
 * Partial text comes about once a second: a partial starts at the first capture chunk at which, if it takes as
 * long as the last one, its text lands at least this long after the last text. With the app's 50 ms chunks
 * their texts come 0.85–1 s apart while the engine keeps up (a partial of a longer utterance takes a little
 * longer). Only when idle.
 */
export const PARTIAL_TEXT_INTERVAL_MS = 850;

const IDENTITY_FIELDS = ['request_id', 'item_id', 'utterance', 'audio_sha256', 'model_sha256'] as const;

/** Segment times moved from the utterance's start to the item's timeline. */
export function offsetSegments(segments: readonly Segment[], offsetMs: number): Segment[] {
  return segments.map((s) => {
    const moved: Segment = { t0_ms: s.t0_ms + offsetMs, t1_ms: s.t1_ms + offsetMs, text: s.text };
    if (s.tokens) moved.tokens = s.tokens.map((t) => ({ ...t, t0_ms: t.t0_ms + offsetMs, t1_ms: t.t1_ms + offsetMs }));
    return moved;
  });
}

/** Whether a request id is a partial's (`<prefix>p<n>`; a final's, speculative or not, is `<prefix><n>`). */
export function isPartialRequestId(requestId: string): boolean {
  return /-p\d+$/.test(requestId);
}

function randomPrefix(): string {
  return `tx-${Math.floor(Math.random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}-`;
}

/**
 * The queue between the live session and the engine, with identity before success.
 * - At most one job runs; the rest wait in order.
 * - Every request carries request_id, item_id, utterance index, audio sha256 and model sha256. A result is
 *   accepted only when its identity (echoed by the engine, hashes computed by the engine) equals the pending
 *   request in all five; the `transcribed` count grows only then.
 * - `cancelItem` (the annotator left the item): its queued requests end as stale at once, and its running
 *   request is no longer pending, so its late result is stale too. A result is never given to another item.
 */
export class TranscriptionScheduler {
  private readonly queue: Job[] = [];
  private readonly pending = new Map<string, Job>();
  /** speculative finals by `${item_id}/${utterance}` */
  private readonly speculations = new Map<string, Job>();
  private running: Job | null = null;
  private readonly now: () => number;
  private lastPartialEnd = -Infinity;
  /** when the last partial text was shown (an aborted partial shows none) */
  private lastPartialText = -Infinity;
  private lastPartialMs = 0;
  private partialBusyMs = 0;
  private finalBusyMs = 0;
  private partials = 0;
  private idleWaiters: Array<() => void> = [];
  private transcribed = 0;
  private nextId = 1;
  private closed = false;
  private readonly settings: DecodeSettings;
  private readonly sampleRate: number;
  private readonly prefix: string;

  constructor(private readonly options: TranscriptionSchedulerOptions) {
    this.settings = resolveDecodeSettings(options.settings);
    this.sampleRate = options.sampleRate ?? AUDIO_SAMPLE_RATE;
    this.prefix = options.requestIdPrefix ?? randomPrefix();
    const clock = (globalThis as { performance?: { now(): number } }).performance;
    this.now = options.now ?? (() => (clock ? clock.now() : Date.now()));
  }

  /** Partials shown so far (never stored; a count is all that may be logged). */
  get partialCount(): number {
    return this.partials;
  }

  /** Engine time spent on partials and on everything else (finals and speculation), ms. */
  get engineTime(): { partial_ms: number; final_ms: number } {
    return { partial_ms: this.partialBusyMs, final_ms: this.finalBusyMs };
  }

  /** True when the engine is idle, the next partial text is due (about a second after the last) and partials stay ≤ half the engine's time. */
  partialAllowed(): boolean {
    if (this.closed || this.running || this.queue.length > 0) return false;
    const now = this.now();
    // after a partial of d ms, wait at least d ms: partials never hold the engine more than half the time
    if (now - this.lastPartialEnd < this.lastPartialMs) return false;
    // the next text about a second after the last one; a partial a final or speculation aborted showed none
    return now - this.lastPartialText + this.lastPartialMs >= PARTIAL_TEXT_INTERVAL_MS;
  }

  /**
   * Re-transcribes the open utterance's audio so far, for display. Runs only when partialAllowed(); returns
   * false when skipped. The result is identity-checked like a final, reported as a 'partial' event, and never
   * counted, stored or handed to the parser. A final that arrives while a partial runs aborts it.
   */
  partial(request: PartialRequest, onText?: (text: string, identity: RequestIdentity) => void): boolean {
    if (!this.partialAllowed() || !(request.pcm instanceof Float32Array) || request.pcm.length === 0) return false;
    const job = this.newJob(
      'partial',
      request,
      () => undefined,
      () => undefined,
    );
    job.onText = onText;
    this.queue.push(job);
    this.pump();
    return true;
  }

  /**
   * Starts the final transcription of an utterance before its cut, from the audio up to where the cut falls
   * if the silence holds. `transcribe()` of the same item, utterance, span and audio adopts it (its result, or
   * the job still running); anything else discards it. Replaces an earlier speculation for the same utterance.
   */
  speculate(request: SpeculativeRequest, onText?: (text: string, identity: RequestIdentity) => void): void {
    if (this.closed || !(request.pcm instanceof Float32Array) || request.pcm.length === 0) return;
    const key = `${request.item_id}/${request.utterance}`;
    const earlier = this.speculations.get(key);
    if (earlier) {
      if (earlier.span!.start_sample === request.start_sample && earlier.span!.end_sample === request.end_sample) return;
      this.discard(earlier, 'replaced by a later speculation of the same utterance');
    }
    const job = this.newJob(
      'speculative',
      request,
      () => undefined,
      () => undefined,
    );
    job.onText = onText;
    job.span = { start_sample: request.start_sample, end_sample: request.end_sample };
    this.speculations.set(key, job);
    this.enqueue(job);
  }

  /** Speech resumed before the cut: drop the utterance's speculative final (a running one is aborted). */
  discardSpeculation(itemId: string, utterance: number, reason = 'speech resumed before the cut'): boolean {
    const job = this.speculations.get(`${itemId}/${utterance}`);
    if (!job) return false;
    this.discard(job, reason);
    return true;
  }

  /** The speculative final waiting for its cut, if any. */
  speculationFor(
    itemId: string,
    utterance: number,
  ): { request_id: string; start_sample: number; end_sample: number; finished: boolean } | null {
    const job = this.speculations.get(`${itemId}/${utterance}`);
    return job ? { request_id: job.identity.request_id, ...job.span!, finished: job.result !== undefined } : null;
  }

  private newJob(kind: JobKind, request: UtteranceRequest, resolve: Job['resolve'], reject: Job['reject']): Job {
    const identity: RequestIdentity = {
      request_id: `${this.prefix}${kind === 'partial' ? 'p' : ''}${this.nextId++}`,
      item_id: request.item_id,
      utterance: request.utterance,
      audio_sha256: this.options.hashAudio(request.pcm),
      model_sha256: this.options.model.sha256,
    };
    return { kind, identity, pcm: request.pcm, offsetMs: (request.start_sample * 1000) / this.sampleRate, resolve, reject };
  }

  /** Finals and speculation go before any queued partial, and stop a running partial. */
  private enqueue(job: Job): void {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i]!.kind === 'partial') this.queue.splice(i, 1);
    this.queue.push(job);
    if (this.running?.kind === 'partial') this.options.engine.abort?.();
    this.pump();
  }

  private discard(job: Job, reason: string): void {
    if (job.discarded) return;
    job.discarded = true;
    this.speculations.delete(`${job.identity.item_id}/${job.identity.utterance}`);
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    else if (this.running === job) this.options.engine.abort?.();
    this.options.onEvent?.({ type: 'speculation_discarded', identity: { ...job.identity }, reason });
  }

  /** The cut matches the speculation (same span and audio): the speculative job becomes this request's job. */
  private adopt(request: UtteranceRequest, resolve: Job['resolve'], reject: Job['reject']): boolean {
    const key = `${request.item_id}/${request.utterance}`;
    const job = this.speculations.get(key);
    if (!job) return false;
    const sameSpan = job.span!.start_sample === request.start_sample && job.span!.end_sample === request.end_sample;
    if (!sameSpan || job.identity.audio_sha256 !== this.options.hashAudio(request.pcm)) {
      this.discard(
        job,
        sameSpan
          ? 'the cut audio differs from the speculated audio'
          : `the cut fell at samples ${request.start_sample}–${request.end_sample}, not ${job.span!.start_sample}–${job.span!.end_sample}`,
      );
      return false;
    }
    this.speculations.delete(key);
    job.kind = 'final';
    job.resolve = resolve;
    job.reject = reject;
    this.pending.set(job.identity.request_id, job);
    this.options.onEvent?.({ type: 'speculation_adopted', identity: { ...job.identity }, finished: job.result !== undefined });
    const result = job.result;
    if (result) {
      if (result.ok) this.settle(job, result.value);
      else if (this.pending.delete(job.identity.request_id)) job.reject(result.error);
    }
    return true;
  }

  /** Results accepted so far. */
  get transcribedCount(): number {
    return this.transcribed;
  }

  /** Requests waiting to run (not counting the running one). */
  get queuedCount(): number {
    return this.queue.length;
  }

  /** The request being transcribed now, if any. */
  get runningRequest(): RequestIdentity | null {
    return this.running ? { ...this.running.identity } : null;
  }

  /** Queues an utterance; the promise settles with its own outcome only (rejects when the engine fails). */
  transcribe(request: UtteranceRequest): Promise<UtteranceOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'stale', request_id: '', reason: 'the transcriber is closed' });
    if (typeof request.item_id !== 'string' || request.item_id === '')
      return Promise.reject(new TypeError('request.item_id must be a non-empty string'));
    if (!Number.isSafeInteger(request.utterance) || request.utterance < 0)
      return Promise.reject(new TypeError('request.utterance must be an integer ≥ 0'));
    if (!Number.isSafeInteger(request.start_sample) || request.start_sample < 0)
      return Promise.reject(new TypeError('request.start_sample must be an integer ≥ 0'));
    if (!(request.pcm instanceof Float32Array) || request.pcm.length === 0)
      return Promise.reject(new TypeError('request.pcm must be a non-empty Float32Array'));
    return new Promise<UtteranceOutcome>((resolve, reject) => {
      if (this.adopt(request, resolve, reject)) return;
      const job = this.newJob('final', request, resolve, reject);
      this.pending.set(job.identity.request_id, job);
      this.enqueue(job);
    });
  }

  /** The annotator left the item: its queued requests end as stale now, its running one when it returns. */
  cancelItem(itemId: string): number {
    let cancelled = 0;
    for (const job of [...this.speculations.values()])
      if (job.identity.item_id === itemId) this.discard(job, 'the annotator left the item');
    for (let i = this.queue.length - 1; i >= 0; i--)
      if (this.queue[i]!.kind === 'partial' && this.queue[i]!.identity.item_id === itemId) this.queue.splice(i, 1);
    // a partial of the item still running is not shown when it returns
    if (this.running?.kind === 'partial' && this.running.identity.item_id === itemId) this.running.discarded = true;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i]!;
      if (job.identity.item_id !== itemId || job.kind !== 'final') continue;
      this.queue.splice(i, 1);
      this.pending.delete(job.identity.request_id);
      this.stale(job, 'cancelled: the annotator left the item before it was transcribed');
      cancelled++;
    }
    if (this.running?.identity.item_id === itemId && this.pending.delete(this.running.identity.request_id)) cancelled++;
    return cancelled;
  }

  /** Resolves when nothing is queued or running. */
  whenIdle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Ends every queued request as stale, lets the running one finish (its result is stale), closes the engine. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of [...this.speculations.values()]) this.discard(job, 'the session closed');
    for (const job of this.queue.splice(0)) {
      if (job.kind !== 'final') continue;
      this.pending.delete(job.identity.request_id);
      this.stale(job, 'the session closed before it was transcribed');
    }
    if (this.running) this.pending.delete(this.running.identity.request_id);
    await this.whenIdle();
    await this.options.engine.close();
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    const pcm = job.pcm!;
    job.pcm = null;
    this.running = job;
    const started = this.now();
    const { request_id, item_id, utterance } = job.identity;
    this.options.engine
      .transcribe({ pcm, settings: this.settings, identity: { request_id, item_id, utterance } })
      .then(
        (result) => this.finished(job, { ok: true, value: result }),
        (error: unknown) => this.finished(job, { ok: false, error }),
      )
      .finally(() => {
        const ms = this.now() - started;
        if (job.kind === 'partial') {
          this.partialBusyMs += ms;
          this.lastPartialMs = ms;
          this.lastPartialEnd = this.now();
        } else this.finalBusyMs += ms;
        this.running = null;
        if (this.queue.length > 0) this.pump();
        else for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
  }

  private finished(job: Job, result: NonNullable<Job['result']>): void {
    if (job.kind === 'partial') {
      if (result.ok) this.settlePartial(job, result.value);
      return;
    }
    if (job.kind === 'speculative') {
      // kept for the cut; a discarded one is simply dropped
      if (job.discarded) return;
      job.result = result;
      if (result.ok) this.showSpeculation(job, result.value);
      return;
    }
    if (result.ok) this.settle(job, result.value);
    else if (this.pending.delete(job.identity.request_id)) job.reject(result.error);
    else this.stale(job, `the annotator left the item and the transcription failed: ${(result.error as Error).message}`);
  }

  private settlePartial(job: Job, result: EngineTranscription): void {
    if (job.discarded || this.closed) return;
    const got = result.identity as Partial<RequestIdentity> | undefined;
    if (IDENTITY_FIELDS.some((field) => got?.[field] !== job.identity[field])) return;
    this.partials++;
    this.lastPartialText = this.now();
    const segments = offsetSegments(result.segments, job.offsetMs);
    const text = segments
      .map((s) => s.text)
      .join('')
      .trim();
    this.options.onEvent?.({ type: 'partial', identity: { ...job.identity }, text, segments, elapsed_ms: result.elapsed_ms });
    job.onText?.(text, { ...job.identity });
  }

  /**
   * A speculative final's text as soon as it is ready, for display only (identity-checked like a final): the log and
   * the parser get the text only when the cut adopts the job (`transcribe()` settles it then).
   */
  private showSpeculation(job: Job, result: EngineTranscription): void {
    if (this.closed || !job.onText) return;
    const got = result.identity as Partial<RequestIdentity> | undefined;
    if (IDENTITY_FIELDS.some((field) => got?.[field] !== job.identity[field])) return;
    const text = offsetSegments(result.segments, job.offsetMs)
      .map((s) => s.text)
      .join('')
      .trim();
    this.options.onEvent?.({ type: 'speculation_ready', identity: { ...job.identity }, text });
    job.onText(text, { ...job.identity });
  }

  private settle(job: Job, result: EngineTranscription): void {
    const expected = this.pending.get(job.identity.request_id);
    if (!expected) {
      this.stale(job, 'the annotator left the item while it was transcribed');
      return;
    }
    const got = result.identity as Partial<RequestIdentity> | undefined;
    const mismatched = IDENTITY_FIELDS.filter((field) => got?.[field] !== expected.identity[field]);
    this.pending.delete(job.identity.request_id);
    if (mismatched.length > 0) {
      this.stale(job, `the engine's result does not match the request (${mismatched.join(', ')} differ)`);
      return;
    }
    this.transcribed++;
    const segments = offsetSegments(result.segments, job.offsetMs);
    this.options.onEvent?.({ type: 'accepted', identity: { ...job.identity }, segments, transcribed: this.transcribed });
    job.resolve({ kind: 'accepted', request_id: job.identity.request_id, segments, model: { ...this.options.model } });
  }

  private stale(job: Job, reason: string): void {
    this.options.onEvent?.({ type: 'stale_result', identity: { ...job.identity }, reason });
    job.resolve({ kind: 'stale', request_id: job.identity.request_id, reason });
  }
}
