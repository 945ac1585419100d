import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ProjectView, SessionView } from '../../../core/common/contract/aloudApi';
import type { ItemSessionState } from '../../../core/common/session/itemState';
import { WORKLET_URL } from '../app/client';
import { describeCaptureError, Recorder } from '../app/recorder';
import { transcriptPieces } from '../app/transcriptMarks';
import type { ApiClient } from '../contract/apiClient';

interface Props {
  client: ApiClient;
  project: ProjectView;
  session: SessionView;
  onSession: (view: SessionView) => void;
  onError: (message: string | null) => void;
  run: <T>(task: () => Promise<T>) => Promise<T | null>;
}

const METER_FLOOR_DB = -60;

function itemStatus(state: ItemSessionState | undefined): 'done' | 'labelled' | 'audio' | 'new' {
  if (!state) return 'new';
  if (state.completed_at) return 'done';
  if (state.final_label) return 'labelled';
  return state.audio_ms > 0 ? 'audio' : 'new';
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

export function LabelScreen({ client, project, session, onSession, onError, run }: Props) {
  const [level, setLevel] = useState(METER_FLOOR_DB);
  const [recording, setRecording] = useState(false);
  const [starting, setStarting] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [allDone, setAllDone] = useState(false);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [note, setNote] = useState('');
  const recorderRef = useRef<Recorder | null>(null);
  const startedAt = useRef(0);

  const states = useMemo(() => new Map(session.items.map((i) => [i.item_id, i])), [session.items]);
  const items = project.items;
  const currentId = session.current_item ?? items[0]?.id ?? null;
  const index = items.findIndex((i) => i.id === currentId);
  const item = index >= 0 ? items[index]! : null;
  const state = currentId ? states.get(currentId) : undefined;

  const stopRecording = useCallback(async () => {
    const recorder = recorderRef.current;
    if (!recorder) return;
    recorderRef.current = null;
    setRecording(false);
    setStopping(true);
    setLevel(METER_FLOOR_DB);
    try {
      await recorder.stop();
      const view = await run(() => client.stopRecording());
      if (view) onSession(view);
    } finally {
      setStopping(false);
    }
  }, [client, onSession, run]);

  const startRecording = useCallback(async () => {
    if (recorderRef.current || starting) return;
    setStarting(true);
    onError(null);
    const recorder = new Recorder(
      client,
      {
        onMeter: (r) => setLevel(Math.max(METER_FLOOR_DB, r.peakDbfs)),
        onFailure: (message) => {
          onError(`Recording stopped: ${message}. What was recorded so far is kept.`);
          void stopRecording();
        },
      },
      WORKLET_URL,
    );
    try {
      await recorder.start(null);
      recorderRef.current = recorder;
      startedAt.current = performance.now();
      setElapsedMs(0);
      setRecording(true);
    } catch (e) {
      onError(`Cannot record: ${describeCaptureError(e)}`);
    } finally {
      setStarting(false);
    }
  }, [client, onError, starting, stopRecording]);

  const toggleRecording = useCallback(() => {
    if (stopping) return;
    if (recorderRef.current) void stopRecording();
    else void startRecording();
  }, [startRecording, stopRecording, stopping]);

  const go = useCallback(
    async (delta: number) => {
      const next = items[index + delta];
      if (!next) return;
      if (recorderRef.current) await stopRecording();
      const view = await run(() => client.openItem(next.id));
      if (view) onSession(view);
    },
    [client, index, items, onSession, run, stopRecording],
  );

  const commit = useCallback(
    async (label: string, source: 'click' | 'key') => {
      const view = await run(() => client.commitLabel(label, source));
      if (view) onSession(view);
    },
    [client, onSession, run],
  );

  const complete = useCallback(async () => {
    if (recorderRef.current) await stopRecording();
    const view = await run(() => client.completeItem());
    if (!view) return;
    onSession(view);
    // Go on to the next item not completed yet (after this one, then from the top), or say that all are done.
    const done = new Set(view.items.filter((i) => i.completed_at).map((i) => i.item_id));
    const next = [...items.slice(index + 1), ...items.slice(0, index)].find((it) => !done.has(it.id));
    if (next) {
      const moved = await run(() => client.openItem(next.id));
      if (moved) onSession(moved);
    } else {
      setAllDone(true);
    }
  }, [client, index, items, onSession, run, stopRecording]);

  // The recording clock.
  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setElapsedMs(performance.now() - startedAt.current), 200);
    return () => clearInterval(timer);
  }, [recording]);

  // Leaving the screen (another tab) stops the recording too; what was recorded is kept.
  const stopRef = useRef(stopRecording);
  stopRef.current = stopRecording;
  useEffect(() => () => void stopRef.current(), []);

  // Before paint: a key pressed as soon as the item shows must already be heard.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.metaKey || e.ctrlKey || e.altKey) return;
      const label = project.schema.labels.find((l) => l.key !== undefined && l.key === e.key);
      if (label) {
        e.preventDefault();
        void commit(label.name, 'key');
      } else if (e.key === ' ' || e.key === 'r') {
        e.preventDefault();
        toggleRecording();
      } else if (e.key === 'Enter') {
        e.preventDefault();
        void complete();
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        void go(1);
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        void go(-1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [commit, complete, go, project.schema.labels, toggleRecording]);

  if (!item) return <p className="empty">This project has no items yet. Import some with <code>aloud import</code>.</p>;
  const pieces = transcriptPieces(state?.transcript ?? '', state?.commitments ?? [], state?.parse_diagnostics ?? []);
  const meterPct = Math.round((100 * (level - METER_FLOOR_DB)) / -METER_FLOOR_DB);
  const signals = state?.signals;

  return (
    <div className="label-screen">
      <aside className="item-list" aria-label="items">
        <ol>
          {items.map((it, n) => {
            const status = itemStatus(states.get(it.id));
            return (
              <li key={it.id}>
                <button
                  className={`item-link ${status} ${it.id === currentId ? 'current' : ''}`}
                  aria-current={it.id === currentId ? 'true' : undefined}
                  onClick={() => void go(n - index)}
                  title={`${it.id}: ${status}`}
                >
                  <span className="dot" aria-hidden="true" />
                  <span className="item-id">{it.id}</span>
                  {states.get(it.id)?.final_label && <span className="item-label">{states.get(it.id)!.final_label}</span>}
                </button>
              </li>
            );
          })}
        </ol>
      </aside>
      <section className="item-pane">
        <div className="item-head">
          <span className="counter">
            Item {index + 1} of {items.length} · <code>{item.id}</code>
          </span>
          <div className="nav">
            <button onClick={() => void go(-1)} disabled={index <= 0} title="Previous item (←)">
              ← Prev
            </button>
            <button onClick={() => void go(1)} disabled={index >= items.length - 1} title="Next item (→)">
              Next →
            </button>
          </div>
        </div>
        {item.context && (
          <blockquote className="context" aria-label="user message">
            <span className="who">User</span>
            {item.context}
          </blockquote>
        )}
        <blockquote className="item-text" aria-label="reply to label">
          {item.context && <span className="who">Reply</span>}
          {item.text}
        </blockquote>

        <div className="record-row">
          <button className={recording ? 'record on' : 'record'} onClick={toggleRecording} disabled={starting || stopping} aria-pressed={recording} title="Record / stop (Space)">
            <span className="record-dot" aria-hidden="true" />
            {recording ? 'Stop' : starting ? 'Starting…' : state && state.audio_ms > 0 ? 'Record more' : 'Record'}
          </button>
          <div className="meter" role="meter" aria-label="input level" aria-valuemin={METER_FLOOR_DB} aria-valuemax={0} aria-valuenow={Math.round(level)}>
            <div className="meter-fill" style={{ width: `${recording ? meterPct : 0}%` }} />
          </div>
          <span className="clock">{recording ? `${(elapsedMs / 1000).toFixed(1)} s` : stopping ? 'saving…' : state && state.audio_ms > 0 ? `${(state.audio_ms / 1000).toFixed(1)} s recorded` : ''}</span>
        </div>

        <div className="labels" role="group" aria-label="labels">
          {project.schema.labels.map((l) => (
            <button key={l.name} className={state?.final_label === l.name ? 'label-btn chosen' : 'label-btn'} onClick={() => void commit(l.name, 'click')} aria-pressed={state?.final_label === l.name}>
              {l.key && <kbd>{l.key}</kbd>} {l.name}
            </button>
          ))}
          <button className="complete" onClick={() => void complete()} title="Complete and go to the next item (Enter)">
            Complete ⏎
          </button>
        </div>

        {allDone && (
          <div className="all-done" role="status">
            All {items.length} items are completed. Export your session with the Export button, or go back to any item to change it.
          </div>
        )}
        <div className="verdict" aria-live="polite">
          {state?.final_label ? (
            <>
              Label: <strong className="final-label">{state.final_label}</strong> <span className="source">by {state.label_source}</span>
              {state.blind_label && state.blind_label !== state.final_label && <span className="blind"> · first said {state.blind_label}</span>}
              {state.completed_at && <span className="done-tag"> · completed</span>}
            </>
          ) : (
            <span className="muted">No label yet — say “I label this …” or press a key.</span>
          )}
        </div>

        <div className="transcript" aria-label="transcript">
          <h3>
            Transcript <span className="muted">(verbatim)</span>
          </h3>
          {pieces.length === 0 ? (
            <p className="muted">{recording ? 'Listening…' : 'Nothing transcribed yet.'}</p>
          ) : (
            <p>
              {pieces.map((p, n) =>
                p.kind === 'text' ? (
                  <span key={n}>{p.text}</span>
                ) : p.kind === 'commit' ? (
                  <mark key={n} className={p.final ? 'commit final' : 'commit'} title={`commits ${p.label}`}>
                    {p.text}
                  </mark>
                ) : (
                  <span key={n} className="mention" title={p.note}>
                    {p.text}
                  </span>
                ),
              )}
            </p>
          )}
        </div>

        {signals && (
          <dl className="signals" aria-label="hesitation signals">
            {signals.pauses && (
              <>
                <dt>Pauses</dt>
                <dd>
                  {signals.pauses.count} ({(signals.pauses.total_ms / 1000).toFixed(1)} s, longest {(signals.pauses.longest_ms / 1000).toFixed(1)} s)
                </dd>
              </>
            )}
            {signals.time_to_first_speech_ms !== undefined && signals.time_to_first_speech_ms !== null && (
              <>
                <dt>First speech</dt>
                <dd>{(signals.time_to_first_speech_ms / 1000).toFixed(1)} s</dd>
              </>
            )}
            {signals.filler_count !== undefined && (
              <>
                <dt>Fillers</dt>
                <dd>{signals.filler_count}</dd>
              </>
            )}
            {signals.label_changes !== undefined && (
              <>
                <dt>Label changes</dt>
                <dd>{signals.label_changes}</dd>
              </>
            )}
          </dl>
        )}

        {session.notes.some((n) => n.item_id === currentId) && (
          <ul className="notes" aria-label="notes on this item">
            {session.notes
              .filter((n) => n.item_id === currentId)
              .map((n, i) => (
                <li key={i}>
                  <span className="muted">{new Date(n.ts).toLocaleTimeString()}</span> {n.text}
                </li>
              ))}
          </ul>
        )}
        <form
          className="note"
          onSubmit={(e) => {
            e.preventDefault();
            const text = note.trim();
            if (!text) return;
            void run(() => client.addNote(text)).then((view) => {
              if (!view) return;
              onSession(view);
              setNote('');
            });
          }}
        >
          <input aria-label="note" value={note} onChange={(e) => setNote(e.target.value)} placeholder="Add a note for this item (optional)" />
          <button type="submit" disabled={!note.trim()}>
            Add note
          </button>
        </form>
      </section>
    </div>
  );
}
