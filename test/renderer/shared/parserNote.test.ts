import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { DiagnosticKind, ParseDiagnostic } from '../../../core/common/parser/parseTypes';
import { transcriptPieces, type ParserNote } from '../../../core/common/transcript/transcriptMarks';
import { appCatalogs } from '../../../renderer/src/app/appCatalogs';
import { setRoomLanguage } from '../../../renderer/roomPages/roomLanguage';
import { parserNoteText as roomNoteText } from '../../../renderer/roomPages/shadowPageText';
import { parserNoteText } from '../../../renderer/src/shared/i18n/parserNote';

const en = createIntl({ locale: 'en', messages: appCatalogs.en });
const de = createIntl({ locale: 'de', messages: appCatalogs.de });

const transcript = 'I would not say polite. Maybe rude or neutral. I label this snarky.';
const diagnostic = (kind: DiagnosticKind, quote: string, message: string): ParseDiagnostic => {
  const start = transcript.indexOf(quote);
  return { kind, quote, start, end: start + quote.length, stem: 'label', message };
};
const diagnostics = [
  diagnostic('negated', 'not say polite', '"not" between "say" and the label negates it: nothing committed'),
  diagnostic('ambiguous', 'rude or neutral', '"rude or neutral" names two labels: nothing committed'),
  diagnostic(
    'unknown_label',
    'label this snarky',
    '"snarky" after "label this" is not a label (labels: Polite, Rude, Neutral): nothing committed',
  ),
];
const notes = transcriptPieces(transcript, [], diagnostics).filter((p): p is Extract<typeof p, ParserNote> => 'note_kind' in p);

describe("the parser's notes on a transcript's mentions", () => {
  it('keeps their English note as it always read, and says the same from the catalog in English', () => {
    expect(notes.map((p) => p.note)).toEqual([
      'negated: "not" between "say" and the label negates it: nothing committed',
      'ambiguous: "rude or neutral" names two labels: nothing committed',
      'unknown label: "snarky" after "label this" is not a label (labels: Polite, Rude, Neutral): nothing committed',
    ]);
    expect(notes.map((p) => parserNoteText(p, en))).toEqual(notes.map((p) => p.note));
    expect(notes.map((p) => roomNoteText(p))).toEqual(notes.map((p) => p.note));
  });

  it('says the kind in German, with the parser’s logged reason', () => {
    expect(parserNoteText(notes[0]!, de)).toBe(
      'Verneint – nichts festgelegt. Begründung des Parsers (englisch): "not" between "say" and the label negates it: nothing committed',
    );
    expect(notes.map((p) => parserNoteText(p, de).split('.')[0])).toEqual([
      'Verneint – nichts festgelegt',
      'Mehrdeutig – nichts festgelegt',
      'Kein Label des Projekts – nichts festgelegt',
    ]);
    setRoomLanguage('de');
    try {
      expect(notes.map((p) => roomNoteText(p))).toEqual(notes.map((p) => parserNoteText(p, de)));
    } finally {
      setRoomLanguage('en');
    }
  });
});
