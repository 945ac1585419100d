import { SincResampler } from '../../../core/common/audio/sincResampler';

/**
 * The capture AudioWorklet. Its module is generated from the source text of `installCaptureProcessor`
 * and `SincResampler`, so it needs no bundler support (no `?worker&url`, no separate entry) and works
 * unchanged under Vite dev, a Vite build, esbuild or plain ESM. Both must stay self-contained.
 */

export const CAPTURE_PROCESSOR_NAME = 'aloud-capture';

/** Sent with `new AudioWorkletNode(..., { processorOptions })`. */
export interface CaptureProcessorOptions {
  /** rate of the delivered PCM; the worklet resamples when the AudioContext runs at another rate */
  outputRate: number;
  /** samples per delivered chunk, at outputRate */
  chunkSamples: number;
  /** samples per level-meter reading, at outputRate */
  meterSamples: number;
}

/** Messages from the worklet to the page, in this order for a chunk and the meter readings inside it. */
export type CaptureWorkletMessage =
  /** `pcm.buffer` is transferred, holds exactly these samples, and may be transferred on */
  | { type: 'chunk'; startSample: number; pcm: Float32Array }
  /** linear RMS and peak of the samples [endSample - count, endSample) */
  | { type: 'meter'; endSample: number; count: number; rms: number; peak: number }
  /** answer to `flush`: the partial chunk (if any) has been posted; no samples are taken after this */
  | { type: 'flushed'; totalSamples: number };

export type CaptureWorkletCommand = { type: 'flush' };

// Globals of AudioWorkletGlobalScope (not in lib.dom).
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(
  name: string,
  processorCtor: new (options: { processorOptions: CaptureProcessorOptions }) => AudioWorkletProcessor,
): void;

interface CaptureProcessorState {
  resampler: SincResampler | null;
  chunk: Float32Array;
  chunkFill: number;
  chunkStart: number;
  meterSumSquares: number;
  meterPeak: number;
  meterFill: number;
  totalSamples: number;
  flushed: boolean;
}

/** Runs inside the worklet scope; called there with the SincResampler class as its argument. */
export function installCaptureProcessor(Resampler: typeof SincResampler, processorName: string): void {
  class CaptureProcessor extends AudioWorkletProcessor {
    private readonly options: CaptureProcessorOptions;
    private readonly state: CaptureProcessorState;
    private mono: Float32Array = new Float32Array(128);

    constructor(init: { processorOptions: CaptureProcessorOptions }) {
      super();
      this.options = init.processorOptions;
      this.state = {
        resampler: sampleRate === this.options.outputRate ? null : new Resampler(sampleRate, this.options.outputRate),
        chunk: new Float32Array(this.options.chunkSamples),
        chunkFill: 0,
        chunkStart: 0,
        meterSumSquares: 0,
        meterPeak: 0,
        meterFill: 0,
        totalSamples: 0,
        flushed: false,
      };
      this.port.onmessage = (event: MessageEvent<CaptureWorkletCommand>) => {
        if (event.data && event.data.type === 'flush') this.flush();
      };
    }

    process(inputs: Float32Array[][]): boolean {
      const state = this.state;
      if (state.flushed) return false;
      const channels = inputs[0];
      // No channels: the source is not delivering (track ended or not yet started); that is not silence.
      if (!channels || channels.length === 0) return true;
      let mono = channels[0]!;
      if (channels.length > 1) {
        if (this.mono.length !== mono.length) this.mono = new Float32Array(mono.length);
        this.mono.fill(0);
        for (const channel of channels) {
          for (let i = 0; i < channel.length; i++) this.mono[i] = this.mono[i]! + channel[i]! / channels.length;
        }
        mono = this.mono;
      }
      this.take(state.resampler ? state.resampler.process(mono) : mono);
      return true;
    }

    private take(samples: Float32Array): void {
      const state = this.state;
      const { chunkSamples, meterSamples } = this.options;
      for (let i = 0; i < samples.length; i++) {
        const s = samples[i]!;
        state.chunk[state.chunkFill++] = s;
        state.meterSumSquares += s * s;
        const magnitude = s < 0 ? -s : s;
        if (magnitude > state.meterPeak) state.meterPeak = magnitude;
        state.totalSamples++;
        if (++state.meterFill === meterSamples) this.postMeter();
        if (state.chunkFill === chunkSamples) this.postChunk();
      }
    }

    private postMeter(): void {
      const state = this.state;
      if (state.meterFill === 0) return;
      this.port.postMessage({
        type: 'meter',
        endSample: state.totalSamples,
        count: state.meterFill,
        rms: Math.sqrt(state.meterSumSquares / state.meterFill),
        peak: state.meterPeak,
      });
      state.meterSumSquares = 0;
      state.meterPeak = 0;
      state.meterFill = 0;
    }

    private postChunk(): void {
      const state = this.state;
      if (state.chunkFill === 0) return;
      const pcm = state.chunkFill === state.chunk.length ? state.chunk : state.chunk.slice(0, state.chunkFill);
      this.port.postMessage({ type: 'chunk', startSample: state.chunkStart, pcm }, [pcm.buffer]);
      state.chunkStart += state.chunkFill;
      state.chunk = new Float32Array(this.options.chunkSamples);
      state.chunkFill = 0;
    }

    private flush(): void {
      const state = this.state;
      if (state.flushed) return;
      if (state.resampler) this.take(state.resampler.flush());
      this.postMeter();
      this.postChunk();
      state.flushed = true;
      this.port.postMessage({ type: 'flushed', totalSamples: state.totalSamples });
    }
  }
  registerProcessor(processorName, CaptureProcessor);
}

/**
 * The worklet module as JavaScript source. Load it with `audioWorklet.addModule` from a Blob URL
 * (the default), or write it to a file served from the app's own origin when the CSP forbids blob:.
 */
export function captureWorkletModuleSource(): string {
  return `(${installCaptureProcessor.toString()})(${SincResampler.toString()}, ${JSON.stringify(CAPTURE_PROCESSOR_NAME)});\n`;
}
