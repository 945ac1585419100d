import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CAPTURE_PROCESSOR_NAME, captureWorkletModuleSource } from '../../../renderer/src/capture/captureWorklet';
import type { CaptureProcessorOptions, CaptureWorkletMessage } from '../../../renderer/src/capture/captureWorklet';
import { SincResampler } from '../../../core/common/audio/sincResampler';

interface Posted {
  message: CaptureWorkletMessage;
  transfer: ArrayBuffer[];
}

interface LoadedProcessor {
  process(inputs: Float32Array[][]): boolean;
  port: { onmessage: ((event: { data: unknown }) => void) | null };
}

/**
 * Evaluates the generated worklet module in a fresh V8 context that has only what an
 * AudioWorkletGlobalScope offers, so a reference to anything outside the shipped source fails here.
 */
function loadProcessor(sampleRate: number, options: CaptureProcessorOptions) {
  const posted: Posted[] = [];
  const registered = new Map<string, new (init: { processorOptions: CaptureProcessorOptions }) => LoadedProcessor>();
  class AudioWorkletProcessor {
    readonly port = {
      onmessage: null as ((event: { data: unknown }) => void) | null,
      postMessage: (message: CaptureWorkletMessage, transfer: ArrayBuffer[] = []) => posted.push({ message, transfer }),
    };
  }
  const scope = vm.createContext({
    sampleRate,
    AudioWorkletProcessor,
    registerProcessor: (name: string, ctor: never) => registered.set(name, ctor),
  });
  vm.runInContext(captureWorkletModuleSource(), scope, { filename: 'capture-worklet.js' });
  const Processor = registered.get(CAPTURE_PROCESSOR_NAME);
  if (!Processor) throw new Error('the worklet module registered no capture processor');
  const processor = new Processor({ processorOptions: options });
  const flush = () => processor.port.onmessage!({ data: { type: 'flush' } });
  return { processor, posted, flush };
}

const options: CaptureProcessorOptions = { outputRate: 16_000, chunkSamples: 3200, meterSamples: 800 };

function feed(processor: LoadedProcessor, channels: Float32Array[], block = 128): void {
  for (let i = 0; i < channels[0]!.length; i += block) {
    expect(processor.process([channels.map((c) => c.subarray(i, i + block))])).toBe(true);
  }
}

const chunksOf = (posted: Posted[]) => posted.flatMap((p) => (p.message.type === 'chunk' ? [{ ...p.message, transfer: p.transfer }] : []));
const metersOf = (posted: Posted[]) => posted.flatMap((p) => (p.message.type === 'meter' ? [p.message] : []));

describe('capture worklet (generated module source)', () => {
  it('cuts a 16 kHz stream into 200 ms chunks on one timeline, transferring each buffer', () => {
    const { processor, posted, flush } = loadProcessor(16_000, options);
    const input = Float32Array.from({ length: 16_000 + 1000 }, (_, i) => Math.sin(i / 10) * 0.5);
    feed(processor, [input]);

    let chunks = chunksOf(posted);
    expect(chunks.map((c) => [c.startSample, c.pcm.length])).toEqual([0, 3200, 6400, 9600, 12_800].map((s) => [s, 3200]));
    for (const chunk of chunks) {
      expect(chunk.transfer).toEqual([chunk.pcm.buffer]);
      expect(chunk.pcm.buffer.byteLength).toBe(chunk.pcm.length * 4);
    }

    flush();
    chunks = chunksOf(posted);
    expect(chunks).toHaveLength(6);
    expect(chunks[5]!.startSample).toBe(16_000);
    expect(chunks[5]!.pcm.length).toBe(1000);
    expect(chunks[5]!.pcm.buffer.byteLength).toBe(4000);
    const joined = Float32Array.from(chunks.flatMap((c) => Array.from(c.pcm)));
    expect(joined).toEqual(input);
    expect(posted.at(-1)!.message).toEqual({ type: 'flushed', totalSamples: 17_000 });

    // After the flush nothing more is taken: the processor retires.
    const before = posted.length;
    expect(processor.process([[new Float32Array(128).fill(0.5)]])).toBe(false);
    flush();
    expect(posted.length).toBe(before);
  });

  it('posts a meter reading every 50 ms with RMS and peak, and the partial one on flush', () => {
    const { processor, posted, flush } = loadProcessor(16_000, options);
    const input = new Float32Array(2000);
    for (let i = 0; i < 800; i++) input[i] = i % 2 ? 0.1 : -0.1;
    input[900] = -0.9;
    feed(processor, [input]);
    flush();
    const meters = metersOf(posted);
    expect(meters.map((m) => [m.endSample, m.count])).toEqual([
      [800, 800],
      [1600, 800],
      [2000, 400],
    ]);
    expect(meters[0]!.rms).toBeCloseTo(0.1, 6);
    expect(meters[0]!.peak).toBeCloseTo(0.1, 6);
    expect(meters[1]!.peak).toBeCloseTo(0.9, 6);
    expect(meters[2]!.rms).toBe(0);
  });

  it('downmixes several channels to their mean', () => {
    const { processor, posted, flush } = loadProcessor(16_000, options);
    const left = new Float32Array(256).fill(0.5);
    const right = new Float32Array(256).fill(-0.1);
    feed(processor, [left, right]);
    flush();
    const [chunk] = chunksOf(posted);
    expect(chunk!.pcm.length).toBe(256);
    for (const s of chunk!.pcm) expect(s).toBeCloseTo(0.2, 6);
  });

  it('does not count time while the source delivers no channels', () => {
    const { processor, posted, flush } = loadProcessor(16_000, options);
    expect(processor.process([[]])).toBe(true);
    expect(processor.process([])).toBe(true);
    feed(processor, [new Float32Array(128).fill(0.25)]);
    flush();
    expect(posted.at(-1)!.message).toEqual({ type: 'flushed', totalSamples: 128 });
  });

  it('resamples a 48 kHz context to 16 kHz with the sinc resampler, keeping the duration', () => {
    const { processor, posted, flush } = loadProcessor(48_000, options);
    const input = Float32Array.from({ length: 48_000 + 333 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 1000 * i) / 48_000));
    feed(processor, [input]);
    flush();
    const chunks = chunksOf(posted);
    const joined = Float32Array.from(chunks.flatMap((c) => Array.from(c.pcm)));
    expect(joined.length).toBe(Math.round(((48_000 + 333) * 16_000) / 48_000));
    expect(chunks.slice(0, -1).every((c) => c.pcm.length === 3200)).toBe(true);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.startSample).toBe(chunks[i - 1]!.startSample + chunks[i - 1]!.pcm.length);

    // The same samples the resampler gives on its own, in the worklet's 128-sample quanta.
    const direct = new SincResampler(48_000, 16_000);
    const expected: number[] = [];
    for (let i = 0; i < input.length; i += 128) expected.push(...direct.process(input.subarray(i, i + 128)));
    expected.push(...direct.flush());
    expect(Array.from(joined)).toEqual(expected);
  });
});
