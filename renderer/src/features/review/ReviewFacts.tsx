import type { ItemSessionState } from '../../../../core/common/session/itemState';
import type { PauseSpan } from './reviewModel';
import { formatClock } from '../../../../core/common/transcript/transcriptMarks';

/** What the review shows beside the player: the spoken commitments, the keep-talking cues and the pauses, each a link to its moment. */
export function ReviewFacts({
  state,
  pauses,
  ready,
  seek,
}: {
  state: ItemSessionState;
  pauses: PauseSpan[];
  ready: boolean;
  seek: (ms: number) => void;
}) {
  return (
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
  );
}
