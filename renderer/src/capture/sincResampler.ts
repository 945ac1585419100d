/**
 * Streaming sample-rate converter: a Kaiser-windowed sinc low-pass evaluated at each output
 * instant (band-limited interpolation, as in libresample/speex), for any pair of rates.
 *
 * The class is shipped into the AudioWorklet as its own source text (see captureWorklet.ts), so it
 * must stay self-contained: no imports and no module-level constants referenced from its body.
 *
 * Timeline: output sample n sits at input instant n·inputRate/outputRate (integer arithmetic, no
 * drift); input before the first sample is taken as silence. `flush()` ends the stream so that
 * the output holds round(inputCount·outputRate/inputRate) samples, i.e. the same duration.
 */
export class SincResampler {
  readonly inputRate: number;
  readonly outputRate: number;
  /** half the filter's span, in input samples */
  readonly halfWidth: number;
  /** cutoff in cycles per input sample (0.5 = input Nyquist) */
  private readonly cutoff: number;
  /** kernel sinc(u)·kaiser(u) sampled at u = j / tableResolution, u in zero crossings of the cutoff sinc */
  private readonly kernel: Float32Array;
  private readonly tableResolution: number;
  private history: Float32Array;
  /** absolute input index of history[0] */
  private historyStart = 0;
  private historyLength = 0;
  private inputCount = 0;
  private outputCount = 0;
  private output: Float32Array;
  private flushed = false;

  /**
   * @param zeroCrossings half the kernel length counted in zero crossings of the cutoff sinc (quality/cost)
   * @param rolloff cutoff as a fraction of the lower Nyquist; the Kaiser transition band ends near it
   */
  constructor(inputRate: number, outputRate: number, zeroCrossings = 24, rolloff = 0.9, kaiserBeta = 8.6) {
    if (!(inputRate > 0) || !(outputRate > 0) || !Number.isInteger(inputRate) || !Number.isInteger(outputRate)) {
      throw new RangeError(`SincResampler: rates must be positive whole numbers of Hz (got ${inputRate} → ${outputRate})`);
    }
    this.inputRate = inputRate;
    this.outputRate = outputRate;
    this.cutoff = 0.5 * Math.min(1, outputRate / inputRate) * rolloff;
    this.halfWidth = zeroCrossings / (2 * this.cutoff);
    this.tableResolution = 512;
    const entries = zeroCrossings * this.tableResolution + 2;
    this.kernel = new Float32Array(entries);
    const i0Beta = this.besselI0(kaiserBeta);
    for (let j = 0; j < entries; j++) {
      const u = j / this.tableResolution;
      if (u >= zeroCrossings) break; // the rest stays 0
      const ratio = u / zeroCrossings;
      const window = this.besselI0(kaiserBeta * Math.sqrt(1 - ratio * ratio)) / i0Beta;
      const sinc = u === 0 ? 1 : Math.sin(Math.PI * u) / (Math.PI * u);
      this.kernel[j] = sinc * window;
    }
    this.history = new Float32Array(Math.ceil(2 * this.halfWidth) + 4096);
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
      const oldestUseful = Math.max(0, Math.floor(this.centerOf(this.outputCount) - this.halfWidth) - 1);
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

  /** Input instant (fractional input index) of output sample n. */
  private centerOf(n: number): number {
    return (n * this.inputRate) / this.outputRate;
  }

  /** Computes outputs until `limit` (flushing) or until the next one would need unseen input. */
  private produce(limit: number, flushing: boolean): Float32Array {
    let produced = 0;
    const reach = Math.ceil(this.halfWidth);
    const scale = 2 * this.cutoff;
    const tableScale = scale * this.tableResolution;
    const lastTableIndex = this.kernel.length - 2;
    for (;;) {
      const n = this.outputCount;
      const numerator = n * this.inputRate;
      const base = Math.floor(numerator / this.outputRate);
      const frac = (numerator - base * this.outputRate) / this.outputRate;
      if (flushing ? n >= limit : base + reach >= this.inputCount) break;
      let sum = 0;
      const first = Math.max(base - reach + 1, 0, this.historyStart);
      const last = Math.min(base + reach, this.inputCount - 1);
      for (let k = first; k <= last; k++) {
        const position = Math.abs(base - k + frac) * tableScale;
        const j = Math.floor(position);
        if (j >= lastTableIndex) continue;
        const a = this.kernel[j]!;
        const weight = a + (this.kernel[j + 1]! - a) * (position - j);
        sum += this.history[k - this.historyStart]! * weight;
      }
      if (produced === this.output.length) {
        const grown = new Float32Array(this.output.length * 2);
        grown.set(this.output);
        this.output = grown;
      }
      this.output[produced++] = sum * scale;
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
      if (term < sum * 1e-12) break;
    }
    return sum;
  }
}
