import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import WaveSurfer from 'wavesurfer.js';
import { useFormatDuration } from '../../shared/i18n/useDuration';
import { pcm16WavSamples } from '../review/reviewModel';

/**
 * The waveform of one annotator's protocol in the side-by-side view, over the player's own <audio> element (so the
 * keys, the controls and a click on the wave move the same playback), with her commit phrase marked. The samples are
 * fetched once from the same read-only route the player uses; wavesurfer fetches nothing itself.
 */
export function ProtocolWaveform({ src, media, commitMs }: { src: string; media: HTMLAudioElement | null; commitMs: number | null }) {
  const intl = useIntl();
  const duration = useFormatDuration();
  const container = useRef<HTMLDivElement | null>(null);
  const [durationMs, setDurationMs] = useState<number | null>(null);
  // why there is no waveform (the fetch's or the decoder's own words), shown in a catalog message
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    const box = container.current;
    if (!box || !media) return;
    const abort = new AbortController();
    let ws: WaveSurfer | null = null;
    void (async () => {
      try {
        const response = await fetch(src, { signal: abort.signal, credentials: 'same-origin' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const { samples, sampleRate } = pcm16WavSamples(await response.arrayBuffer());
        if (abort.signal.aborted) return;
        const duration = samples.length / sampleRate;
        ws = WaveSurfer.create({
          container: box,
          media,
          peaks: [samples],
          duration,
          height: 40,
          waveColor: '#8d9bbd',
          progressColor: '#2f5fd0',
          cursorColor: '#1d2330',
          normalize: true,
        });
        setDurationMs(duration * 1000);
      } catch (e) {
        if (!abort.signal.aborted) setProblem((e as Error).message);
      }
    })();
    return () => {
      abort.abort();
      setDurationMs(null);
      ws?.destroy();
    };
  }, [src, media]);
  // our own marker over the wave (the whole recording fits the width: no scrolling), not a wavesurfer region
  const at = durationMs !== null && commitMs !== null && commitMs <= durationMs ? (100 * commitMs) / durationMs : null;
  return (
    <div className="adj-wave-box" style={{ position: 'relative' }}>
      <div className="adj-waveform" ref={container} role="img" aria-label={intl.formatMessage({ id: 'adjudicate.wave.label' })} />
      {at !== null && (
        <span
          className="adj-commit-marker"
          title={intl.formatMessage({ id: 'adjudicate.commitPhraseAt' }, { time: duration(commitMs!) })}
          // past the middle the word hangs left of the line, so it stays over the wave (German words are longer)
          style={{
            position: 'absolute',
            top: 0,
            ...(at > 50
              ? { right: `${100 - at}%`, borderRight: '2px solid #267349' }
              : { left: `${at}%`, borderLeft: '2px solid #267349' }),
            whiteSpace: 'nowrap',
            height: '40px',
            fontSize: '11px',
            color: '#267349',
            pointerEvents: 'none',
          }}
        >
          {intl.formatMessage({ id: 'adjudicate.wave.commitMarker' })}
        </span>
      )}
      {problem && <p className="muted">{intl.formatMessage({ id: 'adjudicate.wave.failed' }, { message: problem })}</p>}
    </div>
  );
}
