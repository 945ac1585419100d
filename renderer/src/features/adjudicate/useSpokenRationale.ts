import { useCallback, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { SpokenRationaleView } from '../../../../core/common/adjudication/adjudicationApi';
import { WORKLET_URL } from '../../capture/workletUrl';
import { describeCaptureError } from '../label/recorder';
import { startCapture, type CaptureSession } from '../../capture/microphoneCapture';
import type { ApiClient } from '../../contract/apiClient';
import { rationaleWav } from './rationaleWav';

/** Longest spoken rationale the tab records (s): its WAV stays under the host's 2 MB audio body. */
export const MAX_SPOKEN_RATIONALE_S = 60;

export type SpokenRationaleState = 'idle' | 'starting' | 'recording' | 'transcribing';

export interface SpokenRationale {
  state: SpokenRationaleState;
  /** the rationale transcribed for the shown item (what Enter will decide with), null before one is recorded */
  transcribed: SpokenRationaleView | null;
  elapsedMs: number;
  /** start recording, or stop it and have the host transcribe it */
  toggle(): void;
  /** forget the recorded rationale (the typed one counts again) */
  discard(): void;
}

/**
 * The lead's spoken rationale for the shown item: the microphone (the Label tab's capture, 16 kHz) into memory, then
 * one WAV to the host, which transcribes it as it transcribes protocols and holds it until she decides. A new item
 * forgets it: a rationale is spoken for one item.
 */
export function useSpokenRationale(client: ApiClient, itemId: string | null, onError: (message: string) => void): SpokenRationale {
  const intl = useIntl();
  const [state, setState] = useState<SpokenRationaleState>('idle');
  const [transcribed, setTranscribed] = useState<SpokenRationaleView | null>(null);
  const [elapsedMs, setElapsedMs] = useState(0);
  const capture = useRef<CaptureSession | null>(null);
  const chunks = useRef<Float32Array[]>([]);
  const stateRef = useRef<SpokenRationaleState>('idle');
  const set = (next: SpokenRationaleState) => {
    stateRef.current = next;
    setState(next);
  };

  const stop = useCallback(async () => {
    const session = capture.current;
    if (!session) return;
    capture.current = null;
    set('transcribing');
    try {
      await session.stop();
      const view = await client.spokenRationaleAudio(rationaleWav(chunks.current));
      setTranscribed(view);
    } catch (e) {
      onError(intl.formatMessage({ id: 'adjudicate.spoken.notTranscribed' }, { message: (e as Error).message }));
    } finally {
      chunks.current = [];
      set('idle');
    }
  }, [client, intl, onError]);

  const start = useCallback(async () => {
    if (itemId === null || stateRef.current !== 'idle') return;
    set('starting');
    chunks.current = [];
    setElapsedMs(0);
    try {
      await client.beginSpokenRationale(itemId);
      capture.current = await startCapture({
        workletModuleUrl: WORKLET_URL,
        onChunk: (chunk) => {
          chunks.current.push(chunk.pcm);
          const ms = (chunks.current.reduce((n, c) => n + c.length, 0) / 16) | 0;
          setElapsedMs(ms);
          if (ms >= MAX_SPOKEN_RATIONALE_S * 1000) void stop();
        },
        onError: (error) => onError(describeCaptureError(error)),
      });
      set('recording');
    } catch (e) {
      capture.current = null;
      set('idle');
      onError(intl.formatMessage({ id: 'adjudicate.spoken.noMicrophone' }, { reason: describeCaptureError(e) }));
    }
  }, [client, intl, itemId, onError, stop]);

  const toggle = useCallback(() => {
    if (stateRef.current === 'recording') void stop();
    else if (stateRef.current === 'idle') void start();
  }, [start, stop]);

  // another item: the recording (if any) is dropped unsent, the transcript forgotten
  useEffect(() => {
    setTranscribed(null);
    return () => {
      const session = capture.current;
      capture.current = null;
      chunks.current = [];
      if (session) void session.stop();
      set('idle');
    };
  }, [itemId]);

  return { state, transcribed, elapsedMs, toggle, discard: () => setTranscribed(null) };
}
