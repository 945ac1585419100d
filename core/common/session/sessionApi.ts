/**
 * The session domain of the app API: the annotator's session, navigation, recording, labels, completion, the model's
 * reasoning, notes, cues, corrections and transcribing again; its handlers are core/node/session/sessionHandlers.ts.
 */
import type { MethodTable } from '../apiSlice/methodSpec';
import {
  type ArgCheck,
  bytes,
  nonEmptyString,
  nonNegativeInteger,
  nonNegativeNumber,
  nullableString,
  offsetOrNull,
  oneOf,
  text,
} from '../apiSlice/argChecks';
import { Refusal } from '../refusal/refusal';
import type { SaidMessage } from '../refusal/refusalMessage';
import type { ReasoningView } from '../reasoning/reasoningReveal';
import type { ItemSessionState } from './itemState';
import type { ItemSummary } from './itemSummary';

/** Where the annotator is and what each item holds so far. */
export interface SessionView {
  annotator: string;
  current_item: string | null;
  recording_item: string | null;
  /** every item the annotator has touched, folded from the event log, as its line in the item list (itemSummary.ts) */
  items: ItemSummary[];
  /**
   * items in full, by id: the open item when the view was made; a page adds each item a patch, an item event or
   * sessionItem brings (an item touched but not here is fetched with sessionItem when it is shown)
   */
  item_states: Record<string, ItemSessionState>;
  /** transcriptions queued or running */
  pending_transcriptions: number;
  /** the same per item: an item listed here has words still being transcribed ("transcribing…" where its label goes) */
  pending_items: Record<string, number>;
  /** a torn last log line found (and set aside) when the session was opened */
  recovered: string | null;
  /** what was recovered, as a catalog message said in the person's language */
  recovered_said?: SaidMessage | null;
  /** the item whose completion waits for its last transcriptions ("finishing transcription…"), if any */
  finishing_item: string | null;
  /** some recorded voice labels were derived under other parser inputs (labels, synonyms, languages, stems) than the current aloud.yaml's (kept as recorded) */
  config_changed: boolean;
  /** the annotator's notes, oldest first */
  notes: SessionNoteView[];
  /** who is reviewing this annotator's session (their corrections and labels carry the name); null: the annotator works */
  reviewer: string | null;
  /** an annotator's own session, a norming room's votes written back, or a coder's log made by import --codings */
  kind: 'annotator' | 'room' | 'coder';
  /**
   * this view's place in the host's order of views, patches and item events (each later one has a larger stamp): a
   * page keeps an item's state or the session's fields only from something newer than what set them (sessionPatch.ts)
   */
  stamp: number;
}

/** A note as the page shows it. */
export interface SessionNoteView {
  item_id: string | null;
  text: string;
  ts: string;
}

/**
 * What a call that acts on the open session answers instead of the whole view (whose size grows with the study): the
 * items whose fold changed since the last view or patch the host handed out, each whole as the fold now has it, the
 * notes added since then, and the session's own fields. Derived from the fold after the events were appended;
 * `applySessionPatch` (sessionPatch.ts) turns the view before into the view after. Only openSession and session()
 * answer the whole view.
 */
export interface SessionPatch {
  /** items changed, each in full, in the order their first change was logged (an item new to the session is added at the end) */
  changed_items: ItemSessionState[];
  /** the notes added since the last patch, oldest first, and where they start in the session's notes (a page holding more from a view read since keeps the first notes_from) */
  notes_from: number;
  added_notes: SessionNoteView[];
  current_item: string | null;
  recording_item: string | null;
  pending_transcriptions: number;
  pending_items: Record<string, number>;
  finishing_item: string | null;
  config_changed: boolean;
  /** its place in the host's order (SessionView.stamp): a patch older than the page's view or fields changes nothing there */
  stamp: number;
}

/** What the session pushes to the page besides answering calls (AloudEvent). */
export type SessionEvent =
  /** an item changed outside any act (a transcription landing or failing); stamped like patches */
  | { type: 'item'; item: ItemSessionState; stamp: number }
  /** the open session was opened again (new settings, items or a model): its whole view replaces the page's */
  | { type: 'session_reopened'; view: SessionView }
  | { type: 'recording'; item_id: string | null; stamp: number }
  /** transcriptions queued or running, in all and per item */
  | { type: 'transcription'; pending: number; items: Record<string, number>; stamp: number }
  /** completing this item waits for its transcriptions (null: stopped waiting) */
  | { type: 'finishing'; item_id: string | null; stamp: number }
  /**
   * text of an utterance still being spoken: show it greyed, replace it with the final; never a transcript.
   * speculative: the speech ended and this is the final text unless speech resumes (shown in the final style, marked
   * "still listening"; the transcript and any label come only from the final at the cut)
   */
  | { type: 'partial'; item_id: string; utterance: number; text: string; speculative: boolean }
  | { type: 'error'; message: string }
  /** the transcription engine's process died ('crashed'), came back with its model ('restarted') or gave up ('stopped') */
  | { type: 'engine'; state: 'crashed' | 'restarted' | 'stopped'; message: string };

/** The session domain's methods: every act on the open session answers with what it changed (a SessionPatch). */
export interface SessionApi {
  /** opens (or resumes) this annotator's session; recovers after a crash */
  openSession(annotator: string): Promise<SessionView>;
  /** opens an existing annotator's session for review under the reviewer's own name: their corrections and labels carry it */
  reviewSession(annotator: string, reviewer: string): Promise<SessionView>;
  session(): Promise<SessionView>;
  /** one item of the open session in full, as the fold has it now (null: the session holds nothing of it); changes nothing */
  sessionItem(itemId: string): Promise<ItemSessionState | null>;
  openItem(itemId: string): Promise<SessionPatch>;
  startRecording(device: string | null): Promise<SessionPatch>;
  /** one binary chunk frame (core/common/audio/chunkFrame) of the current recording */
  appendAudio(frame: Uint8Array): Promise<void>;
  stopRecording(): Promise<SessionPatch>;
  /** a label act; on a completed item a change of its label is refused (code confirmation_required) until confirmed */
  commitLabel(label: string, source: 'click' | 'key'): Promise<SessionPatch>;
  /** the same act once the annotator has confirmed changing a completed item's label (a change after completion) */
  confirmLabelChange(label: string, source: 'click' | 'key'): Promise<SessionPatch>;
  completeItem(): Promise<SessionPatch>;
  addNote(text: string): Promise<SessionPatch>;
  /** the current item's model reasoning, if aloud.yaml reasoning.reveal allows it now; the first showing is logged */
  showReasoning(): Promise<ReasoningView>;
  /** judge step `index` (1-based) of the shown reasoning: 1 correct, 0 neutral, -1 wrong, null withdraws */
  judgeStep(index: number, reward: 1 | 0 | -1 | null, source: 'click' | 'key'): Promise<SessionPatch>;
  /** words of the open item's text selected (start and end: UTF-16 offsets at word boundaries), or cleared (both null) */
  selectText(start: number | null, end: number | null): Promise<SessionPatch>;
  /** the keep-talking cue was shown while recording, after silenceMs of silence (logged as a cue_shown event) */
  logCue(cue: 'keep_talking', silenceMs: number): Promise<SessionPatch>;
  /** a reviewer's correction of one segment (the lead's transcript_corrected event; the verbatim text is kept) */
  correctSegment(itemId: string, utterance: number, segment: number, text: string): Promise<SessionPatch>;
  /** a label act of source "correction" from the corrected transcript */
  rederiveLabelsFromCorrections(itemId: string): Promise<SessionPatch>;
  /** the label that would set (the corrected text's last commitment), or null when it commits to none; nothing is logged */
  labelFromCorrections(itemId: string): Promise<{ label: string; quote: string } | null>;
  /** transcribes recorded audio again (null: every item with audio and no transcript); earlier transcripts superseded */
  transcribeLater(itemId: string | null): Promise<SessionPatch>;
  /** the item's recording played (Review) from audioFromMs to audioToMs for playedMs by the clock, now stopped: logged as audio_played */
  logPlayback(itemId: string, audioFromMs: number, audioToMs: number, playedMs: number): Promise<SessionPatch>;
}

const stepIndex: ArgCheck = (value, where) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 10_000)
    throw new Refusal('bad_request', `${where} must be a step number from 1`);
};
const stepReward: ArgCheck = (value, where) => {
  if (value !== 1 && value !== 0 && value !== -1 && value !== null) throw new Refusal('bad_request', `${where} must be 1, 0, -1 or null`);
};

/** The session domain's arguments, checked by every host before the handler. */
export const SESSION_METHODS = {
  openSession: { params: [['annotator', nonEmptyString(200)]], scope: 'takes-session' },
  reviewSession: {
    params: [
      ['annotator', nonEmptyString(200)],
      ['reviewer', nonEmptyString(200)],
    ],
    scope: 'takes-session',
  },
  session: { params: [], scope: 'session-page' },
  sessionItem: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  openItem: { params: [['itemId', nonEmptyString()]], scope: 'session-page', answer: 'session-patch' },
  startRecording: { params: [['device', nullableString]], scope: 'session-page', answer: 'session-patch' },
  appendAudio: { params: [['frame', bytes]], scope: 'session-page', binary: true },
  stopRecording: { params: [], scope: 'session-page', answer: 'session-patch' },
  commitLabel: {
    params: [
      ['label', nonEmptyString()],
      ['source', oneOf(['click', 'key'])],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  confirmLabelChange: {
    params: [
      ['label', nonEmptyString()],
      ['source', oneOf(['click', 'key'])],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  completeItem: { params: [], scope: 'session-page', answer: 'session-patch' },
  addNote: { params: [['text', text]], scope: 'session-page', answer: 'session-patch' },
  showReasoning: { params: [], scope: 'session-page' },
  judgeStep: {
    params: [
      ['index', stepIndex],
      ['reward', stepReward],
      ['source', oneOf(['click', 'key'])],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  selectText: {
    params: [
      ['start', offsetOrNull],
      ['end', offsetOrNull],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  logCue: {
    params: [
      ['cue', oneOf(['keep_talking'])],
      ['silenceMs', nonNegativeNumber],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  correctSegment: {
    params: [
      ['itemId', nonEmptyString()],
      ['utterance', nonNegativeInteger],
      ['segment', nonNegativeInteger],
      ['text', text],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
  rederiveLabelsFromCorrections: { params: [['itemId', nonEmptyString()]], scope: 'session-page', answer: 'session-patch' },
  labelFromCorrections: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  transcribeLater: { params: [['itemId', nullableString]], scope: 'session-page', answer: 'session-patch' },
  logPlayback: {
    params: [
      ['itemId', nonEmptyString()],
      ['audioFromMs', nonNegativeNumber],
      ['audioToMs', nonNegativeNumber],
      ['playedMs', nonNegativeNumber],
    ],
    scope: 'session-page',
    answer: 'session-patch',
  },
} as const satisfies MethodTable<SessionApi, SessionPatch>;
