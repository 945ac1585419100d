import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../../../core/common/http/byteRanges';

const span = (start: number, end: number) => ({ kind: 'span', start, end });
const whole = { kind: 'whole' };
const unsatisfiable = { kind: 'unsatisfiable' };

describe('parseByteRange', () => {
  it.each([
    ['bytes=0-', span(0, 999)],
    ['bytes=0-0', span(0, 0)],
    ['bytes=0-499', span(0, 499)],
    ['bytes=500-999', span(500, 999)],
    ['bytes=500-5000', span(500, 999)],
    ['bytes=999-', span(999, 999)],
    ['bytes=-1', span(999, 999)],
    ['bytes=-500', span(500, 999)],
    ['bytes=-5000', span(0, 999)],
    ['Bytes=10-20', span(10, 20)],
    ['bytes = 10-20', span(10, 20)],
    ['  bytes=10-20  ', span(10, 20)],
    ['bytes=0-99999999999999999999999', span(0, 999)],
  ])('%j of 1000 bytes', (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });

  it.each([
    ['bytes=1000-', unsatisfiable],
    ['bytes=1000-2000', unsatisfiable],
    ['bytes=99999999999999999999999-', unsatisfiable],
    ['bytes=-0', unsatisfiable],
  ])('%j of 1000 bytes is unsatisfiable', (header, expected) => {
    expect(parseByteRange(header, 1000)).toEqual(expected);
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['bytes='],
    ['bytes=-'],
    ['bytes=abc'],
    ['bytes=5-1'],
    ['bytes=1.5-2'],
    ['bytes=+1-2'],
    ['bytes=0x10-20'],
    ['bytes=1 - 2'],
    ['bytes=0-1,5-6'],
    ['bytes=0-1,'],
    ['items=0-10'],
    ['0-10'],
    ['bytes 0-10'],
    ['bytes=-1-2'],
    [`bytes=${'1'.repeat(300)}-`],
  ])('ignores %j and serves the whole file', (header) => {
    expect(parseByteRange(header, 1000)).toEqual(whole);
  });

  it('an empty file has no satisfiable span', () => {
    expect(parseByteRange('bytes=0-', 0)).toEqual(unsatisfiable);
    expect(parseByteRange('bytes=-10', 0)).toEqual(unsatisfiable);
    expect(parseByteRange(null, 0)).toEqual(whole);
  });

  it('every span lies inside the file', () => {
    for (let size = 1; size < 40; size++) {
      for (const header of ['bytes=0-', `bytes=${size - 1}-`, `bytes=-${size}`, `bytes=-${size + 3}`, `bytes=3-${size + 5}`, 'bytes=2-3']) {
        const range = parseByteRange(header, size);
        if (range.kind !== 'span') continue;
        expect(range.start).toBeGreaterThanOrEqual(0);
        expect(range.end).toBeLessThan(size);
        expect(range.start).toBeLessThanOrEqual(range.end);
      }
    }
  });

  it('refuses an impossible file size', () => {
    expect(() => parseByteRange('bytes=0-', -1)).toThrow(/file size/);
    expect(() => parseByteRange('bytes=0-', 1.5)).toThrow(/file size/);
  });
});
