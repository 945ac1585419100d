import type { Segment } from '../transcript/segment';

export type TranscriptFormat = 'txt' | 'srt' | 'vtt';
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ['txt', 'srt', 'vtt'];

/** The receipt a transcript export writes into its output folder. */
export const TRANSCRIPT_RECEIPT = 'transcripts.receipt.json';

/** TXT is the verbatim transcript, byte for byte: nothing trimmed or added. */
export function formatTranscriptTxt(transcript: string): string {
  return transcript;
}

function clock(ms: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor(total / 60_000) % 60;
  const s = Math.floor(total / 1000) % 60;
  const milli = total % 1000;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${separator}${String(milli).padStart(3, '0')}`;
}

/**
 * Cue text: the segment's words with its surrounding whitespace (whisper's leading space) dropped, and no blank
 * line inside, because a blank line ends a cue in both SRT and WebVTT. Segments with no words get no cue.
 */
function cueText(text: string): string {
  return text
    .trim()
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]*\n+/g, '\n');
}

function cues(segments: readonly Segment[]): Array<{ t0: number; t1: number; text: string }> {
  return segments.map((s) => ({ t0: s.t0_ms, t1: Math.max(s.t0_ms, s.t1_ms), text: cueText(s.text) })).filter((c) => c.text !== '');
}

/** SubRip: numbered cues, HH:MM:SS,mmm times. */
export function formatSrt(segments: readonly Segment[]): string {
  return cues(segments)
    .map((c, i) => `${i + 1}\n${clock(c.t0, ',')} --> ${clock(c.t1, ',')}\n${c.text}\n\n`)
    .join('');
}

/** WebVTT: the WEBVTT header, HH:MM:SS.mmm times, and &, <, > escaped as cue text requires (so "-->" cannot occur). */
export function formatVtt(segments: readonly Segment[]): string {
  const escape = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `WEBVTT\n\n${cues(segments)
    .map((c) => `${clock(c.t0, '.')} --> ${clock(c.t1, '.')}\n${escape(c.text)}\n\n`)
    .join('')}`;
}
