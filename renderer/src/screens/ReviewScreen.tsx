import { useEffect, useMemo, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import MinimapPlugin from 'wavesurfer.js/dist/plugins/minimap.esm.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import type { ProjectView, SessionView } from '../../../core/common/contract/aloudApi';
import type { ItemSessionState, LabelSource } from '../../../core/common/session/itemState';
import { filterReviewItems, NO_FILTER, pauseSpans, playingSegment, STATUS_CHOICES, type PauseSpan, type ReviewFilter } from '../app/reviewModel';
import { PLAYBACK_RATES, reviewShortcut, stepRate } from '../app/shortcuts';
import { formatClock } from '../app/transcriptMarks';
import type { ApiClient } from '../contract/apiClient';
import { ItemList } from '../components/ItemList';
import { ReasoningSideBySide } from '../components/ReasoningSideBySide';
import { TranscriptView } from '../components/TranscriptView';
import { useShortcuts } from '../hooks/useShortcuts';

interface Props {
  client: ApiClient;
  project: ProjectView;
  session: SessionView;
  onSession?: (view: SessionView) => void;
  onError?: (message: string | null) => void;
}

const SOURCES: LabelSource[] = ['voice', 'click', 'key'];

/** Quality checks: every item, filters, the waveform with segments, commitments and pauses, and playback by key. */
export function ReviewScreen({ client, project, session }: Props) {
  const states = useMemo(() => new Map(session.items.map((i) => [i.item_id, i])), [session.items]);
  const [filter, setFilter] = useState<ReviewFilter>(NO_FILTER);
  const shown = useMemo(() => filterReviewItems(project.items, states, filter), [filter, project.items, states]);
  const [itemId, setItemId] = useState<string | null>(session.current_item ?? project.items[0]?.id ?? null);
  const item = project.items.find((i) => i.id === itemId) ?? null;
  const state = itemId ? states.get(itemId) : undefined;
  const labels = project.schema.labels.map((l) => l.name);

  return (
    <div className="review-screen">
      <div className="review-side">
        <fieldset className="filters" aria-label="filters">
          <legend>Show items</legend>
          <label>
            Label
            <select value={filter.label ?? ''} onChange={(e) => setFilter({ ...filter, label: e.target.value || null })}>
              <option value="">any</option>
              {labels.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          <label>
            Label by
            <select value={filter.source ?? ''} onChange={(e) => setFilter({ ...filter, source: (e.target.value || null) as LabelSource | null })}>
              <option value="">any</option>
              {SOURCES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Status
            <select value={filter.status ?? ''} onChange={(e) => setFilter({ ...filter, status: (e.target.value || null) as ReviewFilter['status'] })}>
              <option value="">any</option>
              {STATUS_CHOICES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.words}
                </option>
              ))}
            </select>
          </label>
          <label>
            Longest pause over (s)
            <input
              type="number"
              min={0}
              step={0.5}
              value={filter.longestPauseAboveS ?? ''}
              onChange={(e) => setFilter({ ...filter, longestPauseAboveS: e.target.value === '' ? null : Number(e.target.value) })}
            />
          </label>
          <p className="muted filter-count" role="status">
            {shown.length} of {project.items.length} items
            {filter !== NO_FILTER && (
              <button className="link" onClick={() => setFilter(NO_FILTER)}>
                clear
              </button>
            )}
          </p>
        </fieldset>
        <ItemList items={shown} states={states} currentId={itemId} onOpen={(n) => setItemId(shown[n]!.id)} label="items to review" />
      </div>
      {item ? (
        <section className="item-pane" aria-label="review of the item">
          <div className="item-head">
            <span className="counter">
              <code>{item.id}</code> · label <strong>{state?.final_label ?? 'none'}</strong>
              {state?.label_source ? ` by ${state.label_source}` : ''}
              {state?.completed_at ? ' · completed' : ''}
            </span>
          </div>
          <blockquote className="item-text compact">{item.text}</blockquote>
          {state && state.audio_ms > 0 ? (
            <Waveform key={state.item_id + ':' + state.audio_ms} client={client} project={project} state={state} />
          ) : (
            <p className="empty">No recording for this item yet. Record it on the Label tab.</p>
          )}
          {state?.reasoning && <ReasoningSideBySide project={project} state={state} />}
        </section>
      ) : (
        <p className="empty">No item matches the filter.</p>
      )}
    </div>
  );
}

function Waveform({ client, project, state }: { client: ApiClient; project: ProjectView; state: ItemSessionState }) {
  const waveRef = useRef<HTMLDivElement | null>(null);
  const timelineRef = useRef<HTMLDivElement | null>(null);
  const wsRef = useRef<WaveSurfer | null>(null);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [nowMs, setNowMs] = useState(0);
  const [rate, setRate] = useState(1);
  const [pauses, setPauses] = useState<PauseSpan[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const { thinkaloud } = project;

  useEffect(() => {
    if (!waveRef.current || !timelineRef.current || !audioRef.current) return;
    const regions = RegionsPlugin.create();
    const ws = WaveSurfer.create({
      container: waveRef.current,
      // our own element: labelled, and in the page for assistive technology and tests
      media: audioRef.current,
      url: client.itemAudioUrl(state.item_id),
      height: 96,
      sampleRate: 16_000,
      waveColor: '#9aa8c7',
      progressColor: '#2f5fd0',
      cursorColor: '#1d2330',
      normalize: true,
      plugins: [
        regions,
        TimelinePlugin.create({ container: timelineRef.current, height: 18 }),
        MinimapPlugin.create({ height: 24, waveColor: '#c4cce0', progressColor: '#7f97d6', overlayColor: 'rgba(47, 95, 208, 0.15)' }),
      ],
    });
    wsRef.current = ws;
    ws.on('decode', () => {
      setReady(true);
      const decoded = ws.getDecodedData();
      const found = decoded ? pauseSpans(decoded.getChannelData(0), decoded.sampleRate, thinkaloud) : [];
      setPauses(found);
      for (const seg of state.segments) {
        if (seg.t1_ms > seg.t0_ms) regions.addRegion({ start: seg.t0_ms / 1000, end: seg.t1_ms / 1000, color: 'rgba(47, 95, 208, 0.10)', drag: false, resize: false });
      }
      for (const p of found) {
        regions.addRegion({ start: p.start_ms / 1000, end: p.end_ms / 1000, color: p.long ? 'rgba(176, 121, 31, 0.28)' : 'rgba(176, 121, 31, 0.12)', drag: false, resize: false });
      }
      for (const c of state.commitments) {
        if (c.t_ms !== null) regions.addRegion({ start: c.t_ms / 1000, content: `▼ ${c.label}`, color: '#267349', drag: false, resize: false });
      }
    });
    ws.on('timeupdate', (t) => setNowMs(t * 1000));
    ws.on('play', () => setPlaying(true));
    ws.on('pause', () => setPlaying(false));
    ws.on('finish', () => setPlaying(false));
    ws.on('error', (e) => setProblem(`The recording could not be loaded: ${String((e as Error)?.message ?? e)}`));
    return () => {
      wsRef.current = null;
      ws.destroy();
    };
  }, [client, state.item_id, state.segments, state.commitments, thinkaloud]);

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
  useShortcuts((press) => {
    const action = reviewShortcut(press);
    if (!action) return false;
    if (action.kind === 'play-pause') void wsRef.current?.playPause();
    else if (action.kind === 'skip') skip(action.seconds);
    else changeRate(stepRate(rate, action.step));
    return true;
  });

  const active = playingSegment(state.segments, nowMs);
  return (
    <div className="review-player">
      <audio ref={audioRef} preload="metadata" aria-label={`recording of ${state.item_id}`} />
      <div className="waveform" ref={waveRef} aria-label={`waveform of ${state.item_id}`} role="img" data-ready={ready ? 'true' : 'false'} />
      <div className="timeline" ref={timelineRef} aria-hidden="true" />
      {problem && <p role="alert">{problem}</p>}
      <div className="transport" role="group" aria-label="playback">
        <button onClick={() => void wsRef.current?.playPause()} disabled={!ready} aria-label={playing ? 'pause' : 'play'} title="Play / pause (Space)">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <button onClick={() => skip(-5)} disabled={!ready} title="Back 5 s (J)">
          −5 s
        </button>
        <button onClick={() => skip(5)} disabled={!ready} title="Forward 5 s (L)">
          +5 s
        </button>
        <label className="rate">
          Speed
          <select aria-label="playback speed" value={rate} onChange={(e) => changeRate(Number(e.target.value))} title="Slower / faster ([ and ])">
            {PLAYBACK_RATES.map((r) => (
              <option key={r} value={r}>
                {r}×
              </option>
            ))}
          </select>
        </label>
        <span className="clock" aria-label="position">
          {formatClock(nowMs)} / {formatClock(state.audio_ms)}
        </span>
        <span className="legend muted">
          <span className="swatch seg" /> segment <span className="swatch pause" /> pause <span className="swatch commit" /> commitment
        </span>
      </div>
      {state.segments.length === 0 ? (
        <p className="muted">No transcript for this recording{state.stale_results > 0 ? ` (${state.stale_results} result(s) arrived too late)` : ''}.</p>
      ) : (
        <ol className="segments" aria-label="segments">
          {state.segments.map((seg, n) => (
            <li key={n} className={n === active ? 'segment playing' : 'segment'} aria-current={n === active ? 'true' : undefined}>
              <button className="link time" onClick={() => seek(seg.t0_ms)} title="play from here">
                {formatClock(seg.t0_ms)}
              </button>
              <span className="seg-text">
                {seg.tokens && seg.tokens.length > 0
                  ? seg.tokens.map((tok, k) => (
                      <button key={k} className="word" onClick={() => seek(tok.t0_ms)} title={`play from ${formatClock(tok.t0_ms)}`}>
                        {tok.text}
                      </button>
                    ))
                  : seg.text}
              </span>
            </li>
          ))}
        </ol>
      )}
      <div className="review-facts">
        <div>
          <h3>Commitments</h3>
          {state.commitments.length === 0 ? (
            <p className="muted">No spoken commitment.</p>
          ) : (
            <ul>
              {state.commitments.map((c, n) => (
                <li key={n}>
                  <q>{c.quote}</q> → <strong>{c.label}</strong>{' '}
                  {c.t_ms !== null && (
                    <button className="link time" onClick={() => seek(Math.max(0, c.t_ms! - 2000))}>
                      {formatClock(c.t_ms)}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h3>Pauses</h3>
          {pauses.length === 0 ? (
            <p className="muted">{ready ? 'No pause.' : '…'}</p>
          ) : (
            <ul>
              {pauses.map((p, n) => (
                <li key={n}>
                  <button className="link time" onClick={() => seek(p.start_ms)}>
                    {formatClock(p.start_ms)}
                  </button>{' '}
                  {((p.end_ms - p.start_ms) / 1000).toFixed(1)} s{p.long ? ' (long)' : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <TranscriptView state={state} fillers={thinkaloud.fillers} listening={false} />
    </div>
  );
}
