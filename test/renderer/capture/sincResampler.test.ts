import { describe, expect, it } from 'vitest';
import { SincResampler } from '../../../core/common/audio/sincResampler';

function sine(rate: number, hz: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / rate);
  return out;
}

/** Feeds `input` in blocks of `block` samples (an AudioWorklet render quantum is 128), then flushes. */
function resample(resampler: SincResampler, input: Float32Array, block = 128): Float32Array {
  const parts: number[] = [];
  for (let i = 0; i < input.length; i += block) parts.push(...resampler.process(input.subarray(i, i + block)));
  parts.push(...resampler.flush());
  return Float32Array.from(parts);
}

/** Amplitude of the `hz` component of x (least-squares fit of sin and cos), skipping the edges. */
function toneAmplitude(x: Float32Array, rate: number, hz: number, skip = 2000): number {
  let s = 0;
  let c = 0;
  let n = 0;
  for (let i = skip; i < x.length - skip; i++) {
    const phase = (2 * Math.PI * hz * i) / rate;
    s += x[i]! * Math.sin(phase);
    c += x[i]! * Math.cos(phase);
    n++;
  }
  return (2 * Math.hypot(s, c)) / n;
}

function rms(x: Float32Array, skip = 2000): number {
  let sum = 0;
  for (let i = skip; i < x.length - skip; i++) sum += x[i]! * x[i]!;
  return Math.sqrt(sum / (x.length - 2 * skip));
}

const db = (ratio: number) => 20 * Math.log10(ratio);

describe('SincResampler', () => {
  for (const inputRate of [48_000, 44_100]) {
    describe(`${inputRate} Hz → 16 kHz`, () => {
      it('keeps the duration: round(n · 16000 / inputRate) samples out', () => {
        for (const n of [0, 1, 127, 128, 44_100, 48_000, 100_003]) {
          expect(resample(new SincResampler(inputRate, 16_000), new Float32Array(n)).length).toBe(Math.round((n * 16_000) / inputRate));
        }
      });

      it('passes speech-band tones at their level (within 0.05 dB up to 6 kHz)', () => {
        for (const hz of [100, 1000, 3000, 6000]) {
          const out = resample(new SincResampler(inputRate, 16_000), sine(inputRate, hz, 1));
          expect(Math.abs(db(toneAmplitude(out, 16_000, hz) / 0.5))).toBeLessThan(0.05);
        }
      });

      it('removes tones above 8 kHz instead of folding them into the band (≥ 70 dB down)', () => {
        for (const hz of [8_300, 10_000, 12_000, 15_000, 20_000]) {
          const out = resample(new SincResampler(inputRate, 16_000), sine(inputRate, hz, 1));
          expect(db(rms(out) / (0.5 / Math.SQRT2))).toBeLessThan(-70);
        }
      });

      it('keeps the timeline: output n is input instant n · inputRate / 16000', () => {
        // A 440 Hz tone must come out with the phase it has at those instants (no delay, no drift).
        const input = sine(inputRate, 440, 2);
        const out = resample(new SincResampler(inputRate, 16_000), input);
        const expected = sine(16_000, 440, 2);
        let worst = 0;
        for (let i = 400; i < out.length - 400; i++) worst = Math.max(worst, Math.abs(out[i]! - expected[i]!));
        expect(worst).toBeLessThan(1e-3);
      });
    });
  }

  it('does what linear interpolation cannot: a 10 kHz tone at 48 kHz does not alias to 6 kHz', () => {
    const input = sine(48_000, 10_000, 1);
    const linear = new Float32Array(16_000);
    for (let i = 0; i < linear.length; i++) linear[i] = input[i * 3]!; // decimation without a low-pass, as linear interpolation at 3:1 does
    expect(db(toneAmplitude(linear, 16_000, 6_000) / 0.5)).toBeGreaterThan(-1);
    const sinc = resample(new SincResampler(48_000, 16_000), input);
    expect(db(toneAmplitude(sinc, 16_000, 6_000) / 0.5)).toBeLessThan(-80);
  });

  it('gives the same samples whatever the block sizes', () => {
    const input = new Float32Array(30_011);
    let seed = 7;
    for (let i = 0; i < input.length; i++) input[i] = ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const oneShot = resample(new SincResampler(44_100, 16_000), input, input.length);
    for (const block of [1, 128, 441, 5000]) {
      expect(resample(new SincResampler(44_100, 16_000), input, block)).toEqual(oneShot);
    }
  });

  it('keeps unity gain at DC, the sample count, and a bounded history over a 30 s stream', () => {
    const resampler = new SincResampler(48_000, 16_000);
    const block = new Float32Array(128).fill(0.25);
    let produced = 0;
    for (let i = 0; i < (48_000 * 30) / 128; i++) produced += resampler.process(block).length;
    // 30 s of constant input: DC passes at unity gain once the filter has filled.
    const last = resampler.process(block);
    expect(last[last.length - 1]).toBeCloseTo(0.25, 4);
    expect((resampler as unknown as { history: Float32Array }).history.length).toBeLessThan(8192);
    expect(produced + last.length + resampler.flush().length).toBe(Math.round(((48_000 * 30 + 128) * 16_000) / 48_000));
  });

  it('also converts up (8 kHz → 16 kHz) without imaging above 4 kHz', () => {
    const out = resample(new SincResampler(8_000, 16_000), sine(8_000, 1000, 1));
    expect(Math.abs(db(toneAmplitude(out, 16_000, 1000) / 0.5))).toBeLessThan(0.05);
    expect(db(toneAmplitude(out, 16_000, 7000) / 0.5)).toBeLessThan(-70);
  });

  it('refuses nonsense rates and use after flush', () => {
    expect(() => new SincResampler(0, 16_000)).toThrow(RangeError);
    expect(() => new SincResampler(44_100.5, 16_000)).toThrow(/whole numbers/);
    const resampler = new SincResampler(48_000, 16_000);
    resampler.flush();
    expect(() => resampler.process(new Float32Array(4))).toThrow(/after flush/);
  });
});
