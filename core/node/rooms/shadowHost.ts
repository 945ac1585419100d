import { RoomChanges } from './roomChanges';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createTranscriptAnalyzer } from '../../common/analysis/transcriptAnalysis';
import { AUDIO_SAMPLE_RATE } from '../../common/audio/sampleRate';
import { SerialQueue } from '../../common/concurrency/serialQueue';
import type { Item } from '../../common/items/item';
import type { ProjectConfig } from '../../common/project/projectConfig';
import { LivePauseWatch } from '../../common/rooms/livePauses';
import { RoomRuleError } from '../../common/rooms/roomFold';
import type { ShadowFeed } from '../../common/rooms/shadowFeed';
import { SHADOW_AUDIO_SECONDS, type ShadowEntry, type ShadowEvent, type ShadowEventData } from '../../common/rooms/shadowEvents';
import {
  applyShadowEvent,
  decideAudioShared,
  decideCloseShadow,
  decideExpertGone,
  decideFeed,
  decidePause,
  decidePractice,
  decideRemoveTrainee,
  decideTraineeJoin,
  foldShadowRoom,
  isLive,
  type ShadowContext,
  type ShadowState,
} from '../../common/rooms/shadowFold';
import { shadowMetrics, shadowView, type ShadowMetrics, type ShadowView, type ShadowViewer } from '../../common/rooms/shadowViews';
import { newRoomCode } from './roomHost';
import { lockRoom, RoomLogWriter, roomPaths } from './roomLogFile';
import { newShadowEvent } from './shadowLogFile';
import { say } from '../../common/refusal/refusalMessage';

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The project a shadow room shows items of: their texts, the labels, and the think-aloud settings its rules use. */
export interface ShadowProject {
  dir: string;
  config: Pick<ProjectConfig, 'name' | 'schema' | 'thinkaloud' | 'reasoning'>;
  items: readonly Item[];
}

/** Audio she shares, kept for trainees to fetch: the item on view, from start_sample, as 16-bit samples. */
interface SharedAudio {
  item_id: string;
  start_sample: number;
  samples: Int16Array[];
  length: number;
}

const MAX_SHARED_SAMPLES = SHADOW_AUDIO_SECONDS * AUDIO_SAMPLE_RATE;

function toPcm16(pcm: Float32Array): Int16Array {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i]! * 32767)));
  return out;
}

/**
 * One shadow room: its state is the fold of its log, every decision is logged (and fsynced) before it is applied.
 * The expert's session feeds it one way (feed); trainees join, practise, and watch through views that hide what
 * they may not see yet. Her audio is kept in memory only while she shares it, and never logged. The expert's token
 * (for the panel link of `aloud room shadow`) lives only in this process.
 */
/** The events that change what the expert's panel shows: trainees coming and going, and her audio shared or not. */
const ROSTER_EVENTS: ReadonlySet<string> = new Set(['trainee_joined', 'trainee_removed', 'audio_shared']);

export class ShadowHost {
  /** every decision, one at a time: each sees the state the previous one left */
  private readonly requests = new SerialQueue(() => new RoomRuleError(409, say('refusal.rooms.theRoomIsNoLonger')));
  readonly leadToken = randomBytes(24).toString('base64url');
  private readonly tokenIndex = new Map<string, string>();
  private readonly context: ShadowContext;
  private metricsCache: { version: number; metrics: ShadowMetrics } | null = null;
  private pauses: { item_id: string; watch: LivePauseWatch } | null = null;
  private audio: SharedAudio | null = null;
  private readonly changes = new RoomChanges();
  private readonly rosterListeners = new Set<() => void>();

  private constructor(
    private readonly project: ShadowProject,
    private readonly writer: RoomLogWriter<ShadowEvent>,
    private state: ShadowState,
    private readonly unlock: () => Promise<void>,
  ) {
    const analyze = createTranscriptAnalyzer(project.config);
    this.context = {
      items: new Map(project.items.map((i) => [i.id, { text: i.text, ...(i.context !== undefined ? { context: i.context } : {}) }])),
      commitSpans: (text) => analyze(text).commitments.map((c) => ({ start: c.start, end: c.end })),
    };
  }

  /** A new shadow room of the project (expert null: the first session that feeds it). */
  static async create(project: ShadowProject, options: { expert: string | null; maxMembers: number; code?: string }): Promise<ShadowHost> {
    const code = options.code ?? newRoomCode();
    const schema = project.config.schema;
    const opened: ShadowEventData['shadow_opened'] = {
      code,
      project: project.config.name,
      expert: options.expert,
      labels: schema.labels.map((l) => l.name),
      level: schema.ordered ? 'ordinal' : 'nominal',
      max_members: options.maxMembers,
    };
    const first = newShadowEvent(1, 'shadow_opened', opened);
    const writer = await RoomLogWriter.create<ShadowEvent>(project.dir, code, first);
    const unlock = await lockRoom(roomPaths(project.dir, code).lock);
    return new ShadowHost(project, writer, foldShadowRoom([first]), unlock);
  }

  get code(): string {
    return this.state.code;
  }

  get seq(): number {
    return this.state.seq;
  }

  get logFile(): string {
    return this.writer.file;
  }

  /** read-only access for callers that report on the room */
  snapshot(): ShadowState {
    return this.state;
  }

  /** The events of one decision: written and fsynced together, then applied in order, then waiting pages are woken. */
  private async log(entries: readonly ShadowEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const now = new Date();
    const events = entries.map((entry, i) => newShadowEvent(this.state.seq + 1 + i, entry.type, entry.data as never, now));
    await this.writer.appendAll(events);
    for (const event of events) this.state = applyShadowEvent(this.state, event, this.writer.file);
    this.followAudio();
    this.wake();
    if (entries.some((entry) => ROSTER_EVENTS.has(entry.type))) for (const listener of [...this.rosterListeners]) listener();
  }

  /** Hears who is in the room and whether her audio is shared changing (what the expert's panel shows; not her own feed). */
  onRosterChange(listener: () => void): () => void {
    this.rosterListeners.add(listener);
    return () => this.rosterListeners.delete(listener);
  }

  /** Pauses and shared audio follow the item on view and its recording; what no longer applies is dropped. */
  private followAudio(): void {
    const current = this.state.current;
    const item = current === null ? null : this.state.items.get(current)!;
    const recordingLive = item !== null && isLive(this.state, item.item_id) && item.recording;
    if (!recordingLive || this.pauses?.item_id !== current) this.pauses = null;
    if (!this.state.audio_shared || current === null || !isLive(this.state, current) || this.audio?.item_id !== current) this.audio = null;
  }

  private wake(): void {
    this.changes.wake();
  }

  /** The viewer a token belongs to, or null (an unknown token, or a removed trainee). */
  authenticate(token: string): ShadowViewer | null {
    if (token.length === 0) return null;
    const a = Buffer.from(token);
    const b = Buffer.from(this.leadToken);
    if (a.length === b.length && timingSafeEqual(a, b)) return { role: 'expert' };
    const id = this.tokenIndex.get(sha256(token));
    if (id === undefined || this.state.trainees.get(id)?.removed !== false) return null;
    return { role: 'trainee', member_id: id };
  }

  /** The viewer is still in the room (a trainee the expert removed is not): asked again after a poll waited. */
  admits(viewer: ShadowViewer): boolean {
    return viewer.role === 'expert' || this.state.trainees.get(viewer.member_id)?.removed === false;
  }

  join(name: string): Promise<{ member_id: string; name: string; token: string }> {
    return this.requests.run(async () => {
      const token = randomBytes(24).toString('base64url');
      const memberId = `t${randomBytes(6).toString('hex')}`;
      const data = decideTraineeJoin(this.state, name, memberId, sha256(token));
      await this.log([{ type: 'trainee_joined', data }]);
      this.tokenIndex.set(data.token_sha256, memberId);
      return { member_id: memberId, name: data.name, token };
    });
  }

  practise(memberId: string, itemId: string, label: string | null): Promise<void> {
    return this.requests.run(() =>
      this.log([{ type: 'practice_vote', data: decidePractice(this.state, memberId, itemId, label, Date.now()) }]),
    );
  }

  remove(memberId: string): Promise<void> {
    return this.requests.run(() => this.log([{ type: 'trainee_removed', data: decideRemoveTrainee(this.state, memberId) }]));
  }

  shareAudio(on: boolean): Promise<void> {
    return this.requests.run(async () => {
      const data = decideAudioShared(this.state, on);
      if (data) await this.log([{ type: 'audio_shared', data }]);
    });
  }

  closeRoom(): Promise<void> {
    return this.requests.run(() => this.log(decideCloseShadow(this.state)));
  }

  /** One record of the expert's feed; a record the rules refuse changes nothing and is thrown back to the feed. */
  feed(record: ShadowFeed): Promise<void> {
    return this.requests.run(async () => {
      if (record.kind === 'audio') return this.hear(record);
      await this.log(decideFeed(this.state, record, this.context));
    });
  }

  /** Her session stopped feeding without saying so (its process or connection went away). */
  feedLost(): Promise<void> {
    return this.requests.run(() => this.log(decideExpertGone(this.state, 'feed_lost')));
  }

  /** Audio of her recording: pauses are heard as they happen; kept for trainees only while she shares it. */
  private async hear(record: Extract<ShadowFeed, { kind: 'audio' }>): Promise<void> {
    const { item_id, start_sample, pcm } = record;
    const item = this.state.items.get(item_id);
    if (!item || !isLive(this.state, item_id) || !item.recording || this.state.closed) return;
    if (this.pauses?.item_id !== item_id || this.pauses.watch.nextSample !== start_sample) {
      const { silence_threshold_dbfs, min_pause_ms } = this.project.config.thinkaloud;
      this.pauses = {
        item_id,
        watch: new LivePauseWatch(
          { sampleRate: AUDIO_SAMPLE_RATE, silenceThresholdDbfs: silence_threshold_dbfs, minPauseMs: min_pause_ms },
          start_sample,
        ),
      };
    }
    for (const pause of this.pauses.watch.push(pcm)) await this.log(decidePause(this.state, item_id, pause));
    if (!this.state.audio_shared) return;
    if (this.audio?.item_id !== item_id || this.audio.start_sample + this.audio.length !== start_sample)
      this.audio = { item_id, start_sample, samples: [], length: 0 };
    const audio = this.audio;
    audio.samples.push(toPcm16(pcm));
    audio.length += pcm.length;
    while (audio.length - audio.samples[0]!.length >= MAX_SHARED_SAMPLES) {
      const dropped = audio.samples.shift()!;
      audio.start_sample += dropped.length;
      audio.length -= dropped.length;
    }
    this.wake();
  }

  /**
   * Shared audio of the item on view from `from` (a sample on its audio; null: the last second), at most `maxMs`:
   * 16-bit mono samples at 16 kHz and where they start. Refused unless she shares it.
   */
  sharedAudio(itemId: string, from: number | null, maxMs = 2000): { start_sample: number; samples: Int16Array } {
    if (!this.state.audio_shared) throw new RoomRuleError(403, say('refusal.rooms.theExpertHasNotShared'));
    const audio = this.audio;
    if (!isLive(this.state, itemId)) throw new RoomRuleError(409, say('refusal.rooms.isNotOnViewIts', { itemId }));
    if (!audio || audio.item_id !== itemId) return { start_sample: from ?? 0, samples: new Int16Array(0) };
    const end = audio.start_sample + audio.length;
    const start = Math.max(audio.start_sample, Math.min(end, from ?? end - AUDIO_SAMPLE_RATE));
    const count = Math.min(end - start, Math.round((maxMs * AUDIO_SAMPLE_RATE) / 1000));
    const out = new Int16Array(count);
    let at = audio.start_sample;
    let written = 0;
    for (const chunk of audio.samples) {
      const from0 = Math.max(0, start + written - at);
      if (from0 < chunk.length && written < count) {
        const piece = chunk.subarray(from0, Math.min(chunk.length, from0 + count - written));
        out.set(piece, written);
        written += piece.length;
      }
      at += chunk.length;
    }
    return { start_sample: start, samples: out };
  }

  /** Calls `listener` after every change of the room until the returned function is called. */
  onChange(listener: () => void): () => void {
    return this.changes.subscribe(listener);
  }

  /** Resolves when the room has changed past `after` (or shared audio arrived), after `ms` at most, or when `signal` aborts. */
  waitForChange(after: number, ms: number, signal?: AbortSignal): Promise<void> {
    return this.changes.wait(() => this.state.seq > after || this.requests.closed, ms, signal);
  }

  /** Resolves when every decision queued so far (feed records included) has been made. */
  idle(): Promise<void> {
    return this.requests.idle();
  }

  metrics(): ShadowMetrics {
    if (this.metricsCache?.version !== this.state.metrics_version)
      this.metricsCache = { version: this.state.metrics_version, metrics: shadowMetrics(this.state) };
    return this.metricsCache.metrics;
  }

  view(viewer: ShadowViewer): ShadowView {
    return shadowView(this.state, viewer, this.metrics(), this.project.config.thinkaloud.fillers);
  }

  /** Stops writing; waiting pages are answered; the log stays as it is. */
  async close(): Promise<void> {
    await this.requests.close();
    this.wake();
    await this.writer.close();
    await this.unlock();
  }
}
