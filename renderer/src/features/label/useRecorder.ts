import { useCallback, useEffect, useRef, useState } from 'react';
import type { InputMeterReading } from '../../capture/microphoneCapture';
import { WORKLET_URL } from '../../capture/workletUrl';
import { useIntl } from 'react-intl';
import { describeCaptureError, describeRecorderFailure, Recorder } from './recorder';
import { useApi } from '../../shared/api';

export const METER_FLOOR_DB = -60;

export interface RecorderControls {
  recording: boolean;
  starting: boolean;
  stopping: boolean;
  /** peak level of the last meter reading, dBFS (METER_FLOOR_DB when idle) */
  level: number;
  elapsedMs: number;
  start(): Promise<void>;
  /** stops and waits until every chunk is stored and the host has stopped the recording */
  stop(): Promise<void>;
  /** start or stop; while starting, a toggle stops it once started (and another toggle takes that back); ignored while a stop is being saved */
  toggle(): void;
  /**
   * Resolves once no start and no stop is under way: a stop has stored its last chunk and the host has stopped the
   * recording (what Enter and the arrows wait for, so they never cut a recording's end short).
   */
  idle(): Promise<void>;
  /** true while a recorder is open (synchronous: no render needed) */
  isActive(): boolean;
}

export interface RecorderOptions {
  deviceId: string | null;
  onError(message: string | null): void;
  /** each meter reading while recording (the keep-talking cue listens here) */
  onMeter?(reading: InputMeterReading, elapsedMs: number): void;
  /** the host's answer to stopRecording */
  onStopped(stop: () => Promise<void>): Promise<void>;
}

/**
 * The microphone on the label screen: one recorder at a time, start guarded against double presses, the level
 * meter and the recording clock. Stopping is left to the caller's `onStopped`, which calls the host.
 */
export function useRecorder(options: RecorderOptions): RecorderControls {
  const client = useApi();
  // the language at the moment a failure is told (the callbacks outlive a render)
  const intl = useIntl();
  const intlRef = useRef(intl);
  intlRef.current = intl;
  const [level, setLevel] = useState(METER_FLOOR_DB);
  const [recording, setRecording] = useState(false);
  const [starting, setStarting] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [elapsedMs, setElapsedMs] = useState(0);
  const recorderRef = useRef<Recorder | null>(null);
  const startingRef = useRef<Promise<void> | null>(null);
  const stoppingRef = useRef<Promise<void> | null>(null);
  /** a toggle while the recording was starting: it stops as soon as it has started (no press is lost) */
  const stopWhenStartedRef = useRef(false);
  const startedAt = useRef(0);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const stop = useCallback(async () => {
    const recorder = recorderRef.current;
    if (!recorder) return stoppingRef.current ?? undefined;
    recorderRef.current = null;
    setRecording(false);
    setStopping(true);
    setLevel(METER_FLOOR_DB);
    const stopping = (async () => {
      try {
        await optionsRef.current.onStopped(() => recorder.stop());
      } finally {
        stoppingRef.current = null;
        setStopping(false);
      }
    })();
    stoppingRef.current = stopping;
    return stopping;
  }, []);

  const start = useCallback(async () => {
    if (recorderRef.current || startingRef.current) return;
    let started!: () => void;
    startingRef.current = new Promise<void>((resolve) => (started = resolve));
    stopWhenStartedRef.current = false;
    setStarting(true);
    optionsRef.current.onError(null);
    const recorder = new Recorder(
      client,
      {
        onMeter: (reading) => {
          setLevel(Math.max(METER_FLOOR_DB, reading.peakDbfs));
          optionsRef.current.onMeter?.(reading, performance.now() - startedAt.current);
        },
        onFailure: (failure) => {
          optionsRef.current.onError(
            intlRef.current.formatMessage({ id: 'label.record.stopped' }, { reason: describeRecorderFailure(failure, intlRef.current) }),
          );
          void stop();
        },
      },
      WORKLET_URL,
    );
    try {
      await recorder.start(optionsRef.current.deviceId);
      recorderRef.current = recorder;
      startedAt.current = performance.now();
      setElapsedMs(0);
      setRecording(true);
      if (stopWhenStartedRef.current) void stop();
    } catch (e) {
      // The worklet and the session both live on the host: when it is gone, say so rather than blame the audio system.
      const reachable = await client.appInfo().then(
        () => true,
        () => false,
      );
      optionsRef.current.onError(
        reachable
          ? intlRef.current.formatMessage({ id: 'label.record.cannot' }, { reason: describeCaptureError(e, intlRef.current) })
          : intlRef.current.formatMessage({ id: 'label.record.unreachable' }),
      );
    } finally {
      startingRef.current = null;
      started();
      setStarting(false);
    }
  }, [client, stop]);

  const idle = useCallback(async () => {
    while (startingRef.current || stoppingRef.current) await (startingRef.current ?? stoppingRef.current);
  }, []);

  const toggle = useCallback(() => {
    if (startingRef.current) {
      stopWhenStartedRef.current = !stopWhenStartedRef.current;
      return;
    }
    if (stoppingRef.current) return;
    if (recorderRef.current) void stop();
    else void start();
  }, [start, stop]);

  // The recording clock.
  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setElapsedMs(performance.now() - startedAt.current), 200);
    return () => clearInterval(timer);
  }, [recording]);

  // Leaving the screen (another tab) stops the recording too; what was recorded is kept.
  useEffect(() => () => void stop(), [stop]);

  return { recording, starting, stopping, level, elapsedMs, start, stop, toggle, idle, isActive: () => recorderRef.current !== null };
}
