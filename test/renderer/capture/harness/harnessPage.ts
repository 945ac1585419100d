/**
 * Test page for the capture module, bundled by harnessServer.ts and driven by playwright.
 * Exposes `window.captureHarness`; everything it returns is plain data playwright can carry.
 */
import { encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';
import { CaptureError } from '../../../../renderer/src/capture/captureErrors';
import { listInputDevices } from '../../../../renderer/src/capture/inputDevices';
import type { InputDevice } from '../../../../renderer/src/capture/inputDevices';
import { startCapture } from '../../../../renderer/src/capture/microphoneCapture';
import type { CaptureSession, CaptureTotals } from '../../../../renderer/src/capture/microphoneCapture';

export interface HarnessStartOptions {
  contextSampleRate?: number;
  chunkMs?: number;
  deviceId?: string;
  workletModuleUrl?: string;
}

export type HarnessStartResult =
  | {
      ok: true;
      sampleRate: number;
      contextSampleRate: number;
      resampling: boolean;
      chunkSamples: number;
      device: { deviceId: string; label: string };
    }
  | { ok: false; code: string; name: string; message: string };

export interface HarnessChunkRecord {
  startSample: number;
  length: number;
  levelDbfs: number;
  peakDbfs: number;
  /** the chunk's buffer held exactly its samples and was really transferred (detached afterwards) */
  transferred: boolean;
  /** encodeChunkFrame() of the chunk, base64 */
  frameBase64: string;
}

export interface HarnessStatus {
  samples: number;
  chunks: number;
  meters: number;
  /** ordered log of callbacks: "chunk:<startSample>+<length>", "error:<code>" */
  events: string[];
  errors: Array<{ code: string; message: string }>;
  finished: CaptureTotals | null;
}

export interface CaptureHarness {
  start(options?: HarnessStartOptions): Promise<HarnessStartResult>;
  status(): HarnessStatus;
  stop(): Promise<CaptureTotals>;
  chunks(): HarnessChunkRecord[];
  meterReadings(): Array<{ levelDbfs: number; peakDbfs: number; endSample: number }>;
  /** stops the live microphone track from page script, as a pulled headset would end it */
  stopTrack(options: { dispatchEnded: boolean }): void;
  listInputDevices(unlockLabels: boolean): Promise<InputDevice[] | { code: string; message: string }>;
  /**
   * What the microphone's source node fed the capture worklet, as the worklet saw it: a second worklet (the tap),
   * connected to the same source node in the same task as the capture's, records every render quantum that had
   * channels, at the context's rate, base64 of Float32 samples. Whatever the fake device slipped is in the tap too, so
   * the capture's output can be judged against what it was given, not against the file and the machine's luck.
   */
  tapRecording(): Promise<{ sampleRate: number; pcmBase64: string; quanta: number }>;
  /** page-clock times (performance.now) of the last stopTrack() and of the first error callback after it */
  lossTimes(): { stoppedAt: number | null; reportedAt: number | null };
}

// Globals of AudioWorkletGlobalScope (not in lib.dom), for the tap below.
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
}
declare function registerProcessor(name: string, processorCtor: new () => AudioWorkletProcessor): void;

const TAP_PROCESSOR_NAME = 'capture-harness-tap';

/** Runs in the worklet scope: posts input channel 0 of every quantum that has channels, as the capture worklet takes it. */
function installTapProcessor(name: string): void {
  class TapProcessor extends AudioWorkletProcessor {
    process(inputs: Float32Array[][]): boolean {
      const channels = inputs[0];
      // the capture worklet skips a quantum without channels (not silence): so does the tap
      if (!channels || channels.length === 0) return true;
      // mono input (channelCount 1, explicit), as the capture node is set up
      const pcm = channels[0]!.slice();
      this.port.postMessage(pcm, [pcm.buffer]);
      return true;
    }
  }
  registerProcessor(name, TapProcessor);
}

interface Tap {
  sampleRate: number;
  blocks: Float32Array[];
  lastMessageAt: number;
}
let tap: Tap | null = null;
const tappable = new WeakSet<AudioWorklet>();

// Every worklet module the capture loads comes with the tap's, so the tap can be created the moment the source is.
const originalAddModule = AudioWorklet.prototype.addModule;
AudioWorklet.prototype.addModule = async function addModule(this: AudioWorklet, url: string | URL, options?: WorkletOptions) {
  await originalAddModule.call(this, url, options);
  const source = `(${installTapProcessor.toString()})(${JSON.stringify(TAP_PROCESSOR_NAME)});`;
  const tapUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  try {
    await originalAddModule.call(this, tapUrl);
  } finally {
    URL.revokeObjectURL(tapUrl);
  }
  tappable.add(this);
};

// The capture connects its worklet to the source node in the task that creates it; the tap is connected here, in
// that same task, so both see the same render quanta from the first on.
const originalCreateSource = AudioContext.prototype.createMediaStreamSource;
AudioContext.prototype.createMediaStreamSource = function createMediaStreamSource(this: AudioContext, stream: MediaStream) {
  const source = originalCreateSource.call(this, stream);
  if (tappable.has(this.audioWorklet)) {
    const node = new AudioWorkletNode(this, TAP_PROCESSOR_NAME, {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
    });
    const current: Tap = { sampleRate: this.sampleRate, blocks: [], lastMessageAt: performance.now() };
    node.port.onmessage = (event: MessageEvent<Float32Array>) => {
      current.blocks.push(event.data);
      current.lastMessageAt = performance.now();
    };
    source.connect(node);
    tap = current;
  }
  return source;
};

let stoppedAt: number | null = null;
let reportedAt: number | null = null;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

let session: CaptureSession | null = null;
let records: HarnessChunkRecord[] = [];
let meters: Array<{ levelDbfs: number; peakDbfs: number; endSample: number }> = [];
let status: HarnessStatus = { samples: 0, chunks: 0, meters: 0, events: [], errors: [], finished: null };
let lastStream: MediaStream | null = null;

// Remember the stream the module opens, so a test can end its track like a lost device would.
const originalGetUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
  const stream = await originalGetUserMedia(constraints);
  lastStream = stream;
  return stream;
};

const harness: CaptureHarness = {
  async start(options = {}) {
    records = [];
    meters = [];
    tap = null;
    stoppedAt = null;
    reportedAt = null;
    status = { samples: 0, chunks: 0, meters: 0, events: [], errors: [], finished: null };
    try {
      session = await startCapture({
        ...options,
        onChunk(chunk) {
          const { pcm } = chunk;
          const length = pcm.length;
          const exact = pcm.byteOffset === 0 && pcm.buffer.byteLength === length * 4;
          const moved = structuredClone(pcm.buffer, { transfer: [pcm.buffer] });
          const transferred = exact && pcm.buffer.byteLength === 0 && moved.byteLength === length * 4;
          const frame = encodeChunkFrame({ startSample: chunk.startSample, pcm: new Float32Array(moved) });
          records.push({
            startSample: chunk.startSample,
            length,
            levelDbfs: chunk.levelDbfs,
            peakDbfs: chunk.peakDbfs,
            transferred,
            frameBase64: toBase64(frame),
          });
          status.samples += length;
          status.chunks++;
          status.events.push(`chunk:${chunk.startSample}+${length}`);
        },
        onMeter(reading) {
          meters.push(reading);
          status.meters++;
        },
        onError(error) {
          if (stoppedAt !== null && reportedAt === null) reportedAt = performance.now();
          status.errors.push({ code: error.code, message: error.message });
          status.events.push(`error:${error.code}`);
        },
      });
      void session.finished.then((totals) => (status.finished = totals));
      return {
        ok: true,
        sampleRate: session.sampleRate,
        contextSampleRate: session.contextSampleRate,
        resampling: session.resampling,
        chunkSamples: session.chunkSamples,
        device: session.device,
      };
    } catch (error) {
      const e = error as Error;
      return { ok: false, code: error instanceof CaptureError ? error.code : 'not_a_capture_error', name: e.name, message: e.message };
    }
  },
  status: () => status,
  async stop() {
    if (!session) throw new Error('harness: stop() before a successful start()');
    return session.stop();
  },
  chunks: () => records,
  meterReadings: () => meters,
  stopTrack({ dispatchEnded }) {
    const track = lastStream?.getAudioTracks()[0];
    if (!track) throw new Error('harness: no microphone track to stop');
    stoppedAt = performance.now();
    track.stop();
    // stop() by script fires no event; a lost device does.
    if (dispatchEnded) track.dispatchEvent(new Event('ended'));
  },
  async tapRecording() {
    const current = tap;
    if (!current) throw new Error('harness: no tap (start() first)');
    // the quanta posted before the capture closed its context are still on their way: wait until none has come for 200 ms
    while (performance.now() - current.lastMessageAt < 200) await new Promise((resolve) => setTimeout(resolve, 50));
    const length = current.blocks.reduce((n, b) => n + b.length, 0);
    const pcm = new Float32Array(length);
    let at = 0;
    for (const block of current.blocks) {
      pcm.set(block, at);
      at += block.length;
    }
    return { sampleRate: current.sampleRate, pcmBase64: toBase64(new Uint8Array(pcm.buffer)), quanta: current.blocks.length };
  },
  lossTimes: () => ({ stoppedAt, reportedAt }),
  async listInputDevices(unlockLabels) {
    try {
      return await listInputDevices({ unlockLabels });
    } catch (error) {
      return { code: error instanceof CaptureError ? error.code : 'not_a_capture_error', message: (error as Error).message };
    }
  },
};

(window as unknown as { captureHarness: CaptureHarness }).captureHarness = harness;
document.title = 'capture harness ready';
