import { useEffect, useMemo, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import MinimapPlugin from 'wavesurfer.js/dist/plugins/minimap.esm.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';
import type { ProjectView, SessionView } from '../../../core/common/contract/aloudApi';
import type { ItemSessionState, LabelSource } from '../../../core/common/session/itemState';
import { filterReviewItems, NO_FILTER, pauseSpans, pcm16WavSamples, playingSegment, STATUS_CHOICES, type PauseSpan, type ReviewFilter } from '../app/reviewModel';
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
export function ReviewScreen({ client, project, session, onSession, onError }: Props) {
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
            <Waveform key={state.item_id + ':' + state.audio_ms} client={client} project={project} state={state} onSession={onSession} onError={onError} />
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

function Waveform({
  client,
  project,
  state,
  onSession,
  onError,
}: {
  client: ApiClient;
  project: ProjectView;
  state: ItemSessionState;
  onSession?: ((view: SessionView) => void) | undefined;
  onError?: ((message: string | null) => void) | undefined;
}) {
  const [editing, setEditing] = useState<{ n: number; text: string } | null>(null);
  const waveRef = useRef<HTMLDivElement | null>(null);
  const timelineRef = useRef<HTMLDivElement | null>(null);
  const wsRef = useRef<WaveSurfer | null>(null);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const regionsRef = useRef<RegionsPlugin | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [nowMs, setNowMs] = useState(0);
  const [rate, setRate] = useState(1);
  const [pauses, setPauses] = useState<PauseSpan[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const { thinkaloud } = project;

  useEffect(() => {
    const container = waveRef.current;
    const timeline = timelineRef.current;
    const media = audioRef.current;
    if (!container || !timeline || !media) return;
    const url = client.itemAudioUrl(state.item_id);
    media.src = url;
    let ws: WaveSurfer | null = null;
    const abort = new AbortController();
    void (async () => {
      try {
        const response = await fetch(url, { signal: abort.signal, credentials: 'same-origin' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const { samples, sampleRate } = pcm16WavSamples(await response.arrayBuffer());
        if (abort.signal.aborted) return;
        const found = pauseSpans(samples, sampleRate, thinkaloud);
        setPauses(found);
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
            TimelinePlugin.create({ container: timeline, height: 20, duration: samples.length / sampleRate, timeInterval: 0.5, primaryLabelInterval: 1, style: { fontSize: '11px', color: '#3b4253' } }),
            MinimapPlugin.create({ height: 24, waveColor: '#b9c2d8', progressColor: '#6f88c9', overlayColor: 'rgba(47, 95, 208, 0.15)' }),
          ],
        });
        wsRef.current = ws;
        ws.on('ready', () => setReady(true));
        ws.on('timeupdate', (t) => setNowMs(t * 1000));
        ws.on('play', () => setPlaying(true));
        ws.on('pause', () => setPlaying(false));
        ws.on('finish', () => setPlaying(false));
        ws.on('error', (e) => setProblem(`The recording could not be played: ${String((e as Error)?.message ?? e)}`));
      } catch (e) {
        if (!abort.signal.aborted) setProblem(`The recording could not be loaded: ${(e as Error).message}`);
      }
    })();
    return () => {
      abort.abort();
      wsRef.current = null;
      regionsRef.current = null;
      setReady(false);
      setPlaying(false);
      ws?.destroy();
    };
    // one waveform per recording: a correction or a new label redraws the markers below, not the player
  }, [client, state.item_id, state.audio_ms, thinkaloud]);

  // The markers: segments, pauses and commitments on the waveform.
  useEffect(() => {
    const regions = regionsRef.current;
    if (!ready || !regions) return;
    regions.clearRegions();
    for (const seg of state.segments) {
      if (seg.t1_ms > seg.t0_ms) regions.addRegion({ start: seg.t0_ms / 1000, end: seg.t1_ms / 1000, color: 'rgba(47, 95, 208, 0.10)', drag: false, resize: false });
    }
    for (const p of pauses) {
      regions.addRegion({ start: p.start_ms / 1000, end: p.end_ms / 1000, color: p.long ? 'rgba(176, 121, 31, 0.30)' : 'rgba(176, 121, 31, 0.14)', drag: false, resize: false });
    }
    for (const c of state.commitments) {
      if (c.t_ms !== null) regions.addRegion({ start: c.t_ms / 1000, content: `▼ ${c.label}`, color: '#267349', drag: false, resize: false });
    }
    for (const cue of state.cues ?? []) {
      regions.addRegion({ start: cue.audio_ms / 1000, content: '“keep talking”', color: '#6a3fb5', drag: false, resize: false });
    }
  }, [ready, pauses, state.segments, state.commitments, state.cues]);

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
  const act = async (task: () => Promise<SessionView>) => {
    try {
      onSession?.(await task());
      return true;
    } catch (e) {
      onError?.((e as Error).message);
      return false;
    }
  };
  const correctionOf = (n: number) => {
    const ref = state.segment_refs[n];
    return ref ? state.corrections.filter((c) => c.utterance === ref.utterance && c.segment === ref.segment).at(-1) : undefined;
  };
  useShortcuts((press) => {
    if (editing) return false;
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
          {(state.cues?.length ?? 0) > 0 && (
            <>
              {' '}
              <span className="swatch cue" /> keep-talking cue
            </>
          )}
        </span>
      </div>
      {state.segments.length === 0 ? (
        <p className="muted">No transcript for this recording{state.stale_results > 0 ? ` (${state.stale_results} result(s) arrived too late)` : ''}.</p>
      ) : (
        <ol className="segments" aria-label="segments">
          {state.segments.map((seg, n) => {
            const correction = correctionOf(n);
            const ref = state.segment_refs[n];
            return (
              <li key={n} className={n === active ? 'segment playing' : 'segment'} aria-current={n === active ? 'true' : undefined}>
                <button className="link time" onClick={() => seek(seg.t0_ms)} title="play from here">
                  {formatClock(seg.t0_ms)}
                </button>
                {editing?.n === n ? (
                  <form
                    className="correct-form"
                    onSubmit={(e) => {
                      e.preventDefault();
                      if (!ref) return;
                      void act(() => client.correctSegment(state.item_id, ref.utterance, ref.segment, editing.text)).then((ok) => ok && setEditing(null));
                    }}
                  >
                    <input aria-label={`corrected text of segment ${n + 1}`} value={editing.text} onChange={(e) => setEditing({ n, text: e.target.value })} autoFocus />
                    <button type="submit" className="primary">
                      Save correction
                    </button>
                    <button type="button" onClick={() => setEditing(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <span className="seg-text">
                    {correction ? (
                      <>
                        <span className="corrected" aria-label={`corrected text of segment ${n + 1}`}>
                          {correction.text}
                        </span>
                        <span className="verbatim muted" aria-label={`verbatim text of segment ${n + 1}`}>
                          verbatim: {seg.text}
                        </span>
                      </>
                    ) : seg.tokens && seg.tokens.length > 0 ? (
                      seg.tokens.map((tok, k) => (
                        <button key={k} className="word" onClick={() => seek(tok.t0_ms)} title={`play from ${formatClock(tok.t0_ms)}`}>
                          {tok.text}
                        </button>
                      ))
                    ) : (
                      seg.text
                    )}
                  </span>
                )}
                {ref && editing?.n !== n && (
                  <button className="link edit" onClick={() => setEditing({ n, text: correction?.text ?? seg.text.trim() })} aria-label={`correct segment ${n + 1}`}>
                    Correct
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {state.transcript_corrected !== null && (
        <p className="row">
          <button onClick={() => void act(() => client.rederiveLabelsFromCorrections(state.item_id))}>Label from the corrected text</button>
          <span className="muted small">Adds a label of source “correction”; the spoken label stays in the history.</span>
        </p>
      )}
      <div className="review-facts">
        <div>
          <h3>Commitments</h3>
          {state.commitments.length > 0 && state.label_source !== 'voice' && state.final_label && (
            <p className="muted small">
              The final label, {state.final_label}, was given by {state.label_source} after these: none of them is the final label.
            </p>
          )}
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
        {(state.cues?.length ?? 0) > 0 && (
          <div>
            <h3>Keep-talking cues</h3>
            <ul aria-label="keep-talking cues">
              {state.cues!.map((cue, n) => (
                <li key={n}>
                  <button className="link time" onClick={() => seek(cue.audio_ms)}>
                    {formatClock(cue.audio_ms)}
                  </button>{' '}
                  after {(cue.silence_ms / 1000).toFixed(1)} s of silence
                </li>
              ))}
            </ul>
          </div>
        )}
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
