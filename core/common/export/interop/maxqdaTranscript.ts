import type { ExportSegmentV2 } from '../exportRecord';

/** `[hh:mm:ss.s]`: the time stamp MAXQDA and NVivo read at the start of a paragraph of a synchronised transcript. */
export function paragraphTimestamp(ms: number): string {
  const tenths = Math.floor(Math.max(0, ms) / 100);
  const s = Math.floor(tenths / 10);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `[${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}.${tenths % 10}]`;
}

/**
 * A transcript for MAXQDA or NVivo: one paragraph per segment, starting with its time stamp and a space, the
 * verbatim text trimmed and on one line (line breaks inside a segment would start a paragraph without a time).
 * UTF-8 with a byte order mark and CRLF line ends, which both tools (Windows first) read as UTF-8 text.
 */
export function maxqdaTranscript(segments: readonly ExportSegmentV2[]): string {
  const paragraphs = segments.map((s) => `${paragraphTimestamp(s.t0_ms)} ${s.text.replace(/\s+/gu, ' ').trim()}`);
  return `\ufeff${paragraphs.join('\r\n')}\r\n`;
}
