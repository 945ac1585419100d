import { createHash, randomBytes, type Hash } from 'node:crypto';
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { sessionEventDataSchemas } from '../../common/session/sessionEventSchema';
import { EVENT_VERSIONS } from '../../common/session/sessionEvents';
import { sha256Hex } from '../fs/sha256';

/**
 * A note beside events.jsonl that its first `bytes` bytes (whole lines, sha256 `sha256`) passed every check of this
 * Aloud's event schemas: derived from the log, never a record. Opening the log trusts it only when it fits the bytes
 * just read (same file, same length at least, same hash of that prefix, same schemas); then the schema check of
 * those lines is skipped (parseSessionLogBytes' checkedLines) and every other check of every line still runs.
 * Anything else (missing, unreadable, changed, truncated, from another file or another Aloud) is ignored and
 * written again after a full check.
 */
export interface CheckedLogPrefix {
  format: 1;
  /** the schemas and event versions the prefix was checked under */
  checks: string;
  /** the log file it was checked in (device and inode): a copied or replaced log is checked again */
  file: string;
  bytes: number;
  sha256: string;
}

/** The note's file: beside the log, hidden like the lock (a pack copies only the log and the audio). */
export function checkedPrefixFile(logFile: string): string {
  return path.join(path.dirname(logFile), '.events-checked.json');
}

let checksIdentity: string | null = null;

/** What a checked prefix was checked under: every event type's current version and the JSON Schema of its data. */
export function eventChecksIdentity(): string {
  checksIdentity ??= sha256Hex(JSON.stringify({ versions: EVENT_VERSIONS, schemas: sessionEventDataSchemas }));
  return checksIdentity;
}

/** The log file's identity on this machine (device and inode), or null when it cannot be read. */
export async function logFileIdentity(logFile: string): Promise<string | null> {
  try {
    const info = await stat(logFile, { bigint: true });
    return `${info.dev}:${info.ino}`;
  } catch {
    return null;
  }
}

/** The note beside the log as written, or null (missing, unreadable, not this shape): it is only ever a hint. */
export async function readCheckedPrefix(logFile: string): Promise<CheckedLogPrefix | null> {
  try {
    const note = JSON.parse(await readFile(checkedPrefixFile(logFile), 'utf8')) as Partial<CheckedLogPrefix> | null;
    if (
      note?.format !== 1 ||
      typeof note.checks !== 'string' ||
      typeof note.file !== 'string' ||
      !Number.isSafeInteger(note.bytes) ||
      typeof note.sha256 !== 'string'
    )
      return null;
    return note as CheckedLogPrefix;
  } catch {
    return null;
  }
}

/** How many lines of `bytes` the note vouches for, and the hash of the prefix it covers so far (to extend). */
export interface VerifiedPrefix {
  /** whole lines at the start of the log whose schema checks are known to pass (0: none) */
  lines: number;
  /** bytes those lines span */
  bytes: number;
  hash: Hash;
}

/**
 * Checks the note against the log's bytes as just read: it counts only when it was made under these checks for this
 * file, covers whole lines within the bytes, and the sha256 of those bytes is the one it holds. Else nothing is vouched for.
 */
export function verifyCheckedPrefix(bytes: Uint8Array, note: CheckedLogPrefix | null, fileIdentity: string | null): VerifiedPrefix {
  const hash = createHash('sha256');
  const none = (): VerifiedPrefix => ({ lines: 0, bytes: 0, hash: createHash('sha256') });
  if (note === null || fileIdentity === null || note.file !== fileIdentity || note.checks !== eventChecksIdentity()) return none();
  if (note.bytes <= 0 || note.bytes > bytes.length || bytes[note.bytes - 1] !== 0x0a) return none();
  hash.update(bytes.subarray(0, note.bytes));
  if (hash.copy().digest('hex') !== note.sha256) return none();
  let lines = 0;
  for (let at = 0; at < note.bytes; at++) {
    at = bytes.indexOf(0x0a, at);
    if (at < 0 || at >= note.bytes) break;
    lines++;
  }
  return { lines, bytes: note.bytes, hash };
}

/**
 * Extends the verified prefix over the whole lines of `bytes` after it, once every line has passed its checks; says
 * whether it grew (the note on disk is then behind).
 */
export function extendOverReading(bytes: Uint8Array, verified: VerifiedPrefix): boolean {
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end <= verified.bytes) return false;
  verified.hash.update(bytes.subarray(verified.bytes, end));
  verified.bytes = end;
  return true;
}

/** Extends the verified prefix over lines just appended (their exact bytes), each of which passed its checks. */
export function extendOverAppended(verified: VerifiedPrefix, appended: Uint8Array): void {
  verified.hash.update(appended);
  verified.bytes += appended.length;
}

/** The note for a verified prefix of the log file `fileIdentity` (the hash goes on being extendable). */
export function noteOf(verified: VerifiedPrefix, fileIdentity: string): CheckedLogPrefix {
  return {
    format: 1,
    checks: eventChecksIdentity(),
    file: fileIdentity,
    bytes: verified.bytes,
    sha256: verified.hash.copy().digest('hex'),
  };
}

/**
 * Writes the note beside the log (a new file moved into place, so a reader sees the old note or the new, and a link
 * at its name is replaced, never followed). Not fsynced and never an error: a lost or torn note is only a slower open.
 */
export async function writeCheckedPrefix(logFile: string, note: CheckedLogPrefix): Promise<void> {
  const target = checkedPrefixFile(logFile);
  const part = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.part`;
  try {
    const handle = await open(part, 'wx');
    try {
      await handle.writeFile(`${JSON.stringify(note)}\n`);
    } finally {
      await handle.close();
    }
    await rename(part, target);
  } catch {
    await rm(part, { force: true }).catch(() => undefined);
  }
}
