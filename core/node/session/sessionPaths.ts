import path from 'node:path';
import { isInsideFolder } from '../fs/resolveInside';
import { Refusal } from '../../common/contract/refusal';

/** Longest encoded name we accept, leaving room for ".wav"/".lock" suffixes under the usual 255-byte limit. */
const MAX_ENCODED_NAME = 200;
const PLAIN = /^[a-z0-9_-]$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

export class SessionNameError extends Refusal {
  override name = 'SessionNameError';
  constructor(message: string) {
    super('bad_request', message);
  }
}

function escapeByte(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * A file name for an annotator name or item id: [a-z0-9_-] stay, "." stays except first and last, every other
 * UTF-8 byte (upper-case letters too) becomes %XX. The result is plain ASCII, never a device name, and distinct
 * names stay distinct even on case-insensitive or Unicode-normalising file systems.
 */
export function encodeFileName(name: string, what: string): string {
  if (name.length === 0) throw new SessionNameError(`${what} must not be empty`);
  if (name.trim() === '') throw new SessionNameError(`${what} must not be only spaces`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new SessionNameError(`${what} ${JSON.stringify(name)} contains control characters`);
  if (LONE_SURROGATE.test(name)) throw new SessionNameError(`${what} ${JSON.stringify(name)} is not valid Unicode`);
  const bytes = Buffer.from(name, 'utf8');
  let out = '';
  bytes.forEach((byte, i) => {
    const ch = String.fromCharCode(byte);
    const keep = byte < 0x80 && (PLAIN.test(ch) || (ch === '.' && i > 0 && i < bytes.length - 1));
    out += keep ? ch : escapeByte(byte);
  });
  const stem = out.split('.')[0]!;
  if (WINDOWS_DEVICE.test(stem)) out = escapeByte(out.charCodeAt(0)) + out.slice(1);
  if (out.length > MAX_ENCODED_NAME) {
    throw new SessionNameError(`${what} ${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name)} is too long for a file name (${out.length} characters once encoded, at most ${MAX_ENCODED_NAME})`);
  }
  return out;
}

/** Inverse of encodeFileName. */
export function decodeFileName(encoded: string): string {
  return Buffer.from(
    encoded.replace(/%([0-9A-F]{2})|([^%])/g, (_m, hex: string | undefined, ch: string | undefined) => (hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : ch!)),
    'latin1',
  ).toString('utf8');
}

/** Where one annotator's session lives inside a project folder. */
export interface SessionPaths {
  projectDir: string;
  /** sessions/<annotator> */
  dir: string;
  events: string;
  lock: string;
  audioDir: string;
}

/** One spelling per person: "Zoë" typed precomposed or decomposed, or with a stray space, is one annotator. */
export function normalizeAnnotatorName(annotator: string): string {
  return annotator.normalize('NFC').trim();
}

/** Bidi overrides and isolates, and zero-width characters: they make one name look like another (or reversed). */
const INVISIBLE_OR_BIDI = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u180e\u00ad]/u;

export function sessionPaths(projectDir: string, annotator: string): SessionPaths {
  annotator = normalizeAnnotatorName(annotator);
  const hidden = INVISIBLE_OR_BIDI.exec(annotator);
  if (hidden) {
    const code = `U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new SessionNameError(`annotator name ${JSON.stringify(annotator)} contains an invisible or text-direction character (${code} at position ${hidden.index + 1}); type the name without it`);
  }
  const root = path.resolve(projectDir);
  const dir = path.join(root, 'sessions', encodeFileName(annotator, 'annotator name'));
  return { projectDir: root, dir, events: path.join(dir, 'events.jsonl'), lock: path.join(dir, '.lock'), audioDir: path.join(dir, 'audio') };
}

/** The item's WAV, relative to the project folder with "/" separators (as logged and exported). */
export function itemAudioRelativePath(paths: SessionPaths, itemId: string): string {
  const file = path.join(paths.audioDir, `${encodeFileName(itemId, 'item id')}.wav`);
  return path.relative(paths.projectDir, file).split(path.sep).join('/');
}

/** Absolute path of a project-relative path from the log, refusing anything that leaves the session folder. */
export function resolveInSession(paths: SessionPaths, relative: string): string {
  const absolute = path.resolve(paths.projectDir, ...relative.split('/'));
  if (!isInsideFolder(paths.dir, absolute)) {
    throw new SessionNameError(`path ${JSON.stringify(relative)} points outside ${paths.dir}`);
  }
  return absolute;
}
