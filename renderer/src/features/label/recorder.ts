import { encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';
import { CaptureError } from '../../capture/captureErrors';
import { startCapture, type CaptureSession, type InputMeterReading } from '../../capture/microphoneCapture';
import type { ApiClient } from '../../contract/apiClient';
import type { IntlShape } from 'react-intl';

/** Why recording stopped after it started: the microphone (a CaptureError), or the host refused the audio (its message). */
export type RecorderFailure = { kind: 'capture'; error: CaptureError } | { kind: 'not_saved'; message: string };

export interface RecorderCallbacks {
  onMeter(reading: InputMeterReading): void;
  /** a failure after start (device lost, audio failed, or the host refused audio): recording has stopped */
  onFailure(failure: RecorderFailure): void;
}

/**
 * Microphone → contract: opens capture, sends each chunk as a binary frame in order (one request at a time,
 * so the host sees the timeline without gaps), and stops the session's recording when capture ends.
 */
export class Recorder {
  private capture: CaptureSession | null = null;
  private sending: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly client: ApiClient,
    private readonly callbacks: RecorderCallbacks,
    private readonly workletModuleUrl: string,
  ) {}

  get active(): boolean {
    return this.capture !== null;
  }

  /** Opens the microphone first, then starts the recording, so a refused microphone leaves no empty recording. */
  async start(deviceId: string | null): Promise<void> {
    if (this.capture) return;
    this.failed = false;
    this.sending = Promise.resolve();
    let started = false;
    const pending: Uint8Array[] = [];
    const send = (frame: Uint8Array) => {
      this.sending = this.sending.then(async () => {
        if (this.failed) return;
        try {
          await this.client.appendAudio(frame);
        } catch (e) {
          this.failed = true;
          this.callbacks.onFailure({ kind: 'not_saved', message: (e as Error).message });
          void this.capture?.stop();
        }
      });
    };
    const capture = await startCapture({
      ...(deviceId ? { deviceId } : {}),
      workletModuleUrl: this.workletModuleUrl,
      onChunk: (chunk) => {
        const frame = encodeChunkFrame({ startSample: chunk.startSample, pcm: chunk.pcm });
        if (started) send(frame);
        else pending.push(frame);
      },
      onMeter: (reading) => this.callbacks.onMeter(reading),
      onError: (error: CaptureError) => this.callbacks.onFailure({ kind: 'capture', error }),
    });
    try {
      await this.client.startRecording(capture.device.deviceId || null);
    } catch (e) {
      await capture.stop();
      throw e;
    }
    started = true;
    for (const frame of pending.splice(0)) send(frame);
    this.capture = capture;
    void capture.finished.then(() => {
      if (this.capture === capture) this.capture = null;
    });
  }

  /** Delivers the last partial chunk, waits until every chunk is stored, then stops the recording. */
  async stop(): Promise<void> {
    const capture = this.capture;
    this.capture = null;
    if (capture) await capture.stop();
    await this.sending;
  }
}

/**
 * A microphone failure in the interface language (what to do, then the browser's own words); other errors as they say.
 * Without `intl` (older callers): the English of the error's message.
 */
export function describeCaptureError(e: unknown, intl?: IntlShape): string {
  if (e instanceof CaptureError && intl)
    return intl.formatMessage({ id: `capture.error.${e.code}` }, { detail: e.detail ?? '', hasDetail: e.detail ? 'yes' : 'no' });
  return e instanceof Error ? e.message : String(e);
}

/** Why recording stopped, in the interface language. */
export function describeRecorderFailure(failure: RecorderFailure, intl: IntlShape): string {
  return failure.kind === 'capture'
    ? describeCaptureError(failure.error, intl)
    : intl.formatMessage({ id: 'label.record.notSaved' }, { reason: failure.message });
}
