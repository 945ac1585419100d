import { firstInvalidUtf8Offset } from './inputText';

/** The final line of a log that a crash cut mid-write (its torn tail): tolerated, reported, never silently dropped. */
export interface TornLine {
  line: number;
  text: string;
}

/** What a log's bytes hold: its records, the torn tail if a crash cut one, and whether the last record lacks its newline. */
export interface JsonlReading<E> {
  records: E[];
  torn: TornLine | null;
  /** the last record is complete but its newline was never written; a writer adds it before appending */
  missingFinalNewline: boolean;
}

/** Reads one complete line of a log (a record), or throws the log's own error naming the file and line. */
export type JsonlLineReader<E> = (raw: string, line: number) => E;

/** Decodes UTF-8 and throws on any malformed sequence (core/node passes TextDecoder('utf-8', { fatal: true })). */
export type StrictUtf8Decoder = (bytes: Uint8Array) => string;

/** What follows a log's last newline, when anything does: its torn tail, or a whole record that lacks its newline. */
export type JsonlTail = { torn: TornLine } | { record: string };

/**
 * THE torn-tail rule of every append-only JSONL log of Aloud (sessions, rooms, adjudication), streamed or read whole:
 * each record is one line ending in a newline. After the last newline, a line that is not valid UTF-8 (bytes) or not
 * valid JSON is a write a crash cut (the torn tail: left out and reported); one that is valid JSON was written whole
 * but its newline, so it is a record like the others (a writer adds the newline).
 */
export function judgeTail(tail: string | Uint8Array, line: number, decode?: StrictUtf8Decoder): JsonlTail {
  let text: string;
  if (typeof tail === 'string') text = tail;
  else {
    try {
      text = decode!(tail);
    } catch {
      // the torn line's text, its cut character aside: only its line and bytes are used
      return { torn: { line, text: String.fromCharCode(...tail.subarray(0, 4096)) } };
    }
  }
  try {
    JSON.parse(text);
  } catch {
    return { torn: { line, text } };
  }
  return { record: text };
}

/** A log's text by the torn-tail rule (judgeTail); any other bad line is the log's error, thrown by `readLine`. */
export function readJsonlText<E>(text: string, readLine: JsonlLineReader<E>): JsonlReading<E> {
  const lines = text.split('\n');
  // After the last newline: '' for a complete log, else an unterminated final line.
  const tail = lines.pop()!;
  const records = lines.map((raw, index) => readLine(raw, index + 1));
  if (tail === '') return { records, torn: null, missingFinalNewline: false };
  return withTail(records, judgeTail(tail, lines.length + 1), readLine);
}

function withTail<E>(records: E[], tail: JsonlTail, readLine: JsonlLineReader<E>): JsonlReading<E> {
  if ('torn' in tail) return { records, torn: tail.torn, missingFinalNewline: false };
  records.push(readLine(tail.record, records.length + 1));
  return { records, torn: null, missingFinalNewline: true };
}

/**
 * readJsonlText on a log's bytes, decoded strictly: a malformed UTF-8 sequence in a complete line is the log's error
 * (`badUtf8` names that line and byte; never a U+FFFD in the record), and in the final line without its newline it is a
 * write a crash cut mid-character, so that line is the torn tail.
 */
export function readJsonlBytes<E>(
  bytes: Uint8Array,
  decode: StrictUtf8Decoder,
  readLine: JsonlLineReader<E>,
  badUtf8: (line: number, problem: string) => Error,
): JsonlReading<E> {
  const end = bytes.lastIndexOf(0x0a) + 1;
  const complete = bytes.subarray(0, end);
  let text: string;
  try {
    text = decode(complete);
  } catch {
    const at = Math.max(0, firstInvalidUtf8Offset(complete));
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (complete[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw badUtf8(
      line,
      `not valid UTF-8: malformed byte 0x${(complete[at] ?? 0).toString(16).padStart(2, '0')} at byte ${at - lineStart + 1} of the line; the log was written as UTF-8, so this line was damaged after it was written`,
    );
  }
  const records = text === '' ? [] : readJsonlText(text, readLine).records;
  const tail = bytes.subarray(end);
  if (tail.length === 0) return { records, torn: null, missingFinalNewline: false };
  return withTail(records, judgeTail(tail, records.length + 1, decode), readLine);
}
