import type { ParseDiagnostic, ParseResult, CommitmentRecord, VoiceCommitment } from '../parser/parseTypes';
import type { ProjectConfig } from '../project/projectConfig';
import type { AudioSignals } from '../signals/signalTypes';
import type { VadSignals } from '../signals/vadSignals';
import { computeTranscriptSignals } from '../signals/transcriptSignals';
import { joinSegments, timeAtOffset, type SegmentSpan } from '../transcript/joinSegments';
import type { Segment } from '../transcript/segment';
import { AudioLedgerFold, type AudioLedger } from './audioLedger';
import { checkEventData } from './sessionEventSchema';
import { SessionLogError } from './sessionLog';
import type {
  CorrectionRecord,
  ItemSessionState,
  KeepTalkingCue,
  LabelAct,
  LabelSource,
  ManualLabelRecord,
  ShownReasoning,
  SupersededTranscript,
  TextSelection,
} from './itemState';
import type { StepJudgmentRecord } from '../reasoning/stepJudgments';
import { EVENT_VERSIONS, type SessionEvent, type SessionKind, type SessionEventData, type SessionEventType } from './sessionEvents';
import { AUDIO_SAMPLE_RATE } from '../audio/sampleRate';
import { summaryOfItem, type ItemSummary } from './itemSummary';
import type { GuidelineScope } from '../guidelines/guidelines';
import { activeTimeByItem, type ActivitySpan } from './activeTime';
import { DEFAULT_IDLE_GAP_SECONDS } from '../project/projectConfig';
import { say } from '../refusal/refusalMessage';

/** An event to append: its type and data (the log gives it v, seq and ts). */
export type SessionEntry = { [T in SessionEventType]: { type: T; data: SessionEventData[T] } }[SessionEventType];

/** One item's events drafted before they are written, and the item as they leave it (SessionFold.draft). */
export interface SessionDraft {
  readonly itemId: string;
  readonly entries: readonly SessionEntry[];
  add<T extends SessionEventType>(type: T, data: SessionEventData[T]): void;
  /** the item after the events added so far */
  state(): ItemSessionState;
  /** its current utterances after them */
  utterances(): Array<{ utterance: number; segments: readonly Segment[] }>;
}

/** A note the annotator or the store left in the log. */
export interface SessionNote {
  seq: number;
  ts: string;
  item_id: string | null;
  text: string;
}

/** The whole session of one annotator, as the fold of its event log. */
export interface SessionState {
  annotator: string | null;
  project_name: string | null;
  /** the item the annotator last navigated to: where a resumed session continues */
  current_item: string | null;
  recording: { item_id: string; since_seq: number } | null;
  /** items in the order they were first opened */
  items: ItemSessionState[];
  notes: SessionNote[];
  last_seq: number;
  /** the configuration (aloud.yaml sha256) and parser version the log last recorded (null in logs before they were) */
  config_sha256: string | null;
  parser_version: string | null;
  /** some item's recorded voice labels were derived under another (recorded) configuration than the current one */
  config_changed: boolean;
  /**
   * an annotator's own session, or a norming room's votes written back (kept apart from the annotators): as
   * session_started says; a log from before kinds were recorded is a room's when it holds room votes
   */
  kind: SessionKind;
  /** the room and member a write-back session holds the votes of (null: not one, or not recorded) */
  room: { code: string; member_id: string } | null;
}

/**
 * What of the project the fold reads: the label schema (to report labels it no longer has) and the filler list
 * (filler counts are a cache over the verbatim text). Labels are never derived from it: they are read from the log.
 */
export type FoldConfig = Pick<ProjectConfig, 'schema' | 'thinkaloud'> & Partial<Pick<ProjectConfig, 'time_on_item'>>;

export interface FoldOptions {
  /** sha256 of the current aloud.yaml: recorded labels derived under another one are flagged config_changed */
  configSha256?: string | null;
  /**
   * sha256 of what the parser reads of the current aloud.yaml (parserInputsText): a voice label recorded with its own
   * is stale only when that differs; one recorded before it was logged falls back to the whole aloud.yaml
   */
  parserInputsSha256?: string | null;
}

interface Utterance {
  seq: number;
  segments: Segment[];
  model: SessionEventData['utterance_transcribed']['model'];
}

/** A voice commitment read from the log, with the configuration it was derived under. */
interface VoiceAct extends VoiceCommitment {
  seq: number;
  /** when the act was logged: its time when no recording holds its audio */
  ts: string;
  config_sha256: string | null;
  parser_version: string | null;
  parser_inputs_sha256: string | null;
  /** the labels' guideline version in force in this log when the act was logged (null: none logged) */
  guideline_version: string | null;
}

interface OtherAct {
  label: string;
  source: Exclude<LabelSource, 'voice'>;
  seq: number;
  ts: string;
  quote: string | null;
  reviewer: string | null;
  guideline_version: string | null;
}

/** A recording on the session clock: where its audio starts in the item's WAV and when it started and stopped. */
interface RecordingSpan {
  offset_samples: number;
  /** the sitting it was made in (its utterances are acts of that sitting) */
  sitting: number;
  started_ms: number;
  stopped_ms: number | null;
}

interface ItemFold {
  item_id: string;
  started_at: string | null;
  /** the first item_opened of the item (time on item starts here) */
  first_opened_at: string | null;
  completed_at: string | null;
  first_completed_at: string | null;
  completed_seq: number | null;
  /** the item was open this long, ms, in the intervals that have ended */
  open_ms: number;
  /** the same in the annotator's own sittings only (a reviewer's sitting is the reviewer's time) */
  own_open_ms: number;
  stale_results: number;
  utterances: Map<number, Utterance>;
  superseded: Map<number, { utterance: Utterance; at: string; reason: string }>;
  voice: VoiceAct[];
  other: OtherAct[];
  diagnostics: ParseDiagnostic[];
  /** every correction in the order made (the latest per segment applies) */
  corrections: CorrectionRecord[];
  recordings: RecordingSpan[];
  audioSignals: SessionEventData['signals_computed'] | null;
  /** sha256 of the item text when the annotator last opened it */
  text_sha256: string | null;
  /** keep-talking cues shown while recording the item */
  cues: KeepTalkingCue[];
  reasoning: ShownReasoning | null;
  /** with the utterance a spoken judgment came from (null for keys and clicks) */
  step_judgments: Array<StepJudgmentRecord & { utterance: number | null }>;
  selection: TextSelection | null;
}

const correctionKey = (utterance: number, segment: number): string => `${utterance}:${segment}`;

/**
 * The pure fold of a session log. Events go in with `apply` (in seq order); `state()` gives each item's verbatim
 * transcript (current utterances in order; superseded ones kept aside), the correction layer over it, and one
 * timeline of label acts: voice commitments as the log recorded them when their transcription landed, placed at
 * the time their phrase was said (audio time mapped onto the session clock through the recording's start), and
 * click, key, correction and room acts at their event time. Final label = the last act, blind label = the first.
 * The fold never runs the parser: a changed configuration changes no label (see `aloud session reparse`).
 */
export class SessionFold {
  private readonly audio: AudioLedgerFold;
  private readonly items = new Map<string, ItemFold>();
  /** derived item states, dropped when an event for the item arrives */
  private readonly derived = new Map<string, ItemSessionState>();
  private readonly notes: SessionNote[] = [];
  /** items whose recorded voice labels were derived under another configuration than the current one */
  private readonly configChangedItems = new Set<string>();
  private annotator: string | null = null;
  private projectName: string | null = null;
  private currentItem: string | null = null;
  private lastSeq = 0;
  private configInForce: string | null = null;
  private parserInForce: string | null = null;
  private parserInputsInForce: string | null = null;
  private kind: SessionKind | null = null;
  private room: { code: string; member_id: string } | null = null;
  private hasRoomActs = false;
  /** the last guideline_in_force of each scope in this log: acts are given under it */
  private readonly guidelinesInForce: Record<GuidelineScope, string | null> = { labels: null, codes: null };
  /** the item open now and since when (time on item); the time of the last event so far */
  private openItem: { item_id: string; since_ms: number } | null = null;
  private lastEventMs: number | null = null;
  /** the sitting (session_started or session_resumed) the events belong to, and the reviewer working in it, if any */
  private sitting = 0;
  private sittingReviewer: string | null = null;
  /**
   * the annotator's own acts on the clock (activeTime.ts) by sitting, each sitting's active time per item, their sum
   * per item, and the sittings with acts since: an act folds its own sitting again, never the whole study
   */
  private readonly actsBySitting = new Map<number, ActivitySpan[]>();
  private readonly activeBySitting = new Map<number, Map<string, number>>();
  private readonly activeTimes = new Map<string, number>();
  private readonly sittingsChanged = new Set<number>();
  private readonly idleGapMs: number;
  private readonly labelNames: ReadonlySet<string>;
  private readonly currentConfigSha256: string | null;
  private readonly currentParserInputs: string | null;

  constructor(
    private readonly config: FoldConfig,
    private readonly file = 'events.jsonl',
    options: FoldOptions = {},
  ) {
    this.audio = new AudioLedgerFold(file);
    this.labelNames = new Set(config.schema.labels.map((l) => l.name));
    this.currentConfigSha256 = options.configSha256 ?? null;
    this.currentParserInputs = options.parserInputsSha256 ?? null;
    this.idleGapMs = (config.time_on_item?.idle_gap_seconds ?? DEFAULT_IDLE_GAP_SECONDS) * 1000;
  }

  /** The version of a scope's guidelines this log recorded last (null: none). */
  guidelineLogged(scope: GuidelineScope): string | null {
    return this.guidelinesInForce[scope];
  }

  apply(event: SessionEvent): void {
    this.audio.apply(event);
    this.lastSeq = event.seq;
    const timedBefore = this.openItem?.item_id;
    this.followOpenItem(event);
    // the open item's time on item runs with every event, and the one left behind stops: both derive again
    if (timedBefore !== undefined) this.derived.delete(timedBefore);
    if (this.openItem) this.derived.delete(this.openItem.item_id);
    // Every event that changes an item names it: only that item's derived state must be computed again.
    const itemId = (event.data as { item_id?: unknown }).item_id;
    if (typeof itemId === 'string') {
      this.derived.delete(itemId);
      if (ITEM_EVENTS.has(event.type)) {
        const item = this.item(itemId);
        this.applyToItem(item, event);
        this.noteConfigChange(item);
      }
      this.noteAct(event, itemId);
    }
    switch (event.type) {
      case 'session_started':
        this.annotator = event.data.annotator;
        this.projectName = event.data.project_name;
        this.configInForce = event.data.config_sha256;
        this.parserInForce = event.data.parser_version;
        this.parserInputsInForce = event.data.parser_inputs_sha256;
        this.kind = event.data.kind;
        this.room = event.data.room;
        return;
      case 'session_resumed':
        this.configInForce = event.data.config_sha256;
        this.parserInForce = event.data.parser_version;
        this.parserInputsInForce = event.data.parser_inputs_sha256;
        return;
      case 'item_opened':
        this.currentItem = event.data.item_id;
        return;
      case 'guideline_in_force':
        this.guidelinesInForce[event.data.scope] = event.data.version;
        return;
      case 'note':
        this.notes.push({ seq: event.seq, ts: event.ts, item_id: event.data.item_id, text: event.data.text });
        return;
      default:
        return;
    }
  }

  /**
   * Time on item: an item is open from its item_opened to the next item_opened; a new sitting (session_started or
   * session_resumed) ends the open item's time at the last event before it, since nothing says when the app closed.
   */
  private followOpenItem(event: SessionEvent): void {
    const at = Date.parse(event.ts);
    const open = this.openItem;
    if (open) this.derived.delete(open.item_id);
    const close = (until: number) => {
      if (!open) return;
      const item = this.items.get(open.item_id);
      if (item) item.open_ms += Math.max(0, until - open.since_ms);
      if (item && this.sittingReviewer === null) item.own_open_ms += Math.max(0, until - open.since_ms);
      this.openItem = null;
    };
    if (event.type === 'session_started' || event.type === 'session_resumed') {
      close(this.lastEventMs ?? at);
      this.sitting++;
      this.sittingReviewer = event.type === 'session_resumed' ? event.data.reviewer : null;
    } else if (event.type === 'item_opened') {
      close(at);
      this.openItem = { item_id: event.data.item_id, since_ms: at };
    }
    this.lastEventMs = Math.max(this.lastEventMs ?? at, at);
  }

  /**
   * The annotator's own acts, each with its span on the clock (activeTime.ts): navigation, keys, clicks, corrections,
   * selections, completions and notes at their time, each utterance over the time it was said, each playback over the
   * time it played. What the app does by itself (transcriptions landing, signals, cues) is no act; a voice label is
   * its utterance's, already counted; a reviewer's sitting holds the reviewer's acts, never the annotator's.
   */
  private noteAct(event: SessionEvent, itemId: string): void {
    // the reviewer's sitting holds no act of the annotator's, but an utterance said in her own recording still counts
    if (this.sittingReviewer !== null && event.type !== 'utterance_transcribed') return;
    switch (event.type) {
      case 'utterance_transcribed': {
        // said while recording, whenever its transcription landed (even in a later sitting)
        const item = this.items.get(itemId);
        let holder: RecordingSpan | null = null;
        for (const r of item?.recordings ?? []) if (r.offset_samples <= event.data.start_sample) holder = r;
        if (!holder) return;
        const clock = (sample: number) => holder.started_ms + ((sample - holder.offset_samples) * 1000) / AUDIO_SAMPLE_RATE;
        const end = holder.stopped_ms === null ? clock(event.data.end_sample) : Math.min(clock(event.data.end_sample), holder.stopped_ms);
        this.addAct(itemId, holder.sitting, clock(event.data.start_sample), end);
        return;
      }
      case 'item_opened':
      case 'recording_started':
      case 'item_completed':
      case 'text_selected':
      case 'reasoning_shown':
      case 'note':
        break;
      case 'recording_stopped':
        if (event.data.reason !== 'user') return;
        break;
      case 'label_committed':
        if (event.data.source === 'voice' || event.data.reviewer !== null) return;
        break;
      case 'transcript_corrected':
        if (event.data.reviewer !== null) return;
        break;
      case 'step_judged':
        if (event.data.source === 'voice') return;
        break;
      case 'audio_played': {
        const at = Date.parse(event.ts);
        this.addAct(itemId, this.sitting, at - event.data.played_ms, at);
        return;
      }
      default:
        return;
    }
    const at = Date.parse(event.ts);
    this.addAct(itemId, this.sitting, at, at);
  }

  private addAct(itemId: string, sitting: number, startMs: number, endMs: number): void {
    let acts = this.actsBySitting.get(sitting);
    if (acts === undefined) {
      acts = [];
      this.actsBySitting.set(sitting, acts);
    }
    acts.push({ item_id: itemId, sitting, start_ms: startMs, end_ms: endMs });
    this.sittingsChanged.add(sitting);
  }

  /** Each item's active time again after new acts; the items whose figure changed are derived again. */
  private refreshActiveTimes(): void {
    for (const sitting of this.sittingsChanged) {
      const before = this.activeBySitting.get(sitting) ?? new Map<string, number>();
      const after = activeTimeByItem(this.actsBySitting.get(sitting) ?? [], this.idleGapMs);
      for (const itemId of new Set([...before.keys(), ...after.keys()])) {
        const change = (after.get(itemId) ?? 0) - (before.get(itemId) ?? 0);
        if (change === 0) continue;
        this.activeTimes.set(itemId, (this.activeTimes.get(itemId) ?? 0) + change);
        this.derived.delete(itemId);
      }
      this.activeBySitting.set(sitting, after);
    }
    this.sittingsChanged.clear();
  }

  /** What one event does to the item it names (a note names an item without changing it). */
  private applyToItem(item: ItemFold, event: SessionEvent): void {
    switch (event.type) {
      case 'item_opened':
        item.started_at ??= event.ts;
        item.first_opened_at ??= event.ts;
        if (event.data.text_sha256 !== null) item.text_sha256 = event.data.text_sha256;
        return;
      case 'recording_started':
        item.started_at ??= event.ts;
        item.recordings.push({
          offset_samples: event.data.offset_samples,
          sitting: this.sitting,
          started_ms: Date.parse(event.ts),
          stopped_ms: null,
        });
        return;
      case 'recording_stopped': {
        const last = item.recordings.at(-1);
        if (last && last.stopped_ms === null) item.recordings[item.recordings.length - 1] = { ...last, stopped_ms: Date.parse(event.ts) };
        return;
      }
      case 'utterance_transcribed': {
        const { utterance, segments, model } = event.data;
        item.utterances.set(utterance, { seq: event.seq, segments, model });
        return;
      }
      case 'transcripts_superseded': {
        for (const index of event.data.utterances) {
          const utterance = item.utterances.get(index);
          if (!utterance) continue;
          item.utterances.delete(index);
          item.superseded.set(index, { utterance, at: event.ts, reason: event.data.reason });
        }
        // voice labels of superseded audio are replaced by those the new transcription finds
        item.voice = item.voice.filter((v) => v.utterance === null || !item.superseded.has(v.utterance));
        // and so are spoken step judgments
        item.step_judgments = item.step_judgments.filter((j) => j.utterance === null || !item.superseded.has(j.utterance));
        return;
      }
      case 'transcript_parsed':
        item.diagnostics = event.data.diagnostics;
        return;
      case 'label_committed': {
        const { label, source, quote, start, end, stem } = event.data;
        if (source === 'voice') {
          // a v1 log recorded no utterance or audio time: read them off its offsets in the transcript as it was then
          const v1 = event.data.utterance === null && end !== null ? this.placeInTranscript(item, end) : null;
          item.voice.push({
            label,
            quote: quote ?? '',
            start: start ?? 0,
            end: end ?? 0,
            stem: stem ?? '',
            audio_ms: event.data.audio_ms ?? v1?.audio_ms ?? null,
            utterance: event.data.utterance ?? v1?.utterance ?? null,
            seq: event.seq,
            ts: event.ts,
            config_sha256: this.configInForce,
            parser_version: event.data.parser_version ?? this.parserInForce,
            parser_inputs_sha256: this.parserInputsInForce,
            guideline_version: this.guidelinesInForce.labels,
          });
        } else {
          item.other.push({
            label,
            source,
            seq: event.seq,
            ts: event.ts,
            quote,
            reviewer: event.data.reviewer,
            guideline_version: this.guidelinesInForce.labels,
          });
          if (source === 'room') this.hasRoomActs = true;
        }
        return;
      }
      case 'labels_rederived':
        item.voice = event.data.commitments.map((c) => ({
          ...c,
          seq: event.seq,
          ts: event.ts,
          config_sha256: event.data.config_sha256,
          parser_version: event.data.parser_version,
          parser_inputs_sha256: event.data.parser_inputs_sha256,
          guideline_version: this.guidelinesInForce.labels,
        }));
        item.diagnostics = event.data.diagnostics;
        return;
      case 'transcript_corrected': {
        const { utterance, segment, text, annotator, reviewer } = event.data;
        const original = item.utterances.get(utterance)?.segments[segment]?.text ?? '';
        item.corrections.push({ utterance, segment, original_text: original, text, annotator, reviewer, at: event.ts });
        return;
      }
      case 'item_completed':
        item.completed_at = event.ts;
        item.first_completed_at ??= event.ts;
        item.completed_seq = event.seq;
        return;
      case 'stale_result':
        item.stale_results++;
        return;
      case 'signals_computed':
        item.audioSignals = event.data;
        return;
      case 'cue_shown':
        item.cues.push({ at: event.ts, silence_ms: event.data.silence_ms, audio_ms: event.data.audio_ms });
        return;
      case 'text_selected':
        item.selection = event.data.span === null ? null : { ...event.data.span, at: event.ts };
        return;
      case 'reasoning_shown': {
        const { steps, model_label, audio_samples } = event.data;
        // the first showing is the one that separates labels given before and after seeing the model
        item.reasoning ??= { shown_at: event.ts, steps, model_label, audio_ms: Math.round((audio_samples * 1000) / AUDIO_SAMPLE_RATE) };
        return;
      }
      case 'step_judged': {
        const { index, reward, source, kind, quote, audio_ms, utterance } = event.data;
        item.step_judgments.push({ index, reward, source, kind, at: event.ts, audio_ms, quote, utterance });
        return;
      }
      default:
        return;
    }
  }

  /** Keeps the session's config_changed current as each event arrives, so it is read without visiting every item. */
  private noteConfigChange(item: ItemFold): void {
    if (this.voiceUnderOtherConfig(item)) this.configChangedItems.add(item.item_id);
    else this.configChangedItems.delete(item.item_id);
  }

  private voiceUnderOtherConfig(item: ItemFold): boolean {
    return item.voice.some((v) => {
      // versioned by what derived it: the parser's inputs, when both the act and the fold know them
      if (v.parser_inputs_sha256 !== null && this.currentParserInputs !== null) return v.parser_inputs_sha256 !== this.currentParserInputs;
      // else the whole aloud.yaml (a log from before the parser's inputs were logged); a v1 log recorded none: unknown is not "changed"
      return this.currentConfigSha256 !== null && v.config_sha256 !== null && v.config_sha256 !== this.currentConfigSha256;
    });
  }

  /** The item whose time on item runs now (its derived state changes with every event), if any. */
  get timedItemId(): string | null {
    return this.openItem?.item_id ?? null;
  }

  /** Some item's recorded voice labels were derived under another configuration than the current one. */
  get configChanged(): boolean {
    return this.configChangedItems.size > 0;
  }

  /** How many notes the log holds. */
  get noteCount(): number {
    return this.notes.length;
  }

  /** The notes from the `start`-th on (0: all), oldest first. */
  notesFrom(start: number): SessionNote[] {
    return this.notes.slice(start);
  }

  /** The item the annotator last opened: where a resumed session continues. */
  get currentItemId(): string | null {
    return this.currentItem;
  }

  /** The recording the log says is running (started and not stopped), if any. */
  get openRecording(): { item_id: string; since_seq: number } | null {
    return this.audio.ledger.openRecording;
  }

  /**
   * A draft of one item's events at `ts`: each event added is applied to a copy of the item, so a rule can read
   * the item as its own events leave it (a label change, a batch of transcriptions) before anything is written.
   * The fold itself is unchanged; only events about the item that leave its audio as it is may be drafted.
   */
  draft(itemId: string, ts: string): SessionDraft {
    const item = cloneItem(this.items.get(itemId) ?? emptyItem(itemId));
    const entries: SessionEntry[] = [];
    let seq = this.lastSeq;
    const state = (): ItemSessionState => this.deriveItem(item);
    return {
      itemId,
      entries,
      add: (type, data) => {
        if (AUDIO_EVENTS.has(type) || (data as { item_id?: unknown }).item_id !== itemId)
          throw new Error(`a draft of "${itemId}" cannot hold ${type}`);
        entries.push({ type, data } as SessionEntry);
        this.applyToItem(item, { v: EVENT_VERSIONS[type], seq: ++seq, ts, type, data } as SessionEvent);
      },
      state,
      utterances: () => utterancesOf(item),
    };
  }

  /** What the log says about each item's WAV and the running recording. */
  audioLedger(): AudioLedger {
    return this.audio.ledger;
  }

  /**
   * Throws (as corruption at the line it would get) if events starting at `firstSeq` would not fit the log: bad
   * data or audio that does not follow on. A writer calls this before writing, so it never writes a log it cannot read.
   */
  checkAppend(entries: ReadonlyArray<{ type: SessionEventType; data: unknown }>, firstSeq: number): void {
    const audio = this.audio.clone(
      new Set(entries.map((entry) => (entry.data as { item_id?: unknown }).item_id).filter((id): id is string => typeof id === 'string')),
    );
    entries.forEach((entry, i) => {
      const problem = checkEventData(entry.type, entry.data);
      // the event data's own check says its problem in English, inside the catalog line
      if (problem !== null)
        throw new SessionLogError(this.file, firstSeq + i, say('refusal.sessionLog.eventProblem', { type: entry.type, problem }));
      audio.apply({ v: EVENT_VERSIONS[entry.type], seq: firstSeq + i, ts: '', type: entry.type, data: entry.data } as SessionEvent);
    });
  }

  /** One more than the highest utterance index transcribed (or superseded) for the item (0 when none). */
  nextUtteranceIndex(itemId: string): number {
    const item = this.items.get(itemId);
    if (!item) return 0;
    const indices = [...item.utterances.keys(), ...item.superseded.keys()];
    return indices.length > 0 ? Math.max(...indices) + 1 : 0;
  }

  /** The item's current (not superseded) utterances in order, with their segments: what a correction names. */
  utterancesOf(itemId: string): Array<{ utterance: number; segments: readonly Segment[] }> {
    const item = this.items.get(itemId);
    return item ? utterancesOf(item) : [];
  }

  /** The item ids the log knows, in the order they were first seen. */
  itemIds(): string[] {
    return [...this.items.keys()];
  }

  itemState(itemId: string): ItemSessionState | null {
    const item = this.items.get(itemId);
    return item ? this.derivedItem(item) : null;
  }

  state(): SessionState {
    return this.stateWith([...this.items.values()].map((item) => this.derivedItem(item)));
  }

  /** The session's state holding only `items` (a page of itemState()s): what reads one item need not derive every item. */
  stateWith(items: ItemSessionState[]): SessionState {
    return {
      annotator: this.annotator,
      project_name: this.projectName,
      current_item: this.currentItem,
      recording: this.audio.ledger.openRecording,
      items,
      notes: [...this.notes],
      last_seq: this.lastSeq,
      config_sha256: this.configInForce,
      parser_version: this.parserInForce,
      config_changed: this.configChanged,
      kind: this.sessionKind,
      room: this.room,
    };
  }

  /** An annotator's own session, or a norming room's votes written back (logs before the kind was recorded: by their acts). */
  get sessionKind(): SessionKind {
    return this.kind ?? (this.hasRoomActs ? 'room' : 'annotator');
  }

  private item(itemId: string): ItemFold {
    let item = this.items.get(itemId);
    if (!item) {
      item = emptyItem(itemId);
      this.items.set(itemId, item);
    }
    return item;
  }

  /** Where a transcript offset lies now: its utterance and audio time (for v1 voice acts, when they are applied). */
  private placeInTranscript(item: ItemFold, offset: number): { utterance: number | null; audio_ms: number | null } {
    const utterances = [...item.utterances.entries()].sort((a, b) => a[0] - b[0]);
    const segments = utterances.flatMap(([, u]) => u.segments);
    const owner = utterances.flatMap(([index, u]) => u.segments.map(() => index));
    const { spans } = joinSegments(segments);
    const at = spans.findIndex((span) => span.end >= offset);
    return { utterance: at >= 0 ? owner[at]! : null, audio_ms: audioTimeAt(spans, offset) };
  }

  /** The item's state, derived once per change: the UI asks for the whole session on every call. */
  private derivedItem(item: ItemFold): ItemSessionState {
    this.refreshActiveTimes();
    let state = this.derived.get(item.item_id);
    if (!state) {
      state = this.deriveItem(item);
      this.derived.set(item.item_id, state);
    }
    return state;
  }

  /**
   * When audio at `audioMs` on the item's timeline was said, on the session clock: the recording holding that
   * sample started at a logged time; audio cannot have been said after its recording stopped (an ingest faster
   * than real time). Null when no recording holds it.
   */
  private sessionTimeOfAudio(item: ItemFold, audioMs: number): number | null {
    const sample = Math.round((audioMs * AUDIO_SAMPLE_RATE) / 1000);
    let holder: RecordingSpan | null = null;
    for (const r of item.recordings) if (r.offset_samples <= sample) holder = r;
    if (!holder) return null;
    const at = holder.started_ms + ((sample - holder.offset_samples) * 1000) / AUDIO_SAMPLE_RATE;
    return holder.stopped_ms === null ? at : Math.min(at, holder.stopped_ms);
  }

  /**
   * The item's label acts in the order they happened (voice acts at the time their phrase was said), its voice acts
   * in audio order, and whether an act after completion chose another label than the final one then.
   */
  private labelActs(item: ItemFold) {
    const voice = [...item.voice].sort((a, b) => (a.audio_ms ?? 0) - (b.audio_ms ?? 0) || a.seq - b.seq);
    // `at` (ISO) of a voice act is its time on the clock, formatted only when the history asks (the item list does not)
    const acts: Array<Omit<LabelAct, 'at'> & { logged_at: string | null; at_ms: number; seq: number; guideline_version: string | null }> = [
      ...voice.map((v) => {
        const atMs = this.voiceActMs(item, v);
        return {
          label: v.label,
          source: 'voice' as const,
          logged_at: null,
          at_ms: atMs,
          audio_ms: v.audio_ms,
          quote: v.quote,
          reviewer: null,
          seq: v.seq,
          guideline_version: v.guideline_version,
        };
      }),
      ...item.other.map((o) => ({
        label: o.label,
        source: o.source,
        logged_at: o.ts,
        at_ms: Date.parse(o.ts),
        audio_ms: null,
        quote: o.quote,
        reviewer: o.reviewer,
        seq: o.seq,
        guideline_version: o.guideline_version,
      })),
    ].sort((a, b) => a.at_ms - b.at_ms || a.seq - b.seq);
    // the one rule of a change after completion, shared with the item list's line
    return { voice, acts, changedAfterCompletion: this.lastLabelAct(item).changedAfterCompletion };
  }

  /** The audio signals computed for the item's audio as it is now (null when none were, or the audio grew since). */
  private currentAudioSignals(item: ItemFold, samples: number) {
    return item.audioSignals && item.audioSignals.audio_samples === samples ? item.audioSignals : null;
  }

  /**
   * Every item as its line in the item list (itemSummary.ts), without deriving its whole state: what opening a
   * session answers. An item already derived gives its line from its state; the same fields either way (tested).
   */
  summaries(): ItemSummary[] {
    return [...this.items.values()].map((item) => {
      const derived = this.derived.get(item.item_id);
      return derived ? summaryOfItem(derived) : this.summaryOf(item);
    });
  }

  /** One item's line, read from the fold (summaryOfItem of its derived state gives the same). */
  private summaryOf(item: ItemFold): ItemSummary {
    const samples = this.audio.ledger.items.get(item.item_id)?.samples ?? 0;
    const { last, changedAfterCompletion } = this.lastLabelAct(item);
    let segments = 0;
    let words = false;
    for (const u of item.utterances.values()) {
      segments += u.segments.length;
      if (!words) words = u.segments.some((segment) => segment.text.trim() !== '');
    }
    return {
      item_id: item.item_id,
      final_label: last?.label ?? null,
      label_source: last?.source ?? null,
      completed_at: item.completed_at,
      audio_ms: Math.round((samples * 1000) / AUDIO_SAMPLE_RATE),
      segments,
      has_words: words,
      longest_pause_ms: this.currentAudioSignals(item, samples)?.audio.pauses?.longest_ms ?? null,
      changed_after_completion: changedAfterCompletion,
    };
  }

  /**
   * The item's last label act and whether an act after completion changed the label, in one pass without formatting or
   * sorting the acts (the item list asks it of every item on open): the last act is the latest by (time on the clock,
   * seq), as labelActs orders them (tested against the derived states). The one rule of a change after completion.
   */
  private lastLabelAct(item: ItemFold): { last: { label: string; source: LabelAct['source'] } | null; changedAfterCompletion: boolean } {
    type Act = { label: string; source: LabelAct['source']; at_ms: number; seq: number };
    const completedSeq = item.completed_seq;
    const later = (act: Act, than: Act | null): boolean =>
      than === null || act.at_ms > than.at_ms || (act.at_ms === than.at_ms && act.seq > than.seq);
    let last = null as Act | null;
    let atCompletion = null as Act | null;
    const consider = (act: Act): void => {
      if (later(act, last)) last = act;
      if (completedSeq !== null && act.seq < completedSeq && later(act, atCompletion)) atCompletion = act;
    };
    for (const v of item.voice) consider({ label: v.label, source: 'voice', at_ms: this.voiceActMs(item, v), seq: v.seq });
    for (const o of item.other) consider({ label: o.label, source: o.source, at_ms: Date.parse(o.ts), seq: o.seq });
    let changedAfterCompletion = false;
    if (completedSeq !== null) {
      // any act logged after completion with another label than the final one then (a change later undone still counts)
      const finalThen = atCompletion?.label ?? null;
      for (const act of [...item.voice, ...item.other])
        if (act.seq > completedSeq && act.label !== finalThen) changedAfterCompletion = true;
    }
    return { last: last === null ? null : { label: last.label, source: last.source }, changedAfterCompletion };
  }

  /** When a voice act happened on the clock: when its phrase was said, else (no recording holds it) when it was logged. */
  private voiceActMs(item: ItemFold, v: VoiceAct): number {
    return (v.audio_ms === null ? null : this.sessionTimeOfAudio(item, v.audio_ms)) ?? Date.parse(v.ts);
  }

  private deriveItem(item: ItemFold): ItemSessionState {
    this.refreshActiveTimes();
    // the open item's time runs to the last event so far
    const openNow =
      this.openItem?.item_id === item.item_id && this.lastEventMs !== null ? Math.max(0, this.lastEventMs - this.openItem.since_ms) : 0;
    const audio = this.audio.ledger.items.get(item.item_id);
    const samples = audio?.samples ?? 0;
    const utterances = [...item.utterances.entries()].sort((a, b) => a[0] - b[0]);
    const segments = utterances.flatMap(([, u]) => u.segments);
    const segmentRefs = utterances.flatMap(([utterance, u]) => u.segments.map((_, segment) => ({ utterance, segment })));
    const joined = joinSegments(segments);
    const transcript = joined.text;

    // corrections of current utterances (those of superseded ones stay with their transcript); the latest per segment applies
    const corrections = item.corrections.filter((c) => item.utterances.has(c.utterance));
    const latest = new Map(corrections.map((c) => [correctionKey(c.utterance, c.segment), c.text]));
    const transcriptCorrected =
      corrections.length === 0
        ? null
        : joinSegments(
            segments.map((s, i) => ({
              ...s,
              text: latest.get(correctionKey(segmentRefs[i]!.utterance, segmentRefs[i]!.segment)) ?? s.text,
            })),
          ).text;

    const { voice, acts, changedAfterCompletion } = this.labelActs(item);
    const history: LabelAct[] = acts.map(({ label, source, logged_at, at_ms, audio_ms, quote, reviewer }) => ({
      label,
      source,
      at: logged_at ?? new Date(at_ms).toISOString(),
      audio_ms,
      quote,
      reviewer,
    }));
    const first = history[0];
    const last = history[history.length - 1];
    let labelChanges = 0;
    for (let k = 1; k < history.length; k++) if (history[k]!.label !== history[k - 1]!.label) labelChanges++;

    const commitments: CommitmentRecord[] = voice.map((v) => ({
      label: v.label,
      quote: v.quote,
      start: v.start,
      end: v.end,
      t_ms: v.audio_ms,
      stem: v.stem,
    }));

    const current = this.currentAudioSignals(item, samples);
    const audioSignals: AudioSignals | null = current ? current.audio : null;
    // the voice-activity signals sit beside the energy ones, named vad_*; absent when the VAD did not run
    const vadSignals: VadSignals | null = current ? current.vad : null;
    const hasTranscript = utterances.length > 0;
    // filler and word counts are a cache over the verbatim text; the commitment figures come from the recorded acts
    const recordedParse: ParseResult = {
      commitments: voice.map((v) => ({ label: v.label, quote: v.quote, start: v.start, end: v.end, stem: v.stem, language: '' })),
      final_label: voice.at(-1)?.label ?? null,
      diagnostics: item.diagnostics,
    };
    const transcriptSignals = hasTranscript
      ? {
          ...computeTranscriptSignals(transcript, { ...recordedParse, commitments: [] }, this.config.thinkaloud),
          commitment_count: voice.length,
          label_changes: labelChanges,
          time_to_first_commit_ms: voice[0]?.audio_ms ?? null,
          time_to_final_commit_ms: voice.at(-1)?.audio_ms ?? null,
        }
      : null;
    const signals =
      audioSignals || transcriptSignals || history.length > 0
        ? { ...audioSignals, ...vadSignals, ...transcriptSignals, ...(history.length > 0 ? { label_changes: labelChanges } : {}) }
        : null;
    const superseded: SupersededTranscript[] = [...item.superseded.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([utterance, s]) => {
        const own = new Map(item.corrections.filter((c) => c.utterance === utterance).map((c) => [c.segment, c.text]));
        const corrected =
          own.size === 0 ? null : joinSegments(s.utterance.segments.map((seg, i) => ({ ...seg, text: own.get(i) ?? seg.text }))).text;
        return {
          utterance,
          text: joinSegments(s.utterance.segments).text,
          corrected_text: corrected,
          model: s.utterance.model,
          superseded_at: s.at,
          reason: s.reason,
        };
      });
    const manual: ManualLabelRecord[] = item.other.map(({ label, source, ts }) => ({ label, source, at: ts }));

    return {
      item_id: item.item_id,
      audio_path: audio?.audio_path ?? null,
      audio_ms: Math.round((samples * 1000) / AUDIO_SAMPLE_RATE),
      transcript,
      segments,
      commitments,
      final_label: last?.label ?? null,
      label_source: last?.source ?? null,
      blind_label: first?.label ?? null,
      signals,
      model: utterances.length > 0 ? utterances[utterances.length - 1]![1].model : null,
      started_at: item.started_at,
      completed_at: item.completed_at,
      stale_results: item.stale_results,
      manual_labels: manual,
      parse_diagnostics: item.diagnostics,
      item_text_sha256: item.text_sha256,
      label_history: history,
      segment_refs: segmentRefs,
      transcript_corrected: transcriptCorrected,
      corrections,
      superseded_transcripts: superseded,
      parser_version: voice.at(-1)?.parser_version ?? null,
      config_changed: this.voiceUnderOtherConfig(item),
      labels_not_in_schema: [...new Set(history.map((h) => h.label).filter((l) => !this.labelNames.has(l)))],
      changed_after_completion: changedAfterCompletion,
      guideline_version: acts.at(-1)?.guideline_version ?? null,
      vad_model: current?.vad_model ?? null,
      first_completed_at: item.first_completed_at,
      time_to_complete_ms:
        item.first_completed_at !== null && item.first_opened_at !== null
          ? Math.max(0, Date.parse(item.first_completed_at) - Date.parse(item.first_opened_at))
          : null,
      time_open_ms: item.open_ms + openNow,
      time_on_item_active_ms: this.activeTimes.get(item.item_id) ?? 0,
      time_on_item_wall_ms: item.own_open_ms + (this.sittingReviewer === null ? openNow : 0),
      time_on_item_idle_gap_ms: this.idleGapMs,
      recordings: item.recordings.map((r) => ({
        offset_ms: (r.offset_samples * 1000) / AUDIO_SAMPLE_RATE,
        started_at: new Date(r.started_ms).toISOString(),
        stopped_at: r.stopped_ms === null ? null : new Date(r.stopped_ms).toISOString(),
      })),
      cues: [...item.cues],
      reasoning: item.reasoning,
      step_judgments: item.step_judgments.map(({ utterance: _utterance, ...judgment }) => judgment),
      selection: item.selection,
    };
  }
}

/** The events that change what the fold keeps of their item (applyToItem); the others name an item and leave it be. */
const ITEM_EVENTS: ReadonlySet<SessionEventType> = new Set([
  'item_opened',
  'recording_started',
  'recording_stopped',
  'utterance_transcribed',
  'transcripts_superseded',
  'transcript_parsed',
  'label_committed',
  'labels_rederived',
  'transcript_corrected',
  'item_completed',
  'stale_result',
  'signals_computed',
  'cue_shown',
  'reasoning_shown',
  'step_judged',
  'text_selected',
]);

/** Events that move the audio ledger: never drafted, because a draft copies one item and not the ledger. */
const AUDIO_EVENTS: ReadonlySet<SessionEventType> = new Set([
  'recording_started',
  'audio_appended',
  'recording_stopped',
  'audio_recovered',
]);

function emptyItem(itemId: string): ItemFold {
  return {
    item_id: itemId,
    started_at: null,
    first_opened_at: null,
    completed_at: null,
    first_completed_at: null,
    completed_seq: null,
    open_ms: 0,
    own_open_ms: 0,
    stale_results: 0,
    utterances: new Map(),
    superseded: new Map(),
    voice: [],
    other: [],
    diagnostics: [],
    corrections: [],
    recordings: [],
    audioSignals: null,
    text_sha256: null,
    cues: [],
    reasoning: null,
    step_judgments: [],
    selection: null,
  };
}

/** A copy that events can be applied to without touching the original (its records are never changed in place). */
function cloneItem(item: ItemFold): ItemFold {
  return {
    ...item,
    utterances: new Map(item.utterances),
    superseded: new Map(item.superseded),
    voice: [...item.voice],
    other: [...item.other],
    corrections: [...item.corrections],
    recordings: [...item.recordings],
    cues: [...item.cues],
    step_judgments: [...item.step_judgments],
  };
}

function utterancesOf(item: ItemFold): Array<{ utterance: number; segments: readonly Segment[] }> {
  return [...item.utterances.entries()].sort((a, b) => a[0] - b[0]).map(([utterance, u]) => ({ utterance, segments: u.segments }));
}

/** Audio time (rounded ms) at a transcript offset, or null when the transcript has no timing or the offset is outside it. */
function audioTimeAt(spans: readonly SegmentSpan[], offset: number): number | null {
  if (spans.length === 0 || offset > spans[spans.length - 1]!.end) return null;
  const t = timeAtOffset(spans, offset);
  return t === null ? null : Math.round(t);
}

/** The state of a whole log: the pure fold over its events. */
export function foldSession(
  events: readonly SessionEvent[],
  config: FoldConfig,
  file = 'events.jsonl',
  options: FoldOptions = {},
): SessionState {
  const fold = new SessionFold(config, file, options);
  for (const event of events) fold.apply(event);
  return fold.state();
}
