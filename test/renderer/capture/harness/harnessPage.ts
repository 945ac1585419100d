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
}

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
    track.stop();
    // stop() by script fires no event; a lost device does.
    if (dispatchEnded) track.dispatchEvent(new Event('ended'));
  },
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
