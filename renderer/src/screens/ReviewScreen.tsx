import { useEffect, useRef, useState } from 'react';
import type { ProjectView, SessionView } from '../../../core/common/contract/aloudApi';
import { formatClock, transcriptPieces } from '../app/transcriptMarks';
import type { ApiClient } from '../contract/apiClient';

/** Transcripts against the audio: play an item's recording and jump to any segment. */
export function ReviewScreen({ client, project, session }: { client: ApiClient; project: ProjectView; session: SessionView }) {
  const recorded = session.items.filter((i) => i.audio_ms > 0);
  const [itemId, setItemId] = useState<string | null>(session.current_item && recorded.some((i) => i.item_id === session.current_item) ? session.current_item : (recorded[0]?.item_id ?? null));
  const [nowMs, setNowMs] = useState(0);
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const state = recorded.find((i) => i.item_id === itemId);
  const text = project.items.find((i) => i.id === itemId)?.text;

  useEffect(() => setNowMs(0), [itemId]);

  if (recorded.length === 0) return <p className="empty">No recordings yet. Record an item on the Label tab, then review it here.</p>;

  const seek = (ms: number) => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.currentTime = ms / 1000;
    void audio.play();
  };

  return (
    <div className="review-screen">
      <aside className="item-list" aria-label="recorded items">
        <ol>
          {recorded.map((i) => (
            <li key={i.item_id}>
              <button className={`item-link ${i.item_id === itemId ? 'current' : ''}`} onClick={() => setItemId(i.item_id)} aria-current={i.item_id === itemId ? 'true' : undefined}>
                <span className="item-id">{i.item_id}</span>
                <span className="item-label">{i.final_label ?? '—'}</span>
              </button>
            </li>
          ))}
        </ol>
      </aside>
      {state && (
        <section className="item-pane">
          <blockquote className="item-text">{text}</blockquote>
          <audio
            ref={audioRef}
            key={state.item_id}
            controls
            preload="metadata"
            src={client.itemAudioUrl(state.item_id)}
            onTimeUpdate={(e) => setNowMs(e.currentTarget.currentTime * 1000)}
            aria-label={`recording of ${state.item_id}`}
          />
          <p className="muted">
            {(state.audio_ms / 1000).toFixed(1)} s · {state.segments.length} segments · label {state.final_label ?? 'none'}
            {state.label_source ? ` by ${state.label_source}` : ''}
          </p>
          {state.segments.length === 0 ? (
            <p className="muted">No transcript for this recording.</p>
          ) : (
            <ol className="segments">
              {state.segments.map((seg, n) => {
                const playing = nowMs >= seg.t0_ms && nowMs < seg.t1_ms;
                return (
                  <li key={n} className={playing ? 'segment playing' : 'segment'}>
                    <button className="link time" onClick={() => seek(seg.t0_ms)} title="play from here">
                      {formatClock(seg.t0_ms)}
                    </button>
                    <span className="seg-text">{seg.text}</span>
                  </li>
                );
              })}
            </ol>
          )}
          <div className="transcript">
            <h3>Commitments</h3>
            {state.commitments.length === 0 ? (
              <p className="muted">No spoken commitment.</p>
            ) : (
              <ul>
                {state.commitments.map((c, n) => (
                  <li key={n}>
                    <q>{c.quote}</q> → <strong>{c.label}</strong>
                    {c.t_ms !== null && (
                      <button className="link time" onClick={() => seek(Math.max(0, c.t_ms! - 2000))}>
                        {formatClock(c.t_ms)}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {transcriptPieces(state.transcript, [], state.parse_diagnostics ?? []).some((p) => p.kind === 'mention') && (
              <p className="muted">Mentions that committed nothing are dotted in the Label tab's transcript.</p>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
