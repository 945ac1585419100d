import type { IntlShape } from 'react-intl';
import type { ParserNote } from '../../../../core/common/transcript/transcriptMarks';

/**
 * Why the parser committed nothing at a mention (a transcript piece's note), in the interface's language: the kind in
 * words, with the parser's own reason as it was logged (English, like the log).
 */
export function parserNoteText(note: ParserNote, intl: IntlShape): string {
  return intl.formatMessage({ id: `shared.transcript.note.${note.note_kind}` }, { reason: note.reason });
}
