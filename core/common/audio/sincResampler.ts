/**
 * Streaming sample-rate converter: a Kaiser-windowed sinc low-pass (band-limited interpolation, as in
 * libresample/speex) applied as a polyphase filter bank, for any pair of whole-number rates. The one resampler of
 * Aloud: the capture worklet streams through it, and `resample` below converts a whole recording (imported WAVs).
 *
 * The class is shipped into the AudioWorklet as its own source text (renderer captureWorklet.ts), so it must stay
 * self-contained: no imports and no module-level constants referenced from its body.
 *
 * Timeline: output sample n sits at input instant n·inputRate/outputRate (integer arithmetic, no drift); input
 * before the first sample is taken as silence. `flush()` ends the stream so that the output holds
 * round(inputCount·outputRate/inputRate) samples, i.e. the same duration. Every phase of the bank is scaled to sum
 * to 1, so DC passes at gain 1 exactly. Above 4096 phases (odd rate pairs) the position is rounded to 1/4096 of an
 * input sample.
 */
export class SincResampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /** taps on each side of an output instant, in input samples */
  readonly halfWidth: number;
  /** the rate ratio in lowest terms: output n sits at input position n·down/up */
  private readonly up: number;
  private readonly down: number;
  private readonly phases: number;
  /** phases × (2·halfWidth) weights; phase p serves output instants p/phases past an input sample */
  private readonly bank: Float64Array;
  private history: Float32Array;
  /** absolute input index of history[0] */
  private historyStart = 0;
  private historyLength = 0;
  private inputCount = 0;
  private outputCount = 0;
  private output: Float32Array;
  private flushed = false;

  /**
   * @param zeroCrossings zero crossings of the cutoff sinc on each side (filter length, so transition band and cost)
   * @param rolloff cutoff as a fraction of the lower Nyquist; the Kaiser transition band ends near it
   */
  constructor(inputRate: number, outputRate: number, zeroCrossings = 24, rolloff = 0.9, kaiserBeta = 8.6) {
    if (!(inputRate > 0) || !(outputRate > 0) || !Number.isInteger(inputRate) || !Number.isInteger(outputRate)) {
      throw new RangeError(`sample rates must be positive integers, whole numbers of Hz (got ${inputRate} → ${outputRate})`);
    }
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    let a = inputRate;
    let b = outputRate;
    while (b !== 0) [a, b] = [b, a % b];
    this.up = outputRate / a;
    this.down = inputRate / a;
    this.phases = Math.min(this.up, 4096);
    const cutoff = Math.min(1, outputRate / inputRate) * rolloff; // relative to the input Nyquist frequency
    const half = Math.ceil(zeroCrossings / cutoff);
    this.halfWidth = half;
    const taps = 2 * half;
    this.bank = new Float64Array(this.phases * taps);
    const i0Beta = this.besselI0(kaiserBeta);
    for (let p = 0; p < this.phases; p++) {
      const frac = p / this.phases;
      let sum = 0;
      for (let k = 0; k < taps; k++) {
        const x = k - half + 1 - frac; // distance of input sample (base - half + 1 + k) from the output instant
        const r = x / half;
        const window = Math.abs(r) >= 1 ? 0 : this.besselI0(kaiserBeta * Math.sqrt(1 - r * r)) / i0Beta;
        const px = Math.PI * cutoff * x;
        const h = window * cutoff * (px === 0 ? 1 : Math.sin(px) / px);
        this.bank[p * taps + k] = h;
        sum += h;
      }
      for (let k = 0; k < taps; k++) this.bank[p * taps + k]! /= sum;
    }
    this.history = new Float32Array(taps + 4096);
    this.output = new Float32Array(1024);
  }

  /** Output samples produced so far. */
  get producedCount(): number {
    return this.outputCount;
  }

  /**
   * Feeds input samples and returns the output samples that became computable. The returned
   * array is a view into a buffer reused by the next call: consume or copy it before calling again.
   */
  process(input: Float32Array): Float32Array {
    if (this.flushed) throw new Error('SincResampler: process() after flush()');
    this.append(input);
    return this.produce(this.inputCount, false);
  }

  /** Ends the stream: returns the remaining output, computed with silence after the last input. */
  flush(): Float32Array {
    if (this.flushed) return this.output.subarray(0, 0);
    this.flushed = true;
    const total = Math.round((this.inputCount * this.outputRate) / this.inputRate);
    return this.produce(total, true);
  }

  private append(input: Float32Array): void {
    const needed = this.historyLength + input.length;
    if (needed > this.history.length) {
      // Drop input that no future output can reach, then grow if that is not enough.
      const oldestUseful = Math.max(0, Math.floor((this.outputCount * this.down) / this.up) - this.halfWidth);
      const drop = Math.min(this.historyLength, Math.max(0, oldestUseful - this.historyStart));
      if (drop > 0) {
        this.history.copyWithin(0, drop, this.historyLength);
        this.historyStart += drop;
        this.historyLength -= drop;
      }
      if (this.historyLength + input.length > this.history.length) {
        const grown = new Float32Array(2 * (this.historyLength + input.length));
        grown.set(this.history.subarray(0, this.historyLength));
        this.history = grown;
      }
    }
    this.history.set(input, this.historyLength);
    this.historyLength += input.length;
    this.inputCount += input.length;
  }

  /** Computes outputs until `limit` (flushing) or until the next one would need unseen input. */
  private produce(limit: number, flushing: boolean): Float32Array {
    let produced = 0;
    const half = this.halfWidth;
    const taps = 2 * half;
    const { up, down, phases, bank, history } = this;
    for (;;) {
      const n = this.outputCount;
      const position = n * down; // in 1/up of an input sample
      const base = Math.floor(position / up);
      if (flushing ? n >= limit : base + half >= this.inputCount) break;
      const phase = up === phases ? position - base * up : Math.floor(((position - base * up) / up) * phases);
      const first = base - half + 1;
      const offset = phase * taps;
      // taps before the first input (silence) or after the last (flushing) contribute nothing
      const kStart = Math.max(0, this.historyStart - first);
      const kEnd = Math.min(taps, this.inputCount - first);
      const at = first - this.historyStart;
      let sum = 0;
      for (let k = kStart; k < kEnd; k++) sum += history[at + k]! * bank[offset + k]!;
      if (produced === this.output.length) {
        const grown = new Float32Array(this.output.length * 2);
        grown.set(this.output);
        this.output = grown;
      }
      this.output[produced++] = sum;
      this.outputCount++;
    }
    return this.output.subarray(0, produced);
  }

  /** Modified Bessel function of the first kind, order 0 (power series), for the Kaiser window. */
  private besselI0(x: number): number {
    let sum = 1;
    let term = 1;
    const quarterSquare = (x * x) / 4;
    for (let k = 1; k < 64; k++) {
      term *= quarterSquare / (k * k);
      sum += term;
      if (term < sum * 1e-16) break;
    }
    return sum;
  }
}

/**
 * A whole recording converted to `outputRate` with SincResampler: round(n · outputRate / inputRate) samples, output n
 * at input instant n · inputRate / outputRate. Returns the input itself when the rates are equal.
 */
export function resample(samples: Float32Array, inputRate: number, outputRate: number): Float32Array {
  const resampler = new SincResampler(inputRate, outputRate);
  if (inputRate === outputRate) return samples;
  const body = resampler.process(samples);
  const out = new Float32Array(Math.round((samples.length * outputRate) / inputRate));
  out.set(body);
  out.set(resampler.flush(), body.length);
  return out;
}
