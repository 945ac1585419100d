import { looksAlike } from '../text/textFold';
import { encodedFileName, invisibleCharacter, MAX_ENCODED_NAME } from '../names/nameRules';
import { annotatorNameProblem, looksLikeWord, normalizeAnnotatorName } from '../names/personNames';
import { MAX_CHAT_CHARS, MAX_MEMBER_NAME_CHARS } from './roomEvents';
import { say, type RefusalMessage } from '../refusal/refusalMessage';

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
  say: RefusalMessage;
}

const C0_C1 = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether `name` (NFC, trimmed) may join a room with these members. Refused: control, invisible and text-direction
 * characters; a name its write-back session could not be stored under ("<name> (room CODE)" within the file-name
 * limit, counted as session names are); "lead" in any look-alike form; a look-alike of a member present (409) or of
 * a removed member (403: a removed member does not come back as "Bеn").
 */
export function memberNameRefusal(name: string, code: string, members: Iterable<{ name: string; removed: boolean }>): NameRefusal | null {
  const bad = (message: RefusalMessage): NameRefusal => ({ status: 400, say: message });
  if (name === '') return bad(say('refusal.rooms.giveYourNameToJoin'));
  if ([...name].length > MAX_MEMBER_NAME_CHARS) return bad(say('refusal.rooms.nameAtMostCharacters', { max: MAX_MEMBER_NAME_CHARS }));
  if (C0_C1.test(name)) return bad(say('refusal.rooms.nameNoControlCharacters'));
  const hidden = invisibleCharacter(name);
  if (hidden) return bad(say('refusal.rooms.nameNoInvisibleCharacters', { hidden }));
  const session = roomAnnotatorName(name, code);
  const sessionProblem = annotatorNameProblem(session);
  if (sessionProblem !== null) {
    const room = encodedFileName(roomAnnotatorName('', code)).length;
    const used = encodedFileName(name).length;
    return bad(
      used + room > MAX_ENCODED_NAME
        ? say('refusal.rooms.nameTooLongToKeep', { name, session, max: MAX_ENCODED_NAME - room, used })
        : say('refusal.rooms.nameNotASessionName', { name, problem: sessionProblem }),
    );
  }
  if (looksLikeWord(name, 'lead')) return bad(say('refusal.rooms.nameReadsAsLead', { name }));
  for (const m of members) {
    if (!looksAlike(m.name, name)) continue;
    if (m.removed) return { status: 403, say: say('refusal.rooms.nameLooksLikeRemovedMember', { name, other: m.name }) };
    return {
      status: 409,
      say:
        m.name === name || m.name.toLowerCase() === name.toLowerCase()
          ? say('refusal.rooms.nameAlreadyInTheRoom', { name })
          : say('refusal.rooms.nameLooksLikeMember', { name, other: m.name }),
    };
  }
  return null;
}

/** Text-direction overrides and isolates: they reorder what others read. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The chat message as logged (NFC, trimmed), or why it is refused: empty, too long, control or text-direction characters. */
export function chatText(text: string): { text: string } | { say: RefusalMessage } {
  const clean = text.normalize('NFC').trim();
  if (clean === '') return { say: say('refusal.rooms.chatEmptyMessage') };
  if ([...clean].length > MAX_CHAT_CHARS) return { say: say('refusal.rooms.chatAtMostCharacters', { max: MAX_CHAT_CHARS }) };
  if (C0_C1.test(clean)) return { say: say('refusal.rooms.chatNoControlCharacters') };
  if (BIDI_CONTROL.test(clean)) return { say: say('refusal.rooms.chatNoDirectionOverrides') };
  if (LONE_SURROGATE.test(clean)) return { say: say('refusal.rooms.chatNotUnicode') };
  return { text: clean };
}
