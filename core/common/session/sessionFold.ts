import { createTranscriptAnalyzer, type TranscriptAnalysis } from '../analysis/transcriptAnalysis';
import type { ProjectConfig } from '../project/projectConfig';
import type { AudioSignals } from '../signals/signalTypes';
import type { Segment } from '../transcript/segment';
import { AudioLedgerFold, type AudioLedger } from './audioLedger';
import { checkEventData } from './sessionEventSchema';
import { SessionLogError } from './sessionLog';
import type { ItemSessionState, LabelSource, ManualLabelRecord, ShownReasoning } from './itemState';
import type { StepJudgmentRecord } from '../reasoning/stepJudgments';
import { EVENT_VERSIONS, SESSION_SAMPLE_RATE, type SessionEvent, type SessionEventData, type SessionEventType } from './sessionEvents';

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
}

/** What of the project configuration the fold reads: the parser's options and the filler list. */
export type FoldConfig = Pick<ProjectConfig, 'schema' | 'thinkaloud'>;

interface Utterance {
  seq: number;
  segments: Segment[];
  model: { name: string; sha256: string };
}

interface ItemFold {
  item_id: string;
  started_at: string | null;
  completed_at: string | null;
  stale_results: number;
  utterances: Map<number, Utterance>;
  manual: Array<ManualLabelRecord & { seq: number }>;
  audioSignals: SessionEventData['signals_computed'] | null;
  /** sha256 of the item text when the annotator last opened it */
  text_sha256: string | null;
  reasoning: ShownReasoning | null;
  step_judgments: StepJudgmentRecord[];
}

/** A label in event order: voice commitments at the seq of the utterance that completed them. */
interface OrderedLabel {
  label: string;
  source: LabelSource;
  seq: number;
  start: number;
}

/**
 * The pure fold of a session log. Events go in with `apply` (in seq order); `state()` derives each item's
 * transcript (joined segments, in utterance order), voice commitments (the parser over the whole transcript),
 * final and blind labels across voice, click and key by event order, and signals (audio signals logged at the
 * last stop while they still cover all the audio, plus transcript signals).
 */
export class SessionFold {
  private readonly audio: AudioLedgerFold;
  private readonly items = new Map<string, ItemFold>();
  /** derived item states, dropped when an event for the item arrives */
  private readonly derived = new Map<string, ItemSessionState>();
  private readonly notes: SessionNote[] = [];
  private annotator: string | null = null;
  private projectName: string | null = null;
  private currentItem: string | null = null;
  private lastSeq = 0;
  private readonly analyze: (segments: readonly Segment[]) => TranscriptAnalysis;

  constructor(
    private readonly config: FoldConfig,
    private readonly file = 'events.jsonl',
  ) {
    this.audio = new AudioLedgerFold(file);
    this.analyze = createTranscriptAnalyzer(config);
  }

  apply(event: SessionEvent): void {
    this.audio.apply(event);
    this.lastSeq = event.seq;
    // Every event that changes an item names it: only that item's derived state must be computed again.
    const itemId = (event.data as { item_id?: unknown }).item_id;
    if (typeof itemId === 'string') this.derived.delete(itemId);
    switch (event.type) {
      case 'session_started':
        this.annotator = event.data.annotator;
        this.projectName = event.data.project_name;
        return;
      case 'item_opened': {
        const item = this.item(event.data.item_id);
        item.started_at ??= event.ts;
        if (event.data.text_sha256 !== undefined) item.text_sha256 = event.data.text_sha256;
        this.currentItem = event.data.item_id;
        return;
      }
      case 'recording_started':
        this.item(event.data.item_id).started_at ??= event.ts;
        return;
      case 'utterance_transcribed': {
        const { item_id, utterance, segments, model } = event.data;
        this.item(item_id).utterances.set(utterance, { seq: event.seq, segments, model });
        return;
      }
      case 'label_committed': {
        const { item_id, label, source } = event.data;
        // Voice commitments are derived from the transcript; the event only records when they were seen.
        if (source !== 'voice') this.item(item_id).manual.push({ label, source, at: event.ts, seq: event.seq });
        return;
      }
      case 'item_completed':
        this.item(event.data.item_id).completed_at = event.ts;
        return;
      case 'stale_result':
        this.item(event.data.item_id).stale_results++;
        return;
      case 'signals_computed':
        this.item(event.data.item_id).audioSignals = event.data;
        return;
      case 'note':
        this.notes.push({ seq: event.seq, ts: event.ts, item_id: event.data.item_id, text: event.data.text });
        return;
      case 'reasoning_shown': {
        const { item_id, steps, model_label, audio_samples } = event.data;
        // the first showing is the one that separates labels given before and after seeing the model
        this.item(item_id).reasoning ??= { shown_at: event.ts, steps, model_label, audio_ms: Math.round((audio_samples * 1000) / SESSION_SAMPLE_RATE) };
        return;
      }
      case 'step_judged': {
        const { item_id, index, reward, source, kind, quote, audio_ms } = event.data;
        this.item(item_id).step_judgments.push({ index, reward, source, kind, at: event.ts, audio_ms, quote });
        return;
      }
      default:
        return;
    }
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
    const audio = this.audio.clone();
    entries.forEach((entry, i) => {
      const problem = checkEventData(entry.type, entry.data);
      if (problem !== null) throw new SessionLogError(this.file, firstSeq + i, `${entry.type}: ${problem}`);
      audio.apply({ v: EVENT_VERSIONS[entry.type], seq: firstSeq + i, ts: '', type: entry.type, data: entry.data } as SessionEvent);
    });
  }

  /** One more than the highest utterance index transcribed for the item (0 when none). */
  nextUtteranceIndex(itemId: string): number {
    const utterances = this.items.get(itemId)?.utterances;
    return utterances && utterances.size > 0 ? Math.max(...utterances.keys()) + 1 : 0;
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
    return {
      annotator: this.annotator,
      project_name: this.projectName,
      current_item: this.currentItem,
      recording: this.audio.ledger.openRecording,
      items: [...this.items.values()].map((item) => this.derivedItem(item)),
      notes: [...this.notes],
      last_seq: this.lastSeq,
    };
  }

  private item(itemId: string): ItemFold {
    let item = this.items.get(itemId);
    if (!item) {
      item = { item_id: itemId, started_at: null, completed_at: null, stale_results: 0, utterances: new Map(), manual: [], audioSignals: null, text_sha256: null, reasoning: null, step_judgments: [] };
      this.items.set(itemId, item);
    }
    return item;
  }

  /** The item's state, derived once per change: the UI asks for the whole session on every call. */
  private derivedItem(item: ItemFold): ItemSessionState {
    let state = this.derived.get(item.item_id);
    if (!state) {
      state = this.deriveItem(item);
      this.derived.set(item.item_id, state);
    }
    return state;
  }

  private deriveItem(item: ItemFold): ItemSessionState {
    const audio = this.audio.ledger.items.get(item.item_id);
    const samples = audio?.samples ?? 0;
    const utterances = [...item.utterances.entries()].sort((a, b) => a[0] - b[0]).map(([, u]) => u);
    const segments = utterances.flatMap((u) => u.segments);
    const analysis = this.analyze(segments);
    const { parse, commitments } = analysis;

    // Each utterance's end offset in the transcript, so a voice commitment gets the seq of the utterance that completed it.
    const utteranceEnds: Array<{ end: number; seq: number }> = [];
    let spanIndex = 0;
    for (const u of utterances) {
      spanIndex += u.segments.length;
      const end = spanIndex === 0 ? 0 : analysis.spans[spanIndex - 1]!.end;
      utteranceEnds.push({ end, seq: u.seq });
    }
    const ordered: OrderedLabel[] = [
      ...parse.commitments.map((c) => ({
        label: c.label,
        source: 'voice' as const,
        seq: utteranceEnds.find((u) => u.end >= c.end)?.seq ?? this.lastSeq,
        start: c.start,
      })),
      ...item.manual.map((m) => ({ label: m.label, source: m.source, seq: m.seq, start: 0 })),
    ].sort((a, b) => a.seq - b.seq || a.start - b.start);
    const first = ordered[0];
    const last = ordered[ordered.length - 1];

    const audioSignals: AudioSignals | null = item.audioSignals && item.audioSignals.audio_samples === samples ? item.audioSignals.audio : null;
    const hasTranscript = utterances.length > 0;
    const transcriptSignals = hasTranscript ? analysis.signals : null;
    const signals = audioSignals || transcriptSignals ? { ...audioSignals, ...transcriptSignals } : null;

    return {
      item_id: item.item_id,
      audio_path: audio?.audio_path ?? null,
      audio_ms: Math.round((samples * 1000) / SESSION_SAMPLE_RATE),
      transcript: analysis.transcript,
      segments,
      commitments,
      final_label: last?.label ?? null,
      label_source: last?.source ?? null,
      blind_label: first?.label ?? null,
      signals,
      model: utterances.length > 0 ? utterances[utterances.length - 1]!.model : null,
      started_at: item.started_at,
      completed_at: item.completed_at,
      stale_results: item.stale_results,
      manual_labels: item.manual.map(({ label, source, at }) => ({ label, source, at })),
      parse_diagnostics: parse.diagnostics,
      item_text_sha256: item.text_sha256,
      reasoning: item.reasoning,
      step_judgments: [...item.step_judgments],
    };
  }
}

/** The state of a whole log: the pure fold over its events. */
export function foldSession(events: readonly SessionEvent[], config: FoldConfig, file = 'events.jsonl'): SessionState {
  const fold = new SessionFold(config, file);
  for (const event of events) fold.apply(event);
  return fold.state();
}
