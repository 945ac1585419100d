import { rmsDbfs } from '../../../core/common/signals/frameLevels';
import { CaptureError, audioFailure, captureErrorFromMediaError } from './captureErrors';
import { CAPTURE_PROCESSOR_NAME, captureWorkletModuleSource } from './captureWorklet';
import type { CaptureProcessorOptions, CaptureWorkletCommand, CaptureWorkletMessage } from './captureWorklet';
import { AUDIO_SAMPLE_RATE } from '../../../core/common/audio/sampleRate';

/** One chunk of 16 kHz mono audio. `pcm.buffer` holds exactly these samples and is transferable. */
export interface CaptureChunk {
  pcm: Float32Array;
  /** index of pcm[0] in samples since the start of this capture */
  startSample: number;
  /** RMS level in dBFS; -Infinity for digital silence */
  levelDbfs: number;
  /** peak level in dBFS; -Infinity for digital silence */
  peakDbfs: number;
}

/** A level-meter reading over the last ~50 ms, for a UI meter. */
export interface InputMeterReading {
  levelDbfs: number;
  peakDbfs: number;
  /** sample index (16 kHz, since capture start) just after the measured samples */
  endSample: number;
}

export interface CaptureTotals {
  /** samples delivered through onChunk (16 kHz) */
  samples: number;
  durationMs: number;
  chunks: number;
  endedBy: 'stop' | 'device_lost' | 'audio_failed';
}

export interface CaptureOptions {
  /** a deviceId from listInputDevices(); omitted: the system default microphone */
  deviceId?: string;
  /** chunk length, 50–250 ms; default 50 (the cutter hears a silence end within 50 ms, so a final can land ≤ 400 ms after the speech) */
  chunkMs?: number;
  /** meter reading period, 10–250 ms; default 50 */
  meterMs?: number;
  /** receives every chunk in order, the last (partial) one included, before stop() resolves */
  onChunk: (chunk: CaptureChunk) => void;
  onMeter?: (reading: InputMeterReading) => void;
  /** a failure after start: `device_lost` (after the partial chunk was delivered) or `audio_failed` */
  onError?: (error: CaptureError) => void;
  /**
   * Rate asked of the AudioContext; default 16000 so no resampling is needed. Another value (or a
   * browser that refuses 16 kHz) makes the worklet resample to 16 kHz.
   */
  contextSampleRate?: number;
  /** load the worklet from this URL (e.g. a file on the app's own origin) instead of a Blob URL */
  workletModuleUrl?: string;
}

export interface CaptureSession {
  /** always 16000: the rate of every delivered chunk */
  readonly sampleRate: number;
  /** the AudioContext's actual rate */
  readonly contextSampleRate: number;
  /** true when the worklet resamples (the context does not run at 16 kHz) */
  readonly resampling: boolean;
  readonly chunkSamples: number;
  readonly device: { deviceId: string; label: string };
  /** resolves when the capture ends for any reason (stop, device lost, audio failure) */
  readonly finished: Promise<CaptureTotals>;
  /** Delivers the last partial chunk, releases the microphone, and resolves with the totals. Idempotent. */
  stop(): Promise<CaptureTotals>;
}

const RESUME_TIMEOUT_MS = 3000;
const FLUSH_TIMEOUT_MS = 1500;
/** how often the track is checked for having ended without an `ended` event (e.g. stopped by script) */
const TRACK_WATCH_MS = 50;

function peakDbfs(pcm: Float32Array): number {
  let peak = 0;
  for (let i = 0; i < pcm.length; i++) {
    const magnitude = Math.abs(pcm[i]!);
    if (magnitude > peak) peak = magnitude;
  }
  return peak > 0 ? 20 * Math.log10(peak) : -Infinity;
}

function linearToDbfs(value: number): number {
  return value > 0 ? 20 * Math.log10(value) : -Infinity;
}

function checkRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isFinite(value) || value < min || value > max) {
    // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
    throw new RangeError(`startCapture: ${name} must be between ${min} and ${max} (got ${value})`);
  }
}

interface AudioGraph {
  context: AudioContext;
  node: AudioWorkletNode;
}

async function openAudioGraph(
  contextSampleRate: number | undefined,
  processorOptions: CaptureProcessorOptions,
  workletModuleUrl: string | undefined,
): Promise<AudioGraph> {
  let context: AudioContext;
  try {
    context = new AudioContext(
      contextSampleRate ? { sampleRate: contextSampleRate, latencyHint: 'interactive' } : { latencyHint: 'interactive' },
    );
  } catch (error) {
    // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
    throw audioFailure(`creating an AudioContext${contextSampleRate ? ` at ${contextSampleRate} Hz` : ''}`, error);
  }
  try {
    if (workletModuleUrl) {
      await context.audioWorklet.addModule(workletModuleUrl);
    } else {
      const blobUrl = URL.createObjectURL(new Blob([captureWorkletModuleSource()], { type: 'text/javascript' }));
      try {
        await context.audioWorklet.addModule(blobUrl);
      } finally {
        URL.revokeObjectURL(blobUrl);
      }
    }
    const node = new AudioWorkletNode(context, CAPTURE_PROCESSOR_NAME, {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      // The graph downmixes any stereo device to mono before the worklet sees it.
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
      processorOptions,
    });
    return { context, node };
  } catch (error) {
    void context.close().catch(() => undefined);
    // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
    throw audioFailure('loading the capture AudioWorklet', error);
  }
}

function closeQuietly(context: AudioContext): void {
  if (context.state !== 'closed') void context.close().catch(() => undefined);
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

/**
 * Opens the microphone and starts delivering 16 kHz mono chunks to `options.onChunk`.
 * Rejects with a CaptureError (`permission_denied`, `no_device`, `device_in_use`, `unsupported`,
 * `audio_failed`) when capture cannot start; later failures go to `options.onError`.
 */
export async function startCapture(options: CaptureOptions): Promise<CaptureSession> {
  const chunkMs = options.chunkMs ?? 50;
  const meterMs = options.meterMs ?? 50;
  checkRange('chunkMs', chunkMs, 50, 250);
  checkRange('meterMs', meterMs, 10, 250);
  if (options.contextSampleRate !== undefined) checkRange('contextSampleRate', options.contextSampleRate, 3000, 768_000);
  const processorOptions: CaptureProcessorOptions = {
    outputRate: AUDIO_SAMPLE_RATE,
    chunkSamples: Math.round((AUDIO_SAMPLE_RATE * chunkMs) / 1000),
    meterSamples: Math.round((AUDIO_SAMPLE_RATE * meterMs) / 1000),
  };

  const mediaDevices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!mediaDevices || typeof mediaDevices.getUserMedia !== 'function') {
    // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
    throw new CaptureError('unsupported', 'navigator.mediaDevices.getUserMedia is missing (an insecure http: page?)');
  }
  // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
  if (typeof AudioWorkletNode === 'undefined') throw new CaptureError('unsupported', 'AudioWorklet is missing');

  // The audio graph is ready before the microphone opens, so the first words are not lost to set-up time.
  const requestedRate = options.contextSampleRate ?? AUDIO_SAMPLE_RATE;
  let graph: AudioGraph;
  try {
    graph = await openAudioGraph(requestedRate, processorOptions, options.workletModuleUrl);
  } catch (error) {
    // A browser that refuses the requested rate gets its own rate and the worklet resamples.
    graph = await openAudioGraph(undefined, processorOptions, options.workletModuleUrl).catch(() => {
      throw error;
    });
  }

  let stream: MediaStream;
  try {
    stream = await mediaDevices.getUserMedia({
      audio: {
        // All three reshape pauses and levels, which are the data.
        echoCancellation: false,
        noiseSuppression: false,
        autoGainControl: false,
        channelCount: 1,
        ...(options.deviceId ? { deviceId: { exact: options.deviceId } } : {}),
      },
      video: false,
    });
  } catch (error) {
    closeQuietly(graph.context);
    throw captureErrorFromMediaError(error);
  }
  const track = stream.getAudioTracks()[0];
  if (!track || track.readyState === 'ended') {
    stopTracks(stream);
    closeQuietly(graph.context);
    // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
    throw new CaptureError('no_device', 'the browser returned no live audio track');
  }

  let source: MediaStreamAudioSourceNode;
  try {
    source = graph.context.createMediaStreamSource(stream);
  } catch (error) {
    // Firefox cannot connect a device to a context running at another rate: reopen at the device's rate.
    closeQuietly(graph.context);
    try {
      graph = await openAudioGraph(undefined, processorOptions, options.workletModuleUrl);
      source = graph.context.createMediaStreamSource(stream);
    } catch {
      closeQuietly(graph.context);
      stopTracks(stream);
      // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
      throw audioFailure('connecting the microphone to the audio graph', error);
    }
  }
  source.connect(graph.node);

  try {
    if (graph.context.state !== 'running') {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([graph.context.resume(), new Promise((resolve) => (timer = setTimeout(resolve, RESUME_TIMEOUT_MS)))]);
      clearTimeout(timer);
    }
    if (graph.context.state !== 'running') {
      throw new CaptureError(
        'audio_failed',
        // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
        `the AudioContext stayed "${graph.context.state}"; the browser may want a click before audio starts`,
      );
    }
  } catch (error) {
    source.disconnect();
    stopTracks(stream);
    closeQuietly(graph.context);
    // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
    throw audioFailure('starting the AudioContext', error);
  }

  return new MicrophoneCapture(options, graph, source, stream, track, processorOptions.chunkSamples);
}

class MicrophoneCapture implements CaptureSession {
  readonly sampleRate = AUDIO_SAMPLE_RATE;
  readonly contextSampleRate: number;
  readonly resampling: boolean;
  readonly device: { deviceId: string; label: string };
  readonly finished: Promise<CaptureTotals>;
  private resolveFinished!: (totals: CaptureTotals) => void;
  private ending: Promise<CaptureTotals> | undefined;
  private resolveFlushed: (() => void) | undefined;
  private deliveredSamples = 0;
  private deliveredChunks = 0;
  private readonly trackWatch: ReturnType<typeof setInterval>;

  constructor(
    private readonly options: CaptureOptions,
    private readonly graph: AudioGraph,
    private readonly source: MediaStreamAudioSourceNode,
    private readonly stream: MediaStream,
    private readonly track: MediaStreamTrack,
    readonly chunkSamples: number,
  ) {
    this.contextSampleRate = graph.context.sampleRate;
    this.resampling = graph.context.sampleRate !== AUDIO_SAMPLE_RATE;
    this.device = { deviceId: track.getSettings().deviceId ?? '', label: track.label };
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    graph.node.port.onmessage = (event: MessageEvent<CaptureWorkletMessage>) => this.receive(event.data);
    graph.node.onprocessorerror = () =>
      // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
      void this.end('audio_failed', new CaptureError('audio_failed', 'the capture worklet stopped with an error'));
    track.addEventListener('ended', this.onTrackEnded);
    // A track stopped by script fires no `ended` event, and the graph then just goes quiet.
    this.trackWatch = setInterval(() => {
      if (this.track.readyState === 'ended') this.onTrackEnded();
    }, TRACK_WATCH_MS);
  }

  stop(): Promise<CaptureTotals> {
    return this.end('stop');
  }

  private readonly onTrackEnded = (): void => {
    void this.end('device_lost', new CaptureError('device_lost', this.track.label ? `device "${this.track.label}"` : undefined));
  };

  private receive(message: CaptureWorkletMessage): void {
    switch (message.type) {
      case 'chunk': {
        const { pcm, startSample } = message;
        this.deliveredSamples += pcm.length;
        this.deliveredChunks++;
        this.options.onChunk({ pcm, startSample, levelDbfs: rmsDbfs(pcm), peakDbfs: peakDbfs(pcm) });
        break;
      }
      case 'meter':
        this.options.onMeter?.({
          levelDbfs: linearToDbfs(message.rms),
          peakDbfs: linearToDbfs(message.peak),
          endSample: message.endSample,
        });
        break;
      case 'flushed':
        this.resolveFlushed?.();
        break;
    }
  }

  /** Flushes the worklet (partial chunk delivered), releases everything, then reports `failure` if any. */
  private end(endedBy: CaptureTotals['endedBy'], failure?: CaptureError): Promise<CaptureTotals> {
    this.ending ??= (async () => {
      clearInterval(this.trackWatch);
      this.track.removeEventListener('ended', this.onTrackEnded);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flushed = new Promise<void>((resolve) => {
        this.resolveFlushed = resolve;
        timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
      });
      this.graph.node.port.postMessage({ type: 'flush' } satisfies CaptureWorkletCommand);
      await flushed;
      clearTimeout(timer);
      this.graph.node.port.onmessage = null;
      this.source.disconnect();
      stopTracks(this.stream);
      closeQuietly(this.graph.context);
      const totals: CaptureTotals = {
        samples: this.deliveredSamples,
        durationMs: (this.deliveredSamples * 1000) / AUDIO_SAMPLE_RATE,
        chunks: this.deliveredChunks,
        endedBy,
      };
      this.resolveFinished(totals);
      if (failure) this.options.onError?.(failure);
      return totals;
    })();
    return this.ending;
  }
}
