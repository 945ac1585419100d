import { useIntl } from 'react-intl';
import { spansWithinTakes } from '../../../../core/common/signals/takeSignals';
import { useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import MinimapPlugin from 'wavesurfer.js/dist/plugins/minimap.esm.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import type { ThinkAloudConfig } from '../../../../core/common/project/projectConfig';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { pauseSpans, pcm16WavSamples, WavReadError, type PauseSpan } from './reviewModel';
import { useApi } from '../../shared/api';
import { PlaybackSpans, type PlayedSpan } from './playbackSpans';

/**
 * The review player's lifecycle: one WaveSurfer per recording, fed the samples we fetched ourselves (our own-origin
 * URL, so it fetches nothing), with the pauses found in them, the markers of segments, pauses, commitments and cues,
 * and the transport (play, seek, skip, speed). A correction or a new label redraws the markers, not the player.
 */
export function useWaveform(state: ItemSessionState, thinkaloud: ThinkAloudConfig, onPlayed?: (span: PlayedSpan) => void) {
  const client = useApi();
  const waveRef = useRef<HTMLDivElement | null>(null);
  const timelineRef = useRef<HTMLDivElement | null>(null);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const wsRef = useRef<WaveSurfer | null>(null);
  const regionsRef = useRef<RegionsPlugin | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [nowMs, setNowMs] = useState(0);
  const [rate, setRate] = useState(1);
  const [pauses, setPauses] = useState<PauseSpan[]>([]);
  const intl = useIntl();
  /** why the recording cannot be played: the message, and the technical reason (the browser's or the file's words) */
  const [problem, setProblem] = useState<{ id: 'review.problem.play' | 'review.problem.load'; reason: string } | null>(null);
  // each playback is handed on once when it stops (the session logs it as audio_played)
  const playedRef = useRef(onPlayed);
  playedRef.current = onPlayed;
  // where each recording of the item begins on its audio (a string, so a new state object with the same takes redraws nothing)
  const takeKey = (state.recordings ?? []).map((r) => r.offset_ms).join(',');

  useEffect(() => {
    const takeStartsMs = takeKey === '' ? [] : takeKey.split(',').map(Number);
    const container = waveRef.current;
    const timeline = timelineRef.current;
    const media = audioRef.current;
    if (!container || !timeline || !media) return;
    const url = client.itemAudioUrl(state.item_id);
    media.src = url;
    let ws: WaveSurfer | null = null;
    const abort = new AbortController();
    const spans = new PlaybackSpans((span) => playedRef.current?.(span));
    void (async () => {
      try {
        const response = await fetch(url, { signal: abort.signal, credentials: 'same-origin' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const { samples, sampleRate } = pcm16WavSamples(await response.arrayBuffer());
        if (abort.signal.aborted) return;
        // within each take, as the signals count them: never a pause across the boundary of two recordings
        setPauses(
          spansWithinTakes(
            samples,
            sampleRate,
            takeStartsMs,
            (take) => pauseSpans(take, sampleRate, thinkaloud),
            (p, offsetMs) => ({ ...p, start_ms: p.start_ms + offsetMs, end_ms: p.end_ms + offsetMs }),
          ),
        );
        const regions = RegionsPlugin.create();
        regionsRef.current = regions;
        ws = WaveSurfer.create({
          container,
          // our own element, with our own-origin URL; the samples are given, so wavesurfer fetches nothing itself
          media,
          peaks: [samples],
          duration: samples.length / sampleRate,
          height: 96,
          waveColor: '#8d9bbd',
          progressColor: '#2f5fd0',
          cursorColor: '#1d2330',
          normalize: true,
          plugins: [
            regions,
            TimelinePlugin.create({
              container: timeline,
              height: 20,
              duration: samples.length / sampleRate,
              timeInterval: 0.5,
              primaryLabelInterval: 1,
              style: { fontSize: '11px', color: '#3b4253' },
            }),
            MinimapPlugin.create({ height: 24, waveColor: '#b9c2d8', progressColor: '#6f88c9', overlayColor: 'rgba(47, 95, 208, 0.15)' }),
          ],
        });
        wsRef.current = ws;
        ws.on('ready', () => setReady(true));
        ws.on('timeupdate', (t) => setNowMs(t * 1000));
        ws.on('play', () => (setPlaying(true), spans.play(ws!.getCurrentTime() * 1000)));
        ws.on('pause', () => (setPlaying(false), spans.stop(ws!.getCurrentTime() * 1000)));
        ws.on('finish', () => (setPlaying(false), spans.stop(ws!.getCurrentTime() * 1000)));
        ws.on('error', (e) => setProblem({ id: 'review.problem.play', reason: String((e as Error)?.message ?? e) }));
      } catch (e) {
        if (!abort.signal.aborted)
          setProblem({
            id: 'review.problem.load',
            // the file's words in the person's language; the browser's own (a failed fetch) as it gives them
            reason: e instanceof WavReadError ? intl.formatMessage({ id: e.say.id }, e.say.values) : (e as Error).message,
          });
      }
    })();
    return () => {
      abort.abort();
      wsRef.current = null;
      regionsRef.current = null;
      setReady(false);
      setPlaying(false);
      if (ws) spans.stop(ws.getCurrentTime() * 1000);
      ws?.destroy();
    };
    // one waveform per recording: a correction or a new label redraws the markers below, not the player
  }, [client, state.item_id, state.audio_ms, thinkaloud, takeKey]);

  // The markers: segments, pauses and commitments on the waveform.
  useEffect(() => {
    const regions = regionsRef.current;
    if (!ready || !regions) return;
    regions.clearRegions();
    for (const seg of state.segments) {
      if (seg.t1_ms > seg.t0_ms)
        regions.addRegion({ start: seg.t0_ms / 1000, end: seg.t1_ms / 1000, color: 'rgba(47, 95, 208, 0.10)', drag: false, resize: false });
    }
    for (const p of pauses) {
      regions.addRegion({
        start: p.start_ms / 1000,
        end: p.end_ms / 1000,
        color: p.long ? 'rgba(176, 121, 31, 0.30)' : 'rgba(176, 121, 31, 0.14)',
        drag: false,
        resize: false,
      });
    }
    for (const c of state.commitments) {
      if (c.t_ms !== null)
        regions.addRegion({ start: c.t_ms / 1000, content: `▼ ${c.label}`, color: '#267349', drag: false, resize: false });
    }
    for (const cue of state.cues ?? []) {
      regions.addRegion({
        start: cue.audio_ms / 1000,
        content: intl.formatMessage({ id: 'review.marker.cue' }),
        color: '#6a3fb5',
        drag: false,
        resize: false,
      });
    }
  }, [ready, pauses, state.segments, state.commitments, state.cues, intl]);

  const seek = (ms: number, play = true) => {
    const ws = wsRef.current;
    if (!ws) return;
    ws.setTime(Math.max(0, ms / 1000));
    setNowMs(ms);
    if (play) void ws.play();
  };
  const skip = (seconds: number) => {
    const ws = wsRef.current;
    if (!ws) return;
    seek(Math.min(ws.getDuration() * 1000, Math.max(0, ws.getCurrentTime() * 1000 + seconds * 1000)), false);
  };
  const changeRate = (next: number) => {
    setRate(next);
    wsRef.current?.setPlaybackRate(next, true);
  };
  const playPause = () => void wsRef.current?.playPause();
  const problemText = problem && intl.formatMessage({ id: problem.id }, { reason: problem.reason });
  return { waveRef, timelineRef, audioRef, ready, playing, nowMs, rate, pauses, problem: problemText, seek, skip, changeRate, playPause };
}
