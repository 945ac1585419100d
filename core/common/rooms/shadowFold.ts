import type { AlphaLevel } from '../agreement/krippendorff';
import { looksLikeWord } from '../names/personNames';
import { looksAlike } from '../text/textFold';
import { utf8Length } from '../names/nameRules';
import type { LabelSource } from '../session/itemState';
import type { LivePause } from './livePauses';
import { MAX_MEMBER_LOG_BYTES, MAX_ROOM_LOG_BYTES } from './roomEvents';
import { RoomLogError, RoomRuleError } from './roomFold';
import { memberNameRefusal } from './roomNames';
import type { ShadowFeed } from './shadowFeed';
import {
  MAX_SHADOW_FEED_BYTES,
  MAX_SHADOW_TEXT_CHARS,
  type ShadowCommitment,
  type ShadowDiagnostic,
  type ShadowEntry,
  type ShadowEvent,
  type ShadowEventData,
  type ShadowPriorLabels,
  type ShadowSegment,
} from './shadowEvents';
import { say } from '../refusal/refusalMessage';

export interface ShadowTrainee {
  member_id: string;
  name: string;
  token_sha256: string;
  removed: boolean;
  /** bytes of the log this trainee's own events take (joining, practice votes) */
  log_bytes: number;
}

export interface ShadowLabelAct {
  seq: number;
  at: string;
  label: string;
  source: LabelSource;
  quote: string | null;
  audio_ms: number | null;
}

export interface PracticeVote {
  seq: number;
  at: string;
  /** null: skipped */
  label: string | null;
  /** since the item was shown */
  ms: number;
  expert_had_labelled: boolean;
}

/** One item the expert worked on while the room watched: everything shown of it, and the trainees' practice on it. */
export interface ShadowItemState {
  item_id: string;
  text: string;
  context: string | null;
  /** when it was last shown (practice time counts from here) */
  shown_at: string;
  shown_seq: number;
  prior: ShadowPriorLabels | null;
  utterances: Map<number, ShadowSegment[]>;
  commitments: ShadowCommitment[];
  diagnostics: ShadowDiagnostic[];
  partial: { utterance: number; text: string; hidden: Array<{ start: number; end: number }> } | null;
  labels: ShadowLabelAct[];
  /** the item's first and final label, as her session's fold has them after her last act (or before the room: prior) */
  expert_blind: string | null;
  expert_final: string | null;
  pauses: LivePause[];
  reasoning: { steps: string[]; model_label: string | null; at: string } | null;
  selection: { start: number; end: number; quote: string; at: string } | null;
  recording: boolean;
  completed: boolean;
  /** why live view of it ended; null while it is on view */
  ended: ShadowEventData['item_left']['reason'] | null;
  votes: Map<string, PracticeVote>;
}

export interface ShadowState {
  code: string;
  project: string;
  /** whose annotating is shown: fixed when the room opens, or by the first session that feeds it */
  expert: string | null;
  labels: string[];
  level: AlphaLevel;
  max_members: number;
  seq: number;
  trainees: Map<string, ShadowTrainee>;
  /** items in the order they were first shown */
  items: Map<string, ShadowItemState>;
  /** the item on view (live, or the last one shown) */
  current: string | null;
  /** the session feeding the room now, if any */
  expert_present: { annotator: string; via: 'app' | 'ingest' } | null;
  audio_shared: boolean;
  closed: boolean;
  log_bytes: number;
  /** bytes of trainees' own events (joins and practice votes), bounded like a norming room's log */
  trainee_bytes: number;
  /** bytes of everything else: what the expert's feed showed, and the room's own events */
  feed_bytes: number;
  feed_stopped: boolean;
  /** changes with every event that changes the practice metrics (votes, labels, items ending, trainees removed) */
  metrics_version: number;
}

export function emptyShadowRoom(opened: ShadowEventData['shadow_opened']): ShadowState {
  return {
    code: opened.code,
    project: opened.project,
    expert: opened.expert,
    labels: [...opened.labels],
    level: opened.level,
    max_members: opened.max_members,
    seq: 0,
    trainees: new Map(),
    items: new Map(),
    current: null,
    expert_present: null,
    audio_shared: false,
    closed: false,
    log_bytes: 0,
    trainee_bytes: 0,
    feed_bytes: 0,
    feed_stopped: false,
    metrics_version: 0,
  };
}

/** Bytes an event takes in the log: its JSON line as the writer writes it. */
export function shadowEventBytes(event: ShadowEvent): number {
  return utf8Length(JSON.stringify(event)) + 1;
}

/** Whether the item is on view now (shown, and its live view not ended). */
export function isLive(state: ShadowState, itemId: string): boolean {
  return state.current === itemId && state.items.get(itemId)?.ended === null;
}

const TRAINEE_EVENTS = new Set<ShadowEvent['type']>(['trainee_joined', 'practice_vote']);
/** events that change what the agreement counts: items ending (or shown again) and who is in the room */
const METRICS_EVENTS = new Set<ShadowEvent['type']>(['item_left', 'item_shown', 'trainee_removed', 'trainee_joined']);

/** Applies one logged event (mutating the state); the log was written by the rules below, so it is trusted but checked for order. */
export function applyShadowEvent(state: ShadowState | null, event: ShadowEvent, where = 'shadow room log'): ShadowState {
  if (state === null) {
    if (event.type !== 'shadow_opened') throw new RoomLogError(say('refusal.rooms.theFirstEventMustBe2', { where, type: event.type }));
    const room = emptyShadowRoom(event.data);
    room.seq = event.seq;
    room.log_bytes = room.feed_bytes = shadowEventBytes(event);
    return room;
  }
  if (event.seq !== state.seq + 1)
    throw new RoomLogError(say('refusal.rooms.eventSeqFollowsAGap', { where, seq: event.seq, seq2: state.seq }));
  state.seq = event.seq;
  const bytes = shadowEventBytes(event);
  state.log_bytes += bytes;
  if (TRAINEE_EVENTS.has(event.type)) state.trainee_bytes += bytes;
  else state.feed_bytes += bytes;
  // labels and answers on the live item count only once it ends: recomputing the bootstrap for each would delay her label
  const endedItemVote = (event.type === 'label_act' || event.type === 'practice_vote') && !isLive(state, event.data.item_id);
  if (METRICS_EVENTS.has(event.type) || endedItemVote) state.metrics_version++;
  const itemOf = (id: string): ShadowItemState => {
    const item = state.items.get(id);
    if (!item) throw new RoomLogError(say('refusal.rooms.seqNamesItemWhichWas', { where, seq: event.seq, id }));
    return item;
  };
  switch (event.type) {
    case 'shadow_opened':
      throw new RoomLogError(say('refusal.rooms.aSecondShadowOpenedAt', { where, seq: event.seq }));
    case 'expert_joined':
      state.expert ??= event.data.annotator;
      state.expert_present = { annotator: event.data.annotator, via: event.data.via };
      break;
    case 'expert_left':
      state.expert_present = null;
      break;
    case 'trainee_joined':
      state.trainees.set(event.data.member_id, { ...event.data, removed: false, log_bytes: bytes });
      break;
    case 'trainee_removed': {
      const t = state.trainees.get(event.data.member_id);
      if (t) t.removed = true;
      break;
    }
    case 'item_shown': {
      const { item_id, text, context, prior } = event.data;
      const known = state.items.get(item_id);
      if (known) {
        Object.assign(known, { text, context, shown_at: event.ts, shown_seq: event.seq, ended: null, partial: null, recording: false });
        if (prior && known.expert_final === null)
          Object.assign(known, { prior, expert_blind: prior.blind_label, expert_final: prior.final_label });
      } else {
        state.items.set(item_id, {
          item_id,
          text,
          context,
          shown_at: event.ts,
          shown_seq: event.seq,
          prior,
          utterances: new Map(),
          commitments: [],
          diagnostics: [],
          partial: null,
          labels: [],
          expert_blind: prior?.blind_label ?? null,
          expert_final: prior?.final_label ?? null,
          pauses: [],
          reasoning: null,
          selection: null,
          recording: false,
          completed: false,
          ended: null,
          votes: new Map(),
        });
      }
      state.current = item_id;
      break;
    }
    case 'item_left': {
      const item = itemOf(event.data.item_id);
      item.ended = event.data.reason;
      item.recording = false;
      item.partial = null;
      dropTrailingSilence(item);
      break;
    }
    case 'recording': {
      const item = itemOf(event.data.item_id);
      item.recording = event.data.on;
      if (!event.data.on) dropTrailingSilence(item);
      break;
    }
    case 'text_selected': {
      const { span } = event.data;
      itemOf(event.data.item_id).selection = span === null ? null : { ...span, at: event.ts };
      break;
    }
    case 'partial':
      itemOf(event.data.item_id).partial = { utterance: event.data.utterance, text: event.data.text, hidden: event.data.hidden };
      break;
    case 'utterances': {
      const item = itemOf(event.data.item_id);
      for (const u of event.data.utterances) item.utterances.set(u.utterance, u.segments);
      item.commitments = event.data.commitments;
      item.diagnostics = event.data.diagnostics;
      // the final replaces the greyed text of its utterance
      if (item.partial && item.utterances.has(item.partial.utterance)) item.partial = null;
      break;
    }
    case 'label_act': {
      const { label, source, quote, audio_ms, blind_label, final_label } = event.data;
      const item = itemOf(event.data.item_id);
      item.labels.push({ seq: event.seq, at: event.ts, label, source, quote, audio_ms });
      item.expert_blind = blind_label;
      item.expert_final = final_label;
      break;
    }
    case 'pause': {
      const { start_ms, ms, ended } = event.data;
      const item = itemOf(event.data.item_id);
      const last = item.pauses.at(-1);
      // a pause told again while it goes on replaces its earlier telling
      if (last && !last.ended && last.start_ms === start_ms) item.pauses[item.pauses.length - 1] = { start_ms, ms, ended };
      else item.pauses.push({ start_ms, ms, ended });
      break;
    }
    case 'reasoning_shown':
      itemOf(event.data.item_id).reasoning ??= { steps: event.data.steps, model_label: event.data.model_label, at: event.ts };
      break;
    case 'item_completed':
      itemOf(event.data.item_id).completed = true;
      break;
    case 'audio_shared':
      state.audio_shared = event.data.on;
      break;
    case 'practice_vote': {
      const { member_id, item_id, label, ms, expert_had_labelled } = event.data;
      itemOf(item_id).votes.set(member_id, { seq: event.seq, at: event.ts, label, ms, expert_had_labelled });
      const t = state.trainees.get(member_id);
      if (t) t.log_bytes += bytes;
      break;
    }
    case 'feed_stopped':
      state.feed_stopped = true;
      break;
    case 'room_closed':
      state.closed = true;
      state.audio_shared = false;
      break;
  }
  return state;
}

/** A silence still running when the recording stops lies after the last speech: not a pause (as the signals count them). */
function dropTrailingSilence(item: ShadowItemState): void {
  if (item.pauses.at(-1)?.ended === false) item.pauses.pop();
}

export function foldShadowRoom(events: readonly ShadowEvent[], where?: string): ShadowState {
  let state: ShadowState | null = null;
  for (const e of events) state = applyShadowEvent(state, e, where);
  if (state === null) throw new RoomLogError(say('refusal.rooms.empty', { value: where ?? say('refusal.rooms.shadowRoomLog') }));
  return state;
}

// ——— the rules: each checks a request against the state and returns what to log ———

function openRoom(state: ShadowState): void {
  if (state.closed) throw new RoomRuleError(409, say('refusal.rooms.theRoomIsClosed'));
}

function activeTrainee(state: ShadowState, memberId: string): ShadowTrainee {
  const t = state.trainees.get(memberId);
  if (!t || t.removed) throw new RoomRuleError(403, say('refusal.rooms.youAreNotATrainee'));
  return t;
}

/** Refuses a trainee's event that would grow their share, or the trainees' part of the log, past its bound. */
function traineeRoomInLog(state: ShadowState, trainee: ShadowTrainee | null): void {
  if (state.trainee_bytes >= MAX_ROOM_LOG_BYTES)
    throw new RoomRuleError(409, say('refusal.rooms.theRoomLogIsFull2', { value: MAX_ROOM_LOG_BYTES / (1024 * 1024) }));
  if (trainee && trainee.log_bytes >= MAX_MEMBER_LOG_BYTES)
    throw new RoomRuleError(409, say('refusal.rooms.yourShareOfTheRoom2', { value: MAX_MEMBER_LOG_BYTES / 1024 }));
}

/**
 * A trainee's name: the norming room's rules (NFC, at most 40 characters, no control, invisible or text-direction
 * characters, no look-alike of a trainee present or removed, never "lead"), and neither "expert" nor a look-alike of
 * the expert's name: the page marks the expert by her role, and nobody can pass for her.
 */
export function decideTraineeJoin(
  state: ShadowState,
  name: string,
  memberId: string,
  tokenSha256: string,
): ShadowEventData['trainee_joined'] {
  openRoom(state);
  traineeRoomInLog(state, null);
  const clean = name.normalize('NFC').trim();
  const members = [...state.trainees.values()];
  const refusal = memberNameRefusal(clean, state.code, members);
  if (refusal) throw new RoomRuleError(refusal.status, refusal.say);
  if (looksLikeWord(clean, 'expert')) throw new RoomRuleError(400, say('refusal.rooms.readsAsExpertTheExpert', { clean }));
  const expert = state.expert ?? state.expert_present?.annotator ?? null;
  if (expert !== null && looksAlike(expert, clean)) throw new RoomRuleError(409, say('refusal.rooms.isOrLooksLikeThe', { clean }));
  if (members.filter((m) => !m.removed).length >= state.max_members)
    throw new RoomRuleError(409, say('refusal.rooms.theRoomIsFullTrainees', { maxMembers: state.max_members }));
  return { member_id: memberId, name: clean, token_sha256: tokenSha256 };
}

export function decideRemoveTrainee(state: ShadowState, memberId: string): ShadowEventData['trainee_removed'] {
  openRoom(state);
  activeTrainee(state, memberId);
  return { member_id: memberId };
}

/**
 * A practice label (null: skip) for the item on view, once per item: it is final, because the expert's labels are
 * shown to the trainee right after it. The item must be live: once the expert has left it, its practice is over.
 */
export function decidePractice(
  state: ShadowState,
  memberId: string,
  itemId: string,
  label: string | null,
  nowMs: number,
): ShadowEventData['practice_vote'] {
  openRoom(state);
  const trainee = activeTrainee(state, memberId);
  const item = state.items.get(itemId);
  if (!item) throw new RoomRuleError(404, say('refusal.rooms.theExpertHasNotShown', { itemId }));
  if (!isLive(state, itemId)) throw new RoomRuleError(409, say('refusal.rooms.theExpertHasLeftIts', { itemId }));
  if (label !== null && !state.labels.includes(label))
    throw new RoomRuleError(400, say('refusal.adjudication.isNotOneOfThe', { label, labels: state.labels.join(', ') }));
  if (item.votes.has(memberId)) throw new RoomRuleError(409, say('refusal.rooms.yourAnswerOnIsGiven', { itemId }));
  traineeRoomInLog(state, trainee);
  return {
    member_id: memberId,
    item_id: itemId,
    label,
    ms: Math.max(0, Math.round(nowMs - Date.parse(item.shown_at))),
    expert_had_labelled: item.labels.length > 0 || item.prior !== null,
  };
}

/** The expert shares her audio (or stops): only while the room is open; the same setting again logs nothing. */
export function decideAudioShared(state: ShadowState, on: boolean): ShadowEventData['audio_shared'] | null {
  openRoom(state);
  return state.audio_shared === on ? null : { on };
}

/** Closing ends live view of the item on view first, so the log says how it ended. */
export function decideCloseShadow(state: ShadowState): ShadowEntry[] {
  if (state.closed) throw new RoomRuleError(409, say('refusal.rooms.theRoomIsClosedAlready'));
  const current = state.current;
  return [
    ...(current !== null && isLive(state, current)
      ? [{ type: 'item_left' as const, data: { item_id: current, reason: 'room_closed' as const } }]
      : []),
    { type: 'room_closed', data: {} },
  ];
}

/** Her session stopped feeding (closed, or the feed was lost): live view of the item ends with it. */
export function decideExpertGone(state: ShadowState, reason: ShadowEventData['expert_left']['reason']): ShadowEntry[] {
  if (state.closed || state.expert_present === null) return [];
  const current = state.current;
  return [
    ...(current !== null && isLive(state, current)
      ? [{ type: 'item_left' as const, data: { item_id: current, reason: 'expert_left' as const } }]
      : []),
    { type: 'expert_left', data: { reason } },
  ];
}

/** What the room knows besides its log: the project's items (texts are shown from here, never from the feed) and the commit-phrase finder. */
export interface ShadowContext {
  items: ReadonlyMap<string, { text: string; context?: string }>;
  /** spans of a partial text that read as a commit phrase (masked for trainees who have not answered) */
  commitSpans(text: string): Array<{ start: number; end: number }>;
}

const cut = (text: string): string => (text.length > MAX_SHADOW_TEXT_CHARS ? text.slice(0, MAX_SHADOW_TEXT_CHARS) : text);
const cutSegments = (segments: readonly ShadowSegment[]): ShadowSegment[] => segments.map((s) => ({ ...s, text: cut(s.text) }));

/**
 * What one record of the expert's feed shows: the events to log (none when it changes nothing). The feed is one
 * way, from her session to the room; the room never answers into her session. A closed room, or a feed past the
 * log's bound, shows nothing more (feed_stopped once). Finals, labels, reasoning and completion of an item she has
 * left are still logged to it (a transcription lands after she moved on); everything else is about the item on view.
 */
export function decideFeed(state: ShadowState, feed: Exclude<ShadowFeed, { kind: 'audio' }>, context: ShadowContext): ShadowEntry[] {
  openRoom(state);
  if (feed.kind === 'expert') {
    const expert = state.expert;
    if (expert !== null && expert.normalize('NFC').toLowerCase() !== feed.annotator.normalize('NFC').toLowerCase()) {
      throw new RoomRuleError(403, say('refusal.rooms.thisRoomShadowsNot', { expert, annotator: feed.annotator }));
    }
    if (state.expert_present)
      throw new RoomRuleError(
        409,
        say('refusal.rooms.theRoomIsFedBy', {
          annotator: state.expert_present.annotator,
          via: say(`refusal.rooms.via.${state.expert_present.via}`),
        }),
      );
    return [{ type: 'expert_joined', data: { annotator: feed.annotator, via: feed.via } }];
  }
  if (!state.expert_present) throw new RoomRuleError(409, say('refusal.rooms.theFeedMustNameThe'));
  if (state.feed_stopped) return [];
  if (state.feed_bytes >= MAX_SHADOW_FEED_BYTES) return [{ type: 'feed_stopped', data: { log_bytes: state.log_bytes } }];
  if (feed.kind === 'left') return decideExpertGone(state, 'session_closed');
  const itemId = feed.item_id;
  const item = state.items.get(itemId);
  const live = isLive(state, itemId);
  switch (feed.kind) {
    case 'item': {
      if (live) return [];
      const known = context.items.get(itemId);
      if (!known) throw new RoomRuleError(404, say('refusal.session.itemIsNotInThe', { itemId }));
      const current = state.current;
      const entries: ShadowEntry[] = [];
      if (current !== null && isLive(state, current))
        entries.push({ type: 'item_left', data: { item_id: current, reason: 'item_changed' } });
      entries.push({
        type: 'item_shown',
        data: {
          item_id: itemId,
          text: known.text,
          context: known.context ?? null,
          prior: item && item.expert_final !== null ? null : feed.prior,
        },
      });
      const fresh = feed.utterances.filter((u) => !item?.utterances.has(u.utterance));
      if (fresh.length > 0) {
        entries.push({
          type: 'utterances',
          data: {
            item_id: itemId,
            utterances: fresh.map((u) => ({ utterance: u.utterance, segments: cutSegments(u.segments) })),
            commitments: feed.commitments,
            diagnostics: feed.diagnostics,
          },
        });
      }
      const selected = item?.selection ?? null;
      if (feed.selection !== null && (selected?.start !== feed.selection.start || selected.end !== feed.selection.end))
        entries.push({ type: 'text_selected', data: { item_id: itemId, span: feed.selection } });
      if (feed.selection === null && selected !== null) entries.push({ type: 'text_selected', data: { item_id: itemId, span: null } });
      if (feed.reasoning && !item?.reasoning) entries.push({ type: 'reasoning_shown', data: { item_id: itemId, ...feed.reasoning } });
      if (feed.recording) entries.push({ type: 'recording', data: { item_id: itemId, on: true } });
      if (feed.completed && !item?.completed) entries.push({ type: 'item_completed', data: { item_id: itemId } });
      return entries;
    }
    case 'recording':
      return live && item!.recording !== feed.on ? [{ type: 'recording', data: { item_id: itemId, on: feed.on } }] : [];
    case 'partial': {
      if (!live) return [];
      const text = cut(feed.text);
      // the engine tells the same text again while nothing new was heard: nothing new is shown
      if (item!.partial?.utterance === feed.utterance && item!.partial.text === text) return [];
      return [{ type: 'partial', data: { item_id: itemId, utterance: feed.utterance, text, hidden: context.commitSpans(text) } }];
    }
    case 'selection': {
      if (!live) return [];
      const now = item!.selection;
      const same = feed.span === null ? now === null : now !== null && now.start === feed.span.start && now.end === feed.span.end;
      return same ? [] : [{ type: 'text_selected', data: { item_id: itemId, span: feed.span } }];
    }
    case 'utterance':
      if (!item) return [];
      return [
        {
          type: 'utterances',
          data: {
            item_id: itemId,
            utterances: [{ utterance: feed.utterance, segments: cutSegments(feed.segments) }],
            commitments: feed.commitments,
            diagnostics: feed.diagnostics,
          },
        },
      ];
    case 'label':
      if (!item) return [];
      return [
        {
          type: 'label_act',
          data: {
            item_id: itemId,
            label: feed.label,
            source: feed.source,
            quote: feed.quote === null ? null : cut(feed.quote),
            audio_ms: feed.audio_ms,
            blind_label: feed.blind_label,
            final_label: feed.final_label,
          },
        },
      ];
    case 'reasoning':
      return item && !item.reasoning
        ? [{ type: 'reasoning_shown', data: { item_id: itemId, steps: feed.steps.map(cut), model_label: feed.model_label } }]
        : [];
    case 'completed':
      return item && !item.completed ? [{ type: 'item_completed', data: { item_id: itemId } }] : [];
  }
}

/** A pause the room's watch heard in her recording: shown only on the item on view, and while the feed is logged. */
export function decidePause(state: ShadowState, itemId: string, pause: LivePause): ShadowEntry[] {
  if (state.closed || state.feed_stopped || !isLive(state, itemId)) return [];
  return [{ type: 'pause', data: { item_id: itemId, ...pause } }];
}
