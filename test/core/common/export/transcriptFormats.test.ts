import { describe, expect, it } from 'vitest';
import { formatSrt, formatTranscriptTxt, formatVtt } from '../../../../core/common/export/transcriptFormats';
import type { Segment } from '../../../../core/common/transcript/segment';

const segments: Segment[] = [
  { t0_ms: 0, t1_ms: 2400, text: ' Hmm, this is <kind> of polite & fine.' },
  { t0_ms: 2400, t1_ms: 2500, text: '   ' },
  { t0_ms: 3_723_004.4, t1_ms: 3_725_999.6, text: ' I label this --> polite.\n\nYes.' },
];

describe('transcript-only exports', () => {
  it('TXT is the verbatim transcript, byte for byte', () => {
    const transcript = ' Hmm,  um… I label this polite.\n';
    expect(formatTranscriptTxt(transcript)).toBe(transcript);
  });

  it('SRT numbers cues, uses HH:MM:SS,mmm and skips segments without words', () => {
    expect(formatSrt(segments)).toBe(
      '1\n00:00:00,000 --> 00:00:02,400\nHmm, this is <kind> of polite & fine.\n\n' +
        '2\n01:02:03,004 --> 01:02:06,000\nI label this --> polite.\nYes.\n\n',
    );
  });

  it('WebVTT has its header, HH:MM:SS.mmm, and escapes &, <, > (so no cue text contains "-->")', () => {
    const vtt = formatVtt(segments);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.400\nHmm, this is &lt;kind&gt; of polite &amp; fine.\n\n' +
        '01:02:03.004 --> 01:02:06.000\nI label this --&gt; polite.\nYes.\n\n',
    );
    for (const block of vtt.split('\n\n').slice(1)) expect(block.split('\n').slice(1).join('\n')).not.toContain('-->');
  });

  it('no segments: an empty SRT and a header-only WebVTT', () => {
    expect(formatSrt([])).toBe('');
    expect(formatVtt([])).toBe('WEBVTT\n\n');
  });
});
