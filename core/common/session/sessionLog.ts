import { readJsonlBytes, readJsonlText, type StrictUtf8Decoder, type TornLine } from '../io/jsonlLog';
import { checkEventData } from './sessionEventSchema';
import { EVENT_VERSIONS, isSessionEventType, type SessionEvent, type SessionEventType } from './sessionEvents';
import { Refusal } from '../refusal/refusal';
import { englishRefusal, say, type RefusalMessage, type RefusalValue } from '../refusal/refusalMessage';

/** Turns the data of version n of an event type into the data of version n + 1. */
export type Upcaster = (data: unknown) => unknown;

/** event type → version it upcasts from → upcaster; a chain runs until the current version. */
export type UpcasterRegistry = Readonly<Partial<Record<SessionEventType, Readonly<Record<number, Upcaster>>>>>;

const withFields =
  (fields: Record<string, unknown>): Upcaster =>
  (data) => ({ ...(data as Record<string, unknown>), ...fields });

/**
 * v1 → v2 of the events whose data changed when the log became the record (issue: the research record). What a
 * v1 log did not record is null, never guessed: its configuration and parser, the audio time of a voice
 * commitment (the fold then times it by its offsets in the transcript), whether a change came after completion.
 */
export const EVENT_UPCASTERS: UpcasterRegistry = {
  // v4 (issue 30) in both: what the parser reads of the configuration (parserInputsText); a log from before did not say
  // v3 (issue 18): the kind of session; a log from before did not say (the fold tells a room's write-back by its acts)
  session_started: {
    1: withFields({ config_sha256: null, parser_version: null }),
    2: withFields({ kind: null, room: null }),
    3: withFields({ parser_inputs_sha256: null }),
  },
  // v3: who opened the log when it was not the annotator; before, only annotators (or someone "continuing as" one) did
  session_resumed: {
    1: withFields({ config_sha256: null, parser_version: null }),
    2: withFields({ reviewer: null }),
    3: withFields({ parser_inputs_sha256: null }),
  },
  // v2 (issue 30): what the parser read of the configuration; a log from before knows only the whole aloud.yaml
  labels_rederived: { 1: withFields({ parser_inputs_sha256: null }) },
  item_opened: { 1: (data) => ({ text_sha256: null, ...(data as Record<string, unknown>) }) },
  // v3: a reviewer's act says whose it is; before, every act was logged as the annotator's
  label_committed: { 1: withFields({ audio_ms: null, utterance: null, parser_version: null }), 2: withFields({ reviewer: null }) },
  label_changed: { 1: withFields({ after_completion: false }), 2: withFields({ reviewer: null }) },
  // v2 added the voice-activity signals; a v1 log never computed them. v3: which VAD, and the takes the pauses stay within
  signals_computed: { 1: withFields({ vad: null }), 2: withFields({ vad_model: null, takes: null }) },
  utterance_transcribed: {
    1: (data) => {
      const v1 = data as { model?: Record<string, unknown> };
      return { ...v1, model: { ...v1.model, whisper_cpp: null } };
    },
    // v3: the VAD that cut the utterance was not recorded before
    2: (data) => {
      const v2 = data as { model?: Record<string, unknown> };
      return { ...v2, model: { ...v2.model, vad: null } };
    },
  },
  // v2: who corrected, when not the annotator; a v1 log recorded only the session's annotator
  transcript_corrected: { 1: withFields({ reviewer: null }) },
};

/** A corrupt session log, located by file and line; nothing is dropped silently. */
export class SessionLogError extends Refusal {
  override name = 'SessionLogError';
  /** the problem in English */
  readonly problem: string;
  constructor(
    readonly file: string,
    readonly line: number,
    /** the problem: a catalog message (said in the person's language when the app opens the session) or English text */
    problem: RefusalValue,
  ) {
    super('conflict', say('refusal.sessionLog.line', { file, line: String(line), problem }));
    this.problem = typeof problem === 'object' ? englishRefusal(problem) : String(problem);
  }
}

export interface ParsedSessionLog {
  events: SessionEvent[];
  torn: TornLine | null;
  /** the last event is complete but its newline was never written; a writer adds it before appending */
  missingFinalNewline: boolean;
}

const EVENT_KEYS = new Set(['v', 'seq', 'ts', 'type', 'data']);

/** Upcasts data written at `version` to the current version of `type`, or says what stops it. */
export function upcastEventData(
  type: SessionEventType,
  version: number,
  data: unknown,
  upcasters: UpcasterRegistry = EVENT_UPCASTERS,
): { data: unknown } | { problem: RefusalMessage } {
  const current = EVENT_VERSIONS[type];
  if (version > current)
    return { problem: say('refusal.sessionLog.newerVersion', { type, version: String(version), current: String(current) }) };
  let upcast = data;
  for (let v = version; v < current; v++) {
    const step = upcasters[type]?.[v];
    if (!step) return { problem: say('refusal.sessionLog.noUpcaster', { type, version: String(v), next: String(v + 1) }) };
    upcast = step(upcast);
  }
  return { data: upcast };
}

/**
 * One line of events.jsonl, checked and upcast to the current version; `expectedSeq` is the line's
 * own number because seq counts lines from 1. `dataChecked`: these very bytes already passed checkEventData at this
 * version under these schemas (a verified prefix of the log); the schema check is skipped only for a line written at
 * the current version, every other check still runs.
 */
export function parseEventLine(
  raw: string,
  file: string,
  line: number,
  upcasters: UpcasterRegistry = EVENT_UPCASTERS,
  dataChecked = false,
): SessionEvent {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return failLine(file, line, say('refusal.sessionLog.notJson', { detail: (e as Error).message }));
  }
  // checked field by field without allocating: a log is read whole on every open (72,000 lines at 10,000 items)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return failLine(file, line, say('refusal.sessionLog.notObject'));
  const record = value as Record<string, unknown>;
  for (const key in record) if (!EVENT_KEYS.has(key)) return failLine(file, line, say('refusal.sessionLog.unknownField', { key }));
  const { v, seq, ts, type, data } = record;
  if (typeof type !== 'string') return failLine(file, line, say('refusal.sessionLog.typeNotString'));
  if (!isSessionEventType(type)) return failLine(file, line, say('refusal.sessionLog.unknownType', { type }));
  if (!Number.isInteger(v) || (v as number) < 0) return failLine(file, line, say('refusal.sessionLog.badVersion'));
  if (seq !== line) return failLine(file, line, say('refusal.sessionLog.badSeq', { seq: String(JSON.stringify(seq)), line: String(line) }));
  if (typeof ts !== 'string' || Number.isNaN(Date.parse(ts))) return failLine(file, line, say('refusal.sessionLog.badTs'));
  if (line === 1 && type !== 'session_started') return failLine(file, line, say('refusal.sessionLog.firstEvent', { type }));
  if (line > 1 && type === 'session_started') return failLine(file, line, say('refusal.sessionLog.startedNotFirst'));
  const current = EVENT_VERSIONS[type];
  let upcastData = data;
  if (v !== current) {
    const upcast = upcastEventData(type, v as number, data, upcasters);
    if ('problem' in upcast) return failLine(file, line, upcast.problem);
    upcastData = upcast.data;
  }
  const problem = dataChecked && v === current ? null : checkEventData(type, upcastData);
  // the event data's own check (its schema) says its problem in English, inside the catalog line
  if (problem !== null) return failLine(file, line, say('refusal.sessionLog.eventProblem', { type, problem }));
  return { v: current, seq: line, ts, type, data: upcastData } as SessionEvent;
}

function failLine(file: string, line: number, said: RefusalMessage): never {
  throw new SessionLogError(file, line, said);
}

/**
 * Parses the whole text of events.jsonl by the logs' one torn-tail rule (readJsonlText): a final line without its
 * newline that is not valid JSON is a torn write (returned in `torn`); any other bad line, a gap in seq or an unknown
 * type throws SessionLogError naming the file and line.
 */
export function parseSessionLog(text: string, file: string, upcasters: UpcasterRegistry = EVENT_UPCASTERS): ParsedSessionLog {
  const { records, torn, missingFinalNewline } = readJsonlText(text, (raw, line) => parseEventLine(raw, file, line, upcasters));
  return { events: records, torn, missingFinalNewline };
}

/**
 * parseSessionLog on the bytes of events.jsonl, decoded strictly (readJsonlBytes): a malformed UTF-8 sequence in a
 * complete line is a SessionLogError naming that line and byte; in the final line without its newline it is torn.
 * `checkedLines`: the first lines are a prefix whose bytes were verified to be ones that passed every check before
 * (parseEventLine's dataChecked); 0 checks every line.
 */
export function parseSessionLogBytes(
  bytes: Uint8Array,
  file: string,
  decode: StrictUtf8Decoder,
  upcasters: UpcasterRegistry = EVENT_UPCASTERS,
  checkedLines = 0,
): ParsedSessionLog {
  const { records, torn, missingFinalNewline } = readJsonlBytes(
    bytes,
    decode,
    (raw, line) => parseEventLine(raw, file, line, upcasters, line <= checkedLines),
    // i18n-ignore: the JSONL reader's problem (a line that is not UTF-8) stays English inside the catalog line
    (line, problem) => new SessionLogError(file, line, problem),
  );
  return { events: records, torn, missingFinalNewline };
}

/** The text of one log line (without its newline) for an event. */
export function formatEventLine(event: SessionEvent): string {
  return JSON.stringify({ v: event.v, seq: event.seq, ts: event.ts, type: event.type, data: event.data });
}
