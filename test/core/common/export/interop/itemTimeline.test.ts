import { describe, expect, it } from 'vitest';
import { eafSpansOf } from '../../../../../core/common/export/interop/eafDocument';
import { audioMsAtClock, distinctInstants, layIntervals, wordsOf } from '../../../../../core/common/export/interop/itemTimeline';
import { maxqdaTranscript, paragraphTimestamp } from '../../../../../core/common/export/interop/maxqdaTranscript';
import { textGridIntervals } from '../../../../../core/common/export/interop/textGridDocument';
import { escapeXml, xmlForbiddenCharacter } from '../../../../../core/common/io/xmlText';

describe('laying the record on the audio timeline', () => {
  it('instants keep their order, 1 ms apart where they share a millisecond, and stay inside the audio', () => {
    expect(distinctInstants([0, 500, 500, 500], 1000)).toEqual([0, 500, 501, 502]);
    // acts after the recording stopped all stand at its end: walked back from it
    expect(distinctInstants([990, 1000, 1000, 1000], 1000)).toEqual([990, 997, 998, 999]);
    expect(distinctInstants([-5, 2000], 1000)).toEqual([0, 999]);
    expect(() => distinctInstants([0, 0, 0], 2)).toThrow('3 instants do not fit in 2 ms of audio');
  });

  it('spans are whole ms, sorted, never overlapping; a span left without length joins its text to the one before', () => {
    expect(
      layIntervals(
        [
          { t0_ms: 100.4, t1_ms: 300.6, text: 'b' },
          { t0_ms: 0, t1_ms: 150, text: 'a' },
          { t0_ms: 280, t1_ms: 280, text: '.' },
          { t0_ms: 900, t1_ms: 1200, text: 'c' },
        ],
        1000,
      ),
    ).toEqual([
      { t0_ms: 0, t1_ms: 150, text: 'a' },
      { t0_ms: 150, t1_ms: 301, text: 'b .' },
      { t0_ms: 900, t1_ms: 1000, text: 'c' },
    ]);
    expect(
      layIntervals(
        [
          { t0_ms: 0, t1_ms: 0, text: 'x' },
          { t0_ms: 10, t1_ms: 20, text: 'y' },
        ],
        100,
      ),
    ).toEqual([{ t0_ms: 10, t1_ms: 20, text: 'x y' }]);
  });

  it('a clock time stands where the audio was: inside a recording, or where the last one ended', () => {
    const recordings = [
      { offset_ms: 0, started_at: '2024-01-01T10:00:00.000Z', stopped_at: '2024-01-01T10:00:02.000Z' },
      { offset_ms: 2000, started_at: '2024-01-01T10:01:00.000Z', stopped_at: '2024-01-01T10:01:03.000Z' },
    ];
    expect(audioMsAtClock('2024-01-01T09:59:00.000Z', recordings, 5000)).toBe(0);
    expect(audioMsAtClock('2024-01-01T10:00:01.250Z', recordings, 5000)).toBe(1250);
    expect(audioMsAtClock('2024-01-01T10:00:30.000Z', recordings, 5000)).toBe(2000);
    expect(audioMsAtClock('2024-01-01T10:01:01.000Z', recordings, 5000)).toBe(3000);
    expect(audioMsAtClock('2024-01-01T11:00:00.000Z', recordings, 5000)).toBe(5000);
    expect(audioMsAtClock('2024-01-01T10:00:01.000Z', [], 5000)).toBe(0);
  });

  it('words from whisper tokens: a token starting with a space starts a word', () => {
    const tokens = [
      { t0_ms: 0, t1_ms: 100, text: ' pol' },
      { t0_ms: 100, t1_ms: 200, text: 'ite' },
      { t0_ms: 200, t1_ms: 210, text: '.' },
      { t0_ms: 300, t1_ms: 400, text: ' Yes' },
    ];
    expect(
      wordsOf([
        { utterance: 0, index: 0, t0_ms: 0, t1_ms: 400, text: ' polite. Yes', tokens },
        { utterance: 1, index: 0, t0_ms: 500, t1_ms: 600, text: ' no tokens' },
      ]),
    ).toEqual([
      { t0_ms: 0, t1_ms: 210, text: 'polite.' },
      { t0_ms: 300, t1_ms: 400, text: 'Yes' },
    ]);
  });

  it('ELAN instants last until the next one, at most 100 ms; Praat interval tiers cover the whole audio', () => {
    expect(
      eafSpansOf(
        {
          name: 'label acts',
          kind: 'point',
          points: [
            { t_ms: 0, text: 'a' },
            { t_ms: 40, text: 'b' },
            { t_ms: 999, text: 'c' },
          ],
        },
        1000,
      ),
    ).toEqual([
      { t0_ms: 0, t1_ms: 40, text: 'a' },
      { t0_ms: 40, t1_ms: 140, text: 'b' },
      { t0_ms: 999, t1_ms: 1000, text: 'c' },
    ]);
    expect(textGridIntervals([{ t0_ms: 100, t1_ms: 200, text: 'x' }], 300)).toEqual([
      { t0_ms: 0, t1_ms: 100, text: '' },
      { t0_ms: 100, t1_ms: 200, text: 'x' },
      { t0_ms: 200, t1_ms: 300, text: '' },
    ]);
    expect(textGridIntervals([], 300)).toEqual([{ t0_ms: 0, t1_ms: 300, text: '' }]);
  });

  it('MAXQDA time stamps as aTrain writes them: [HH:MM:SS], whole seconds cut, not rounded', () => {
    expect(paragraphTimestamp(0)).toBe('[00:00:00]');
    expect(paragraphTimestamp(1999)).toBe('[00:00:01]');
    expect(paragraphTimestamp(3_723_450)).toBe('[01:02:03]');
  });

  it("MAXQDA transcript in aTrain's _maxqda.txt layout: a paragraph per take headed by the speaker, segments as [HH:MM:SS] - text, blank lines between", () => {
    const text = maxqdaTranscript(
      [
        { utterance: 0, index: 0, t0_ms: 120, t1_ms: 900, text: ' Uh, this is\nrude.' },
        { utterance: 0, index: 1, t0_ms: 1100, t1_ms: 2000, text: ' I label this impolite.' },
        { utterance: 1, index: 0, t0_ms: 62_500, t1_ms: 63_000, text: ' Final answer: neutral.' },
      ],
      'Zoë Example',
    );
    expect(text).toBe(
      '\ufeffZoë Example\r\n[00:00:00] - Uh, this is rude. [00:00:01] - I label this impolite.\r\n\r\nZoë Example\r\n[00:01:02] - Final answer: neutral.\r\n',
    );
    // every segment is found back by the pattern MAXQDA's timestamp import reads
    expect([...text.matchAll(/\[(\d\d):(\d\d):(\d\d)\] - /g)].map((m) => m.slice(1).join(':'))).toEqual([
      '00:00:00',
      '00:00:01',
      '00:01:02',
    ]);
  });

  it('XML: forbidden characters are found, everything else escaped', () => {
    expect(xmlForbiddenCharacter('fine\ttext\n')).toBeNull();
    expect(xmlForbiddenCharacter('a\u0001b')).toBe('U+0001 at position 2');
    expect(xmlForbiddenCharacter('lone \ud800')).toBe('U+D800 at position 6');
    expect(xmlForbiddenCharacter('pair \ud83d\ude00 ok')).toBeNull();
    expect(escapeXml('<a href="x">&\r\n')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#13;&#10;');
  });
});
