import { looksAlike } from '../text/textFold';
import { encodedFileName, invisibleCharacter, MAX_ENCODED_NAME } from '../names/nameRules';
import { annotatorNameProblem, looksLikeWord, normalizeAnnotatorName } from '../names/personNames';
import { MAX_CHAT_CHARS, MAX_MEMBER_NAME_CHARS } from './roomEvents';

/** The annotator a member's room votes are written as: never the member's own session, so nothing is overwritten. */
export function roomAnnotatorName(memberName: string, code: string): string {
  return `${memberName} (room ${code})`;
}

/**
 * The annotator name write-back uses for a member. A name the room accepted today always works as it is; a name from
 * a log written before the room checked names (an invisible character, too long) gets the member's id instead, so
 * write-back never fails on a name and two members never share a session.
 */
export function writeBackAnnotatorName(member: { member_id: string; name: string }, code: string): string {
  const wanted = normalizeAnnotatorName(roomAnnotatorName(member.name, code));
  return annotatorNameProblem(wanted) === null ? wanted : roomAnnotatorName(`member ${member.member_id}`, code);
}

/** A refusal of a name: 400 for a name that can never join, 403 for a removed member's, 409 for one taken now. */
export interface NameRefusal {
  status: 400 | 403 | 409;
  message: string;
}

const C0_C1 = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether `name` (NFC, trimmed) may join a room with these members. Refused: control, invisible and text-direction
 * characters; a name its write-back session could not be stored under ("<name> (room CODE)" within the file-name
 * limit, counted as session names are); "lead" in any look-alike form; a look-alike of a member present (409) or of
 * a removed member (403: a removed member does not come back as "Bеn").
 */
export function memberNameRefusal(name: string, code: string, members: Iterable<{ name: string; removed: boolean }>): NameRefusal | null {
  const bad = (message: string): NameRefusal => ({ status: 400, message });
  if (name === '') return bad('give your name to join');
  if ([...name].length > MAX_MEMBER_NAME_CHARS) return bad(`a name has at most ${MAX_MEMBER_NAME_CHARS} characters`);
  if (C0_C1.test(name)) return bad('a name must not contain control characters');
  const hidden = invisibleCharacter(name);
  if (hidden) return bad(`a name must not contain invisible or text-direction characters (${hidden})`);
  const session = roomAnnotatorName(name, code);
  const sessionProblem = annotatorNameProblem(session);
  if (sessionProblem !== null) {
    const room = encodedFileName(roomAnnotatorName('', code)).length;
    const used = encodedFileName(name).length;
    return bad(
      used + room > MAX_ENCODED_NAME
        ? `"${name}" is too long to keep: its votes are written back as the session "${session}", and a name may take ${MAX_ENCODED_NAME - room} characters once encoded for a file name (it takes ${used}: a-z, 0-9, "_" and "-" count 1, every other character 3 per UTF-8 byte); use a shorter name`
        : `"${name}" cannot be kept as a session name: ${sessionProblem}`,
    );
  }
  if (looksLikeWord(name, 'lead'))
    return bad(`"${name}" reads as "lead": the lead's messages are marked by the room itself; choose your own name`);
  for (const m of members) {
    if (!looksAlike(m.name, name)) continue;
    if (m.removed) return { status: 403, message: `"${name}" is, or looks like, "${m.name}", who was removed from this room by the lead` };
    return {
      status: 409,
      message:
        m.name === name || m.name.toLowerCase() === name.toLowerCase()
          ? `"${name}" is already in the room; choose another name`
          : `"${name}" looks like "${m.name}", who is in the room; choose a name that looks different`,
    };
  }
  return null;
}

/** Text-direction overrides and isolates: they reorder what others read. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The chat message as logged (NFC, trimmed), or why it is refused: empty, too long, control or text-direction characters. */
export function chatText(text: string): { text: string } | { problem: string } {
  const clean = text.normalize('NFC').trim();
  if (clean === '') return { problem: 'an empty message' };
  if ([...clean].length > MAX_CHAT_CHARS) return { problem: `a message has at most ${MAX_CHAT_CHARS} characters` };
  if (C0_C1.test(clean))
    return { problem: 'a message must not contain control characters (line breaks and tabs included): one line of text' };
  if (BIDI_CONTROL.test(clean)) return { problem: 'a message must not contain text-direction overrides (U+202A–U+202E, U+2066–U+2069)' };
  if (LONE_SURROGATE.test(clean)) return { problem: 'a message must be valid Unicode text' };
  return { text: clean };
}
