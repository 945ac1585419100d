import { useCallback, useRef, useState, type MutableRefObject } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import { useApi } from '../../shared/api';
import type { RunCall } from '../../shared/runCall';
import { SilenceWatch } from './keepTalking';
import { useRecorder } from './useRecorder';

interface Options {
  project: ProjectView;
  /** microphone chosen in Settings (null: the system default) */
  deviceId: string | null;
  /** seconds of silence before the keep-talking cue; null: off */
  keepTalkingSeconds: number | null;
  /** in review the voice would be the annotator's (her audio, transcript, labels): recording is off, and Space says so */
  reviewing: boolean;
  /** true while Enter completes the item: Space must not start a recording on it (or on the next one before it opens) */
  completingRef: MutableRefObject<boolean>;
  /** a recording toggled drops a label change waiting for its yes */
  onToggle: () => void;
  onSession: (update: SessionUpdate) => void;
  onError: (message: string | null) => void;
  run: RunCall;
}

/** The Label screen's microphone: the recorder, the keep-talking cue it feeds, and Space's toggle with its guards. */
export function useLabelRecorder({
  project,
  deviceId,
  keepTalkingSeconds,
  reviewing,
  completingRef,
  onToggle,
  onSession,
  onError,
  run,
}: Options) {
  const client = useApi();
  const [cue, setCue] = useState(false);
  const watchRef = useRef<SilenceWatch | null>(null);
  const recorder = useRecorder({
    deviceId,
    onError,
    onMeter: (reading, elapsedMs) => {
      const watch = watchRef.current;
      if (!watch) return;
      const silentMs = watch.reading(reading.peakDbfs, elapsedMs);
      if (silentMs !== null) {
        setCue(true);
        void client.logCue('keep_talking', Math.round(silentMs)).catch(() => undefined);
      } else if (!watch.showing) setCue(false);
    },
    onStopped: async (stopCapture) => {
      watchRef.current = null;
      setCue(false);
      await stopCapture();
      const view = await run(() => client.stopRecording());
      if (view) onSession(view);
    },
  });

  const [recordingOffShown, setRecordingOffShown] = useState(false);
  const toggleRecording = useCallback(() => {
    if (reviewing) {
      setRecordingOffShown(true);
      return;
    }
    // while Enter completes the item, Space must not start a recording on it (or on the next one before it opens)
    if (completingRef.current) return;
    onToggle();
    if (!recorder.isActive())
      watchRef.current = new SilenceWatch(
        keepTalkingSeconds === null ? null : keepTalkingSeconds * 1000,
        project.thinkaloud.silence_threshold_dbfs,
      );
    recorder.toggle();
  }, [completingRef, keepTalkingSeconds, onToggle, project.thinkaloud.silence_threshold_dbfs, recorder, reviewing]);
  return { recorder, cue, recordingOffShown, toggleRecording };
}
