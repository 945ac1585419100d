import { describe, expect, it } from 'vitest';
import { joinSegments, timeAtOffset, timeAtOffsetByTokens, type SegmentSpan } from '../../../../core/common/transcript/joinSegments';
import type { Segment } from '../../../../core/common/transcript/segment';

const seg = (text: string, t0_ms: number, t1_ms: number): Segment => ({ t0_ms, t1_ms, text });

describe('joinSegments', () => {
  it('concatenates whisper texts verbatim: they start with a space, so nothing is inserted', () => {
    const joined = joinSegments([seg(' Hmm, well.', 0, 1200), seg(' This reply is, um,  kind of polite.', 1200, 4000)]);
    expect(joined.text).toBe(' Hmm, well. This reply is, um,  kind of polite.');
    expect(joined.spans).toEqual([
      { start: 0, end: 11, t0_ms: 0, t1_ms: 1200 },
      { start: 11, end: 47, t0_ms: 1200, t1_ms: 4000 },
    ]);
  });

  it('inserts one space only where neither side has whitespace', () => {
    expect(joinSegments([seg('Hello', 0, 1), seg('world', 1, 2)])).toEqual({
      text: 'Hello world',
      spans: [
        { start: 0, end: 5, t0_ms: 0, t1_ms: 1 },
        { start: 6, end: 11, t0_ms: 1, t1_ms: 2 },
      ],
    });
    expect(joinSegments([seg('Hello ', 0, 1), seg('world', 1, 2)]).text).toBe('Hello world');
    expect(joinSegments([seg('Hello', 0, 1), seg('\tworld', 1, 2)]).text).toBe('Hello\tworld');
    expect(joinSegments([seg('Hello\n', 0, 1), seg('world', 1, 2)]).text).toBe('Hello\nworld');
    expect(joinSegments([seg('Hallo', 0, 1), seg('\u00a0Welt', 1, 2)]).text).toBe('Hallo\u00a0Welt'); // Unicode whitespace counts
  });

  it('never trims, re-cases or normalises the text', () => {
    const texts = ['  Ｕｍ…  ', 'I’M sure ', ' [BLANK_AUDIO]', ' e\u0301'];
    expect(joinSegments(texts.map((t, i) => seg(t, i, i + 1))).text).toBe(texts.join(''));
  });

  it('an empty segment adds nothing and causes no extra separator, but keeps its span', () => {
    const joined = joinSegments([seg('a', 0, 100), seg('', 100, 150), seg('b', 150, 300)]);
    expect(joined.text).toBe('a b');
    expect(joined.spans.map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [1, 1],
      [2, 3],
    ]);
    expect(joinSegments([seg('', 0, 10), seg('x', 10, 20)]).text).toBe('x');
  });

  it('no segments: empty text, no spans', () => {
    expect(joinSegments([])).toEqual({ text: '', spans: [] });
  });
});

describe('timeAtOffset', () => {
  // "0123456789" said 0..1000 ms, separator at 10, "abcdefghij" said 1200..2200 ms
  const spans: SegmentSpan[] = joinSegments([seg('0123456789', 0, 1000), seg('abcdefghij', 1200, 2200)]).spans;

  it('interpolates linearly inside a span; the end offset gives the span end', () => {
    expect(timeAtOffset(spans, 0)).toBe(0);
    expect(timeAtOffset(spans, 5)).toBe(500);
    expect(timeAtOffset(spans, 10)).toBe(1000);
    expect(timeAtOffset(spans, 11)).toBe(1200);
    expect(timeAtOffset(spans, 16)).toBe(1700);
    expect(timeAtOffset(spans, 21)).toBe(2200);
  });

  it('where one span ends and the next begins, the earlier span wins (its text is complete there)', () => {
    const touching = joinSegments([seg(' I label', 0, 800), seg(' this polite.', 900, 2000)]).spans;
    expect(timeAtOffset(touching, 8)).toBe(800);
    expect(timeAtOffset(touching, 9)).toBeCloseTo(900 + (1 / 13) * 1100, 9);
  });

  it('an empty span gives its end time', () => {
    const withEmpty = joinSegments([seg('', 300, 500), seg('ab', 500, 700)]).spans;
    expect(timeAtOffset(withEmpty, 0)).toBe(500);
    expect(timeAtOffset(withEmpty, 1)).toBe(600);
  });

  it('an offset on a separator between spans that do not touch takes the end of the span before', () => {
    const gapped: SegmentSpan[] = [
      { start: 0, end: 3, t0_ms: 0, t1_ms: 300 },
      { start: 6, end: 9, t0_ms: 900, t1_ms: 1200 },
    ];
    expect(timeAtOffset(gapped, 4)).toBe(300);
    expect(timeAtOffset(gapped, 6)).toBe(900);
  });

  it('null without spans; an offset outside the transcript is an error', () => {
    expect(timeAtOffset([], 0)).toBeNull();
    expect(() => timeAtOffset(spans, 22)).toThrow(/offset 22 is outside the transcript \(0\.\.21\)/);
    expect(() => timeAtOffset(spans, -1)).toThrow(RangeError);
    expect(() => timeAtOffset(spans, 1.5)).toThrow(RangeError);
  });

  it('finds the right span among many', () => {
    const many = joinSegments(Array.from({ length: 1000 }, (_, i) => seg(` w${String(i).padStart(3, '0')}`, i * 100, i * 100 + 80))).spans;
    for (const i of [0, 1, 499, 998, 999]) expect(timeAtOffset(many, i * 5 + 5)).toBe(i * 100 + 80);
    expect(timeAtOffset(many, 777 * 5 + 1)).toBe(777 * 100 + 16);
  });
});

describe('timeAtOffsetByTokens', () => {
  it('reads the end of the token holding the offset, and falls back to interpolation without usable tokens', () => {
    const timed = {
      t0_ms: 0,
      t1_ms: 4000,
      text: ' Hmm. I label this polite.',
      tokens: [
        { t0_ms: 0, t1_ms: 300, text: ' Hmm.' },
        { t0_ms: 2500, t1_ms: 2700, text: ' I' },
        { t0_ms: 2700, t1_ms: 2900, text: ' label' },
        { t0_ms: 2900, t1_ms: 3100, text: ' this' },
        { t0_ms: 3100, t1_ms: 3600, text: ' polite.' },
      ],
    };
    const { spans } = joinSegments([timed]);
    // the end of "polite" (offset 25) is in the last token: 3600 ms, where characters alone would say ~3846 ms
    expect(timeAtOffsetByTokens([timed], spans, 25)).toBe(3600);
    expect(timeAtOffsetByTokens([timed], spans, 3)).toBe(300);
    const spelledOtherwise = { ...timed, tokens: [{ t0_ms: 0, t1_ms: 4000, text: '[BLANK]' }] };
    expect(timeAtOffsetByTokens([spelledOtherwise], spans, 25)).toBe(timeAtOffset(spans, 25));
    const untimed = { t0_ms: 0, t1_ms: 4000, text: timed.text };
    expect(timeAtOffsetByTokens([untimed], spans, 25)).toBe(timeAtOffset(spans, 25));
  });
});
