import { FormattedMessage, useIntl } from 'react-intl';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import type { PauseSpan } from './reviewModel';
import { useFormatClock } from '../../shared/i18n/useDuration';

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
  const intl = useIntl();
  const formatClock = useFormatClock();
  return (
    <div className="review-facts">
      <div>
        <h3>
          <FormattedMessage id="review.facts.commitments" />
        </h3>
        {state.commitments.length > 0 && state.label_source !== 'voice' && state.final_label && (
          <p className="muted small">
            <FormattedMessage id="review.facts.notFinal" values={{ label: state.final_label, source: state.label_source ?? 'other' }} />
          </p>
        )}
        {state.commitments.length === 0 ? (
          <p className="muted">
            <FormattedMessage id="review.facts.noCommitment" />
          </p>
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
          <h3>
            <FormattedMessage id="review.facts.cues" />
          </h3>
          <ul aria-label={intl.formatMessage({ id: 'review.facts.cues.name' })}>
            {state.cues!.map((cue, n) => (
              <li key={n}>
                <button className="link time" onClick={() => seek(cue.audio_ms)}>
                  {formatClock(cue.audio_ms)}
                </button>{' '}
                <FormattedMessage id="review.facts.cue" values={{ seconds: cue.silence_ms / 1000 }} />
              </li>
            ))}
          </ul>
        </div>
      )}
      <div>
        <h3>
          <FormattedMessage id="review.facts.pauses" />
        </h3>
        {pauses.length === 0 ? (
          <p className="muted">{ready ? intl.formatMessage({ id: 'review.facts.noPause' }) : '…'}</p>
        ) : (
          <ul>
            {pauses.map((p, n) => (
              <li key={n}>
                <button className="link time" onClick={() => seek(p.start_ms)}>
                  {formatClock(p.start_ms)}
                </button>{' '}
                <FormattedMessage
                  id="review.facts.pause"
                  values={{ seconds: (p.end_ms - p.start_ms) / 1000, long: p.long ? 'yes' : 'no' }}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
