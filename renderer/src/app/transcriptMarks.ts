import type { ParseDiagnostic } from '../../../core/common/parser/parseTypes';
import type { CommitmentRecord } from '../../../core/common/session/itemState';

/** A run of the verbatim transcript, marked where the parser committed a label or noted a mention. */
export type TranscriptPiece =
  | { kind: 'text'; text: string }
  | { kind: 'commit'; text: string; label: string; final: boolean }
  | { kind: 'mention'; text: string; note: string };

/**
 * Splits the transcript at commitment and diagnostic offsets, without changing a character: joining the
 * pieces' text gives the transcript back. Commitments win where a diagnostic overlaps one.
 */
export function transcriptPieces(transcript: string, commitments: readonly CommitmentRecord[], diagnostics: readonly ParseDiagnostic[] = []): TranscriptPiece[] {
  type Mark = { start: number; end: number; piece: (text: string) => TranscriptPiece };
  const lastCommit = commitments.length - 1;
  const marks: Mark[] = [
    ...commitments.map((c, i) => ({ start: c.start, end: c.end, piece: (text: string): TranscriptPiece => ({ kind: 'commit', text, label: c.label, final: i === lastCommit }) })),
    ...diagnostics.map((d) => ({ start: d.start, end: d.end, piece: (text: string): TranscriptPiece => ({ kind: 'mention', text, note: `${d.kind.replace('_', ' ')}: ${d.message}` }) })),
  ]
    .filter((m) => m.start >= 0 && m.end <= transcript.length && m.start < m.end)
    .sort((a, b) => a.start - b.start);
  const pieces: TranscriptPiece[] = [];
  let at = 0;
  for (const mark of marks) {
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
