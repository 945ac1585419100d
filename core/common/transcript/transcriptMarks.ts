import type { DiagnosticKind, ParseDiagnostic, CommitmentRecord } from '../parser/parseTypes';
import { caselessKey } from '../text/textFold';

/** A run of the verbatim transcript, marked where the parser committed a label, noted a mention, or heard a filler. */
export type TranscriptPiece =
  | { kind: 'text'; text: string }
  /** final: this commitment gave the item's label (false when a later key or click overrode it) */
  | { kind: 'commit'; text: string; label: string; final: boolean }
  | ({ kind: 'negation'; text: string } & ParserNote)
  | ({ kind: 'mention'; text: string } & ParserNote)
  | { kind: 'filler'; text: string };

/**
 * Why the parser committed nothing at a mention: `note` is its English line ("negated: …"), as it always read; a screen
 * says `note_kind` in the person's language from its own catalog, with `reason` — the parser's logged words, which stay
 * as they were logged (English).
 */
export interface ParserNote {
  note: string;
  note_kind: DiagnosticKind;
  reason: string;
}

export interface TranscriptMarkOptions {
  /** the item's final label came from the voice (otherwise no commitment is shown as the final one) */
  finalIsVoice?: boolean;
  /** the project's filler terms, marked where heard */
  fillers?: readonly string[];
}

/** The transcript's word tokens, as the signals count them: letters, marks, digits, "_", joined by an inner apostrophe. */
const wordPattern = /[\p{L}\p{M}\p{N}_]+(?:['\u2019][\p{L}\p{M}\p{N}_]+)*/gu;
const fillerGap = /^[\s\-\u2010]+$/u;
const fold = (word: string): string => caselessKey(word).replace(/\u2019/gu, "'");

/** Where the fillers are in the verbatim text (offsets into it), longest filler first at each word, like the signals. */
export function fillerSpans(transcript: string, fillers: readonly string[]): Array<{ start: number; end: number }> {
  const tokens = [...transcript.matchAll(wordPattern)].map((m) => ({ word: fold(m[0]), start: m.index, end: m.index + m[0].length }));
  const patterns = fillers
    .map((term) => [...fold(term).matchAll(wordPattern)].map((m) => m[0]))
    .filter((words) => words.length > 0)
    .sort((a, b) => b.length - a.length);
  const spans: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < tokens.length;) {
    const match = patterns.find(
      (words) =>
        i + words.length <= tokens.length &&
        words.every(
          (w, k) =>
            tokens[i + k]!.word === w && (k === 0 || fillerGap.test(transcript.slice(tokens[i + k - 1]!.end, tokens[i + k]!.start))),
        ),
    );
    if (!match) {
      i++;
      continue;
    }
    spans.push({ start: tokens[i]!.start, end: tokens[i + match.length - 1]!.end });
    i += match.length;
  }
  return spans;
}

/**
 * Splits the transcript at commitment, diagnostic and filler offsets, without changing a character: joining the
 * pieces' text gives the transcript back. Commitments win where another mark overlaps one, then diagnostics.
 */
export function transcriptPieces(
  transcript: string,
  commitments: readonly CommitmentRecord[],
  diagnostics: readonly ParseDiagnostic[] = [],
  options: TranscriptMarkOptions = {},
): TranscriptPiece[] {
  type Mark = { start: number; end: number; rank: number; piece: (text: string) => TranscriptPiece };
  const lastCommit = commitments.length - 1;
  const finalIsVoice = options.finalIsVoice ?? true;
  const marks: Mark[] = [
    ...commitments.map((c, i) => ({
      start: c.start,
      end: c.end,
      rank: 0,
      piece: (text: string): TranscriptPiece => ({ kind: 'commit', text, label: c.label, final: finalIsVoice && i === lastCommit }),
    })),
    ...diagnostics.map((d) => ({
      start: d.start,
      end: d.end,
      rank: 1,
      piece: (text: string): TranscriptPiece => ({
        kind: d.kind === 'negated' ? 'negation' : 'mention',
        text,
        note: `${d.kind.replace('_', ' ')}: ${d.message}`,
        note_kind: d.kind,
        reason: d.message,
      }),
    })),
    ...fillerSpans(transcript, options.fillers ?? []).map((f) => ({
      ...f,
      rank: 2,
      piece: (text: string): TranscriptPiece => ({ kind: 'filler', text }),
    })),
  ]
    .filter((m) => m.start >= 0 && m.end <= transcript.length && m.start < m.end)
    .sort((a, b) => a.start - b.start || a.rank - b.rank);
  // a mark overlapping one of higher rank is dropped (a filler inside a commit phrase stays part of the phrase)
  const kept = marks.filter((m) => !marks.some((o) => o.rank < m.rank && o.start < m.end && m.start < o.end));
  const pieces: TranscriptPiece[] = [];
  let at = 0;
  for (const mark of kept) {
    if (mark.start < at) continue; // overlaps a mark already placed
    if (mark.start > at) pieces.push({ kind: 'text', text: transcript.slice(at, mark.start) });
    pieces.push(mark.piece(transcript.slice(mark.start, mark.end)));
    at = mark.end;
  }
  if (at < transcript.length) pieces.push({ kind: 'text', text: transcript.slice(at) });
  return pieces;
}

/** "1:05.3" for 65 300 ms: how the review screen shows segment times. */
export function formatClock(ms: number): string {
  const totalTenths = Math.max(0, Math.floor(ms / 100));
  const minutes = Math.floor(totalTenths / 600);
  const seconds = (totalTenths % 600) / 10;
  return `${minutes}:${seconds.toFixed(1).padStart(4, '0')}`;
}
