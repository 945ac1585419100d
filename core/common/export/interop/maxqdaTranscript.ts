import type { ExportSegmentV2 } from '../exportRecord';

/** `[HH:MM:SS]`: the time stamp aTrain writes before each segment of its `_maxqda.txt` (whole seconds, cut). */
export function paragraphTimestamp(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `[${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}]`;
}

/**
 * A transcript for MAXQDA (Import → Transcripts with timestamps) or NVivo, in the layout of aTrain's `_maxqda.txt`,
 * which researchers import into MAXQDA: speaker paragraphs separated by a blank line, each the speaker's name on its
 * own line, then every segment as `[HH:MM:SS] - text` on one line (segments joined by a space). A paragraph is one
 * take (utterance) of the annotator. Text trimmed and on one line (a line break would start a paragraph without a
 * time). UTF-8 with a byte order mark and CRLF line ends, which both tools (Windows first) read as UTF-8 text.
 */
export function maxqdaTranscript(segments: readonly ExportSegmentV2[], speaker: string): string {
  const takes: ExportSegmentV2[][] = [];
  for (const s of segments) {
    const last = takes.at(-1);
    if (last && last[0]!.utterance === s.utterance) last.push(s);
    else takes.push([s]);
  }
  const name = speaker.replace(/\s+/gu, ' ').trim();
  const paragraphs = takes.map(
    (take) => `${name}\r\n${take.map((s) => `${paragraphTimestamp(s.t0_ms)} - ${s.text.replace(/\s+/gu, ' ').trim()}`).join(' ')}`,
  );
  return `\ufeff${paragraphs.join('\r\n\r\n')}\r\n`;
}
