/**
 * The rules for names that become file names: annotator names (sessions/<name>/) and item ids (audio/<id>.wav,
 * transcript files). One definition, so a name accepted at the door (an import, a room's join) can always be
 * stored later, measured in the same units: characters of the encoded file name. People's names (what they may
 * contain, one spelling, one person) are personNames.ts.
 */

/** Longest encoded name we accept, leaving room for ".wav"/".lock" suffixes under the usual 255-byte limit. */
export const MAX_ENCODED_NAME = 200;

const PLAIN = /^[a-z0-9_-]$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const C1_CONTROL = /[\u0080-\u009f]/;

/** Bidi overrides and isolates, and zero-width characters: they make one name look like another (or reversed). */
export const INVISIBLE_OR_BIDI =
  /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u180e\u00ad\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0]/u;

function escapeByte(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

function utf8Bytes(text: string): number[] {
  const bytes: number[] = [];
  for (const ch of text) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate, as Buffer and TextEncoder write it
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return bytes;
}

/** Bytes of `text` in UTF-8 (lone surrogates count as U+FFFD would, 3 bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * A file name for a name: [a-z0-9_-] stay, "." stays except first and last, every other UTF-8 byte (upper-case
 * letters too) becomes %XX. The result is plain ASCII, never a device name, and distinct names stay distinct even
 * on case-insensitive or Unicode-normalising file systems. No checks: see fileNameProblem.
 */
export function encodedFileName(name: string): string {
  const bytes = utf8Bytes(name);
  let out = '';
  bytes.forEach((byte, i) => {
    const ch = String.fromCharCode(byte);
    const keep = byte < 0x80 && (PLAIN.test(ch) || (ch === '.' && i > 0 && i < bytes.length - 1));
    out += keep ? ch : escapeByte(byte);
  });
  const stem = out.split('.')[0]!;
  if (WINDOWS_DEVICE.test(stem)) out = escapeByte(out.charCodeAt(0)) + out.slice(1);
  return out;
}

/** A name shortened for a message: the first 40 characters. */
function shown(name: string): string {
  return JSON.stringify([...name].length > 40 ? `${[...name].slice(0, 40).join('')}…` : name);
}

/** Why `name` cannot be a file name (empty, blank, control characters, broken Unicode, too long), or null. */
export function fileNameProblem(name: string, what: string): string | null {
  if (name.length === 0) return `${what} must not be empty`;
  if (name.trim() === '') return `${what} must not be only spaces`;
  if (CONTROL.test(name)) return `${what} ${JSON.stringify(name)} contains control characters`;
  if (LONE_SURROGATE.test(name)) return `${what} ${JSON.stringify(name)} is not valid Unicode`;
  const length = encodedFileName(name).length;
  if (length > MAX_ENCODED_NAME) {
    return `${what} ${shown(name)} is too long for a file name (${length} characters once encoded, at most ${MAX_ENCODED_NAME}); a-z, 0-9, "_" and "-" count 1, every other character 3 per UTF-8 byte`;
  }
  return null;
}

/** The first invisible or text-direction character of `name` as "U+XXXX at position N", or null. */
export function invisibleCharacter(name: string): string | null {
  const hidden = INVISIBLE_OR_BIDI.exec(name);
  if (!hidden) return null;
  return `U+${hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at position ${[...name.slice(0, hidden.index)].length + 1}`;
}

/**
 * An item id compared as a person reads it: NFC, invisible and text-direction characters removed. Two ids with one
 * key are one item to the eye, so a file may not hold both.
 */
export function itemIdKey(id: string): string {
  return id.normalize('NFC').replace(new RegExp(INVISIBLE_OR_BIDI.source, 'gu'), '');
}

/** Why an item id read from outside cannot be an item (so it could never be recorded), or null. */
export function itemIdProblem(id: string): string | null {
  if (id !== id.trim()) return `item id ${JSON.stringify(id)} has leading or trailing whitespace; ids are compared exactly`;
  if (C1_CONTROL.test(id)) return `item id ${JSON.stringify(id)} contains a control character`;
  const hidden = invisibleCharacter(id);
  if (hidden) return `item id ${JSON.stringify(id)} contains an invisible or text-direction character (${hidden}); remove it`;
  return fileNameProblem(id, 'item id');
}
