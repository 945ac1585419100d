import type { Segment } from '../transcript/segment';
import { resolveDecodeSettings } from './decodeSettings';
import { type DecodeSettings, ENGINE_SAMPLE_RATE, type EngineTranscription, type RequestIdentity, type TranscriptionEngine } from './engineTypes';

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
  | { type: 'stale_result'; identity: RequestIdentity; reason: string };

export interface TranscriptionSchedulerOptions {
  engine: Pick<TranscriptionEngine, 'transcribe' | 'close'>;
  /** the model the engine loaded: its name for the session log and its file's sha256 */
  model: { name: string; sha256: string };
  /** sha256 (hex) of the PCM's Float32 bytes, the same digest the engine computes (core/node: sha256OfPcm) */
  hashAudio: (pcm: Float32Array) => string;
  settings?: Partial<DecodeSettings>;
  sampleRate?: number;
  /** start of every request_id (default: random, so ids stay unique across restarts of a session) */
  requestIdPrefix?: string;
  onEvent?: (event: SchedulerEvent) => void;
}

interface Job {
  identity: RequestIdentity;
  pcm: Float32Array | null;
  offsetMs: number;
  resolve: (outcome: UtteranceOutcome) => void;
  reject: (error: unknown) => void;
}

const IDENTITY_FIELDS = ['request_id', 'item_id', 'utterance', 'audio_sha256', 'model_sha256'] as const;

/** Segment times moved from the utterance's start to the item's timeline. */
export function offsetSegments(segments: readonly Segment[], offsetMs: number): Segment[] {
  return segments.map((s) => {
    const moved: Segment = { t0_ms: s.t0_ms + offsetMs, t1_ms: s.t1_ms + offsetMs, text: s.text };
    if (s.tokens) moved.tokens = s.tokens.map((t) => ({ ...t, t0_ms: t.t0_ms + offsetMs, t1_ms: t.t1_ms + offsetMs }));
    return moved;
  });
}

function randomPrefix(): string {
  return `tx-${Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, '0')}-`;
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
  private running: Job | null = null;
  private idleWaiters: Array<() => void> = [];
  private transcribed = 0;
  private nextId = 1;
  private closed = false;
  private readonly settings: DecodeSettings;
  private readonly sampleRate: number;
  private readonly prefix: string;

  constructor(private readonly options: TranscriptionSchedulerOptions) {
    this.settings = resolveDecodeSettings(options.settings);
    this.sampleRate = options.sampleRate ?? ENGINE_SAMPLE_RATE;
    this.prefix = options.requestIdPrefix ?? randomPrefix();
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
    if (typeof request.item_id !== 'string' || request.item_id === '') return Promise.reject(new TypeError('request.item_id must be a non-empty string'));
    if (!Number.isSafeInteger(request.utterance) || request.utterance < 0) return Promise.reject(new TypeError('request.utterance must be an integer ≥ 0'));
    if (!Number.isSafeInteger(request.start_sample) || request.start_sample < 0) return Promise.reject(new TypeError('request.start_sample must be an integer ≥ 0'));
    if (!(request.pcm instanceof Float32Array) || request.pcm.length === 0) return Promise.reject(new TypeError('request.pcm must be a non-empty Float32Array'));
    const identity: RequestIdentity = {
      request_id: `${this.prefix}${this.nextId++}`,
      item_id: request.item_id,
      utterance: request.utterance,
      audio_sha256: this.options.hashAudio(request.pcm),
      model_sha256: this.options.model.sha256,
    };
    return new Promise<UtteranceOutcome>((resolve, reject) => {
      const job: Job = { identity, pcm: request.pcm, offsetMs: (request.start_sample * 1000) / this.sampleRate, resolve, reject };
      this.pending.set(identity.request_id, job);
      this.queue.push(job);
      this.pump();
    });
  }

  /** The annotator left the item: its queued requests end as stale now, its running one when it returns. */
  cancelItem(itemId: string): number {
    let cancelled = 0;
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i]!;
      if (job.identity.item_id !== itemId) continue;
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
    for (const job of this.queue.splice(0)) {
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
    const { request_id, item_id, utterance } = job.identity;
    this.options.engine
      .transcribe({ pcm, settings: this.settings, identity: { request_id, item_id, utterance } })
      .then(
        (result) => this.settle(job, result),
        (error: unknown) => {
          if (this.pending.delete(job.identity.request_id)) job.reject(error);
          else this.stale(job, `the annotator left the item and the transcription failed: ${(error as Error).message}`);
        },
      )
      .finally(() => {
        this.running = null;
        if (this.queue.length > 0) this.pump();
        else for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
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
