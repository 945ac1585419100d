import type { CommitmentFields, ParseDiagnostic, VoiceCommitment } from '../parser/parseTypes';
import type { AudioSignals } from '../signals/signalTypes';
import type { VadSignals } from '../signals/vadSignals';
import type { Segment } from '../transcript/segment';
import type { LabelSource } from './itemState';
import type { ReasoningReveal } from '../reasoning/reasoningConfig';
import type { AppliedSplit } from '../reasoning/reasoningSteps';
import type { StepJudgmentSource } from '../reasoning/stepJudgments';
import type { LoggedEvent } from '../io/loggedEvent';

/** Why a recording ended; everything except 'user' and 'end_of_input' is an interruption. */
export type RecordingStopReason = 'user' | 'end_of_input' | 'item_changed' | 'device_lost' | 'write_error' | 'closed' | 'recovered';

export const RECORDING_STOP_REASONS: readonly RecordingStopReason[] = [
  'user',
  'end_of_input',
  'item_changed',
  'device_lost',
  'write_error',
  'closed',
  'recovered',
];

export const LABEL_SOURCES: readonly LabelSource[] = ['voice', 'click', 'key', 'correction', 'room'];

/** How a coding act came to be: a key or a click in the coding view, an `import --codings`, an undo; a removal may replace a code (exclusive codebook). */
export type CodeActSource = 'key' | 'click' | 'import' | 'undo' | 'replaced';
export const CODE_ACT_SOURCES: readonly CodeActSource[] = ['key', 'click', 'import', 'undo', 'replaced'];

/**
 * A coding act, logged by the coder in their own log: which annotator's protocol (item, unit), the unit's words and
 * times as they were coded (so the act stays with its unit whatever the protocol's transcript becomes), the code, the
 * codebook version in force, whether the coder had finished the item before (then, in blind coding, they had seen the
 * other coders' codes), and the act it undoes (its seq) when it is an undo.
 */
export interface CodeActData {
  annotator: string;
  item_id: string;
  unit: string;
  unit_text: string;
  unit_t0_ms: number;
  unit_t1_ms: number;
  code: string;
  coder: string;
  codebook_version: string;
  source: CodeActSource;
  after_finished: boolean;
  undo_of: number | null;
}

/**
 * What kind of session a log is: an annotator's own work, a norming room's votes written back as labels (kept apart:
 * not an annotator of the project's agreement unless asked for), or a coder's log made by `import --codings` (codings
 * only, no protocol). null: a log from before kinds were recorded.
 */
export type SessionKind = 'annotator' | 'room' | 'coder';
export const SESSION_KINDS: readonly SessionKind[] = ['annotator', 'room', 'coder'];

/** A model file named by what it is and its bytes' sha256 (the VAD beside the whisper model). */
export interface ModelIdentity {
  name: string;
  sha256: string;
}

/** The data of every event type at its current version. */
export interface SessionEventData {
  /**
   * first event of a log: who annotates, in which project, under which configuration and parser; (v3) the kind of
   * session and, for a room's write-back, the room and member whose votes it holds
   */
  session_started: {
    annotator: string;
    project_name: string;
    sample_rate: number;
    config_sha256: string | null;
    parser_version: string | null;
    /** (v4) sha256 of what the parser reads of that configuration (parserInputsText); null in logs from before */
    parser_inputs_sha256: string | null;
    kind: SessionKind | null;
    room: { code: string; member_id: string } | null;
  };
  /**
   * a writer opened an existing log again (after a clean close or a crash), with the configuration in force from now
   * on; (v3) `reviewer`: someone other than the annotator opened it to review (their corrections carry their name)
   */
  session_resumed: {
    pid: number;
    host: string;
    config_sha256: string | null;
    parser_version: string | null;
    reviewer: string | null;
    /** (v4) as in session_started */ parser_inputs_sha256: string | null;
  };
  /** the annotator navigated to an item; the last one is where a resumed session continues */
  /** text_sha256: the item text the annotator saw (null in logs written before it was recorded) */
  item_opened: { item_id: string; text_sha256: string | null };
  /** audio_path is relative to the project folder; offset_samples is where this recording starts in the item's WAV */
  recording_started: { item_id: string; audio_path: string; offset_samples: number; device: string | null };
  /** audio made durable in the item's WAV (one event per fsync point, not per chunk) */
  audio_appended: { item_id: string; offset_samples: number; samples: number };
  recording_stopped: { item_id: string; total_samples: number; reason: RecordingStopReason; error: string | null };
  /** on reopening after a crash: the WAV's real length (from its size) replaces what the log had seen */
  audio_recovered: { item_id: string; samples_logged: number; samples_total: number; header_repaired: boolean };
  /** segments are timed on the item's audio timeline; (v3) model.vad: the voice-activity model that cut the utterance (null: the energy rule, or not recorded) */
  utterance_transcribed: {
    item_id: string;
    utterance: number;
    request_id: string;
    start_sample: number;
    end_sample: number;
    segments: Segment[];
    /** whisper_cpp: the version of the engine that transcribed it (null in logs before it was recorded) */
    model: { name: string; sha256: string; whisper_cpp: string | null; vad: ModelIdentity | null };
  };
  /**
   * A label act. Voice: a commitment the parser found when a transcription landed (quote, offsets, audio time,
   * parser version): the fold reads these and never parses. Click, key, correction, room: at the event's time.
   * (v3) reviewer: the act is a reviewer's (a label from their corrections), never the annotator's own; null: the
   * annotator's (or, in a log from before, not recorded).
   */
  label_committed: {
    item_id: string;
    label: string;
    source: LabelSource;
    parser_version: string | null;
    reviewer: string | null;
  } & CommitmentFields;
  /**
   * the item's final label changed (a record for auditors; the fold derives it); after_completion: the item was
   * already completed; (v3) reviewer: the change is a reviewer's act
   */
  label_changed: { item_id: string; from: string; to: string; source: LabelSource; after_completion: boolean; reviewer: string | null };
  item_completed: { item_id: string };
  /** a transcription result that arrived for audio that is no longer current, and was not applied */
  stale_result: { item_id: string; request_id: string; reason: string };
  /**
   * audio signals over the item's whole WAV, computed when a recording stops (so the fold stays pure): the energy
   * ones, and (v2) the voice-activity ones when the Silero VAD ran (null without its model, in v1 logs, and after
   * a crash recovery, which runs before any engine). (v3) vad_model: the VAD that computed them; takes: where each
   * recording (take) begins in the WAV, in samples — pauses are found within a take, never across two; null: the
   * whole WAV as one (logs from before)
   */
  signals_computed: {
    item_id: string;
    audio_samples: number;
    audio: AudioSignals;
    vad: VadSignals | null;
    vad_model: ModelIdentity | null;
    takes: number[] | null;
  };
  /** a torn last line (a write cut by a crash) was cut from the log; its bytes were kept in torn_file */
  log_repaired: { torn_line: number; torn_bytes: number; torn_file: string };
  note: { item_id: string | null; text: string };
  /**
   * The model's reasoning was shown to the annotator (the first time for this item): the steps as shown, so the
   * log, not today's items file or split rule, says what was judged; audio_samples is the item's audio length then.
   */
  reasoning_shown: {
    item_id: string;
    steps: string[];
    model_label: string | null;
    split: AppliedSplit;
    reveal: ReasoningReveal;
    audio_samples: number;
  };
  /**
   * A step of the shown reasoning judged (+1 correct, 0 neutral, −1 wrong; null withdraws the step's judgment).
   * Voice judgments carry the phrase, its offsets in that utterance's text, the utterance and the audio time.
   */
  step_judged: {
    item_id: string;
    index: number;
    reward: 1 | 0 | -1 | null;
    source: StepJudgmentSource;
    kind: 'step' | 'first_error';
    quote: string | null;
    start: number | null;
    end: number | null;
    utterance: number | null;
    audio_ms: number | null;
  };
  /** the parser ran over the item's transcript when a transcription landed: what it saw but did not commit */
  transcript_parsed: { item_id: string; parser_version: string; config_sha256: string | null; diagnostics: ParseDiagnostic[] };
  /**
   * a correction of one segment's text; the verbatim segment is never changed. `annotator`: whose session; (v2)
   * `reviewer`: who corrected, when not that annotator (null: the annotator, or not recorded in a v1 log)
   */
  transcript_corrected: {
    item_id: string;
    utterance: number;
    segment: number;
    original_sha256: string;
    text: string;
    annotator: string;
    reviewer: string | null;
  };
  /** the item's audio was transcribed again (transcribe later, another model): these utterances no longer count */
  transcripts_superseded: { item_id: string; utterances: number[]; reason: string };
  /** `session reparse`: voice labels re-derived from the verbatim transcript with the configuration then in force */
  labels_rederived: {
    item_id: string;
    config_sha256: string | null;
    parser_version: string;
    /** (v2) sha256 of what the parser read of that configuration; null in logs from before */
    parser_inputs_sha256: string | null;
    from_final: string | null;
    to_final: string | null;
    commitments: VoiceCommitment[];
    diagnostics: ParseDiagnostic[];
  };
  /** the app showed the neutral "Please keep talking" cue after silence_ms of silence, at audio_ms on the item's audio timeline */
  cue_shown: { item_id: string; cue: 'keep_talking'; silence_ms: number; audio_ms: number };
  /** a coder applied a code to a unit of an annotator's protocol */
  code_applied: CodeActData;
  /** a coder removed a code from a unit (by key or click, by undoing, or replaced by another code of an exclusive codebook) */
  code_removed: CodeActData;
  /** the coder's memo on one coding (unit and code); an empty text clears it */
  coding_memo: { annotator: string; item_id: string; unit: string; code: string; coder: string; text: string; codebook_version: string };
  /** an in-vivo code: words the coder selected in a unit, proposed as the name of a new code (the lead adds it to the codebook) */
  code_proposed: { annotator: string; item_id: string; unit: string; name: string; quote: string; coder: string };
  /** the coder has finished coding the item's protocol: every unit listed got the codes it has (no code: none applies) */
  coding_finished: { annotator: string; item_id: string; coder: string; units: string[]; codebook_version: string };
  /**
   * the person chose to see every coder's codes as the lead, on items she has not finished coding too: from here on her
   * own codes count as given after seeing the others' (blind coding's α leaves them out, like codes changed after finishing)
   */
  codings_revealed: { as: 'lead' };
  /**
   * the annotator selected words of the item text (UTF-16 offsets into the text she saw, item_opened's text_sha256;
   * quote: the words as they read), or cleared her selection (null); the last one stands
   */
  text_selected: { item_id: string; span: { start: number; end: number; quote: string } | null };
  /**
   * the person whose session this is played the item's recording (Review): from audio_from_ms to audio_to_ms on the
   * item's audio, for played_ms by the clock, ending at the event's time; logged once when the playing stops
   */
  audio_played: { item_id: string; audio_from_ms: number; audio_to_ms: number; played_ms: number };
}

export type SessionEventType = keyof SessionEventData;

/** Current version of each event type; a change of an event's data gets a new version and an upcaster. */
export const EVENT_VERSIONS: { readonly [T in SessionEventType]: number } = {
  session_started: 4,
  session_resumed: 4,
  item_opened: 2,
  recording_started: 1,
  audio_appended: 1,
  recording_stopped: 1,
  audio_recovered: 1,
  utterance_transcribed: 3,
  label_committed: 3,
  label_changed: 3,
  item_completed: 1,
  stale_result: 1,
  signals_computed: 3,
  log_repaired: 1,
  note: 1,
  reasoning_shown: 1,
  step_judged: 1,
  transcript_parsed: 1,
  transcript_corrected: 2,
  transcripts_superseded: 1,
  labels_rederived: 2,
  cue_shown: 1,
  code_applied: 1,
  code_removed: 1,
  coding_memo: 1,
  code_proposed: 1,
  coding_finished: 1,
  codings_revealed: 1,
  text_selected: 1,
  audio_played: 1,
};

export const SESSION_EVENT_TYPES = Object.keys(EVENT_VERSIONS) as SessionEventType[];

/** One line of events.jsonl. */
export type SessionEvent = LoggedEvent<SessionEventData>;

export type SessionEventOf<T extends SessionEventType> = Extract<SessionEvent, { type: T }>;

export function isSessionEventType(type: string): type is SessionEventType {
  return Object.prototype.hasOwnProperty.call(EVENT_VERSIONS, type);
}
