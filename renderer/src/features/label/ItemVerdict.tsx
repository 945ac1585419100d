import { FormattedMessage, useIntl } from 'react-intl';
import { examplePhrase } from './labelKeys';
import type { ItemSessionState } from '../../../../core/common/session/itemState';

/** The item's label as the log has it (who gave it, what was said first, completed, changed after), or what is awaited. */
export function ItemVerdict({
  state,
  annotator,
  languages,
  transcribing,
  recording,
  stopping,
}: {
  state: ItemSessionState | undefined;
  annotator: string;
  /** the languages the project's commit phrases are in (the example said) */
  languages: readonly string[];
  /** utterances of this item still being transcribed */
  transcribing: boolean;
  recording: boolean;
  stopping: boolean;
}) {
  // the act that set the final label: a reviewer's is marked as hers
  const intl = useIntl();
  const b = (text: React.ReactNode) => <strong>{text}</strong>;
  const finalAct = state?.label_history.at(-1);
  const finalReviewer = finalAct && finalAct.label === state?.final_label ? (finalAct.reviewer ?? null) : null;
  return (
    <div className="verdict" aria-live="polite">
      {state?.final_label ? (
        <>
          <FormattedMessage id="label.verdict.label" values={{ label: <strong className="final-label">{state.final_label}</strong> }} />{' '}
          <span className="source">
            <FormattedMessage id="label.verdict.source" values={{ source: state.label_source ?? 'other' }} />
          </span>
          {finalReviewer && (
            <span
              className="reviewer-act"
              title={intl.formatMessage({ id: 'label.verdict.reviewer.title' }, { reviewer: finalReviewer, annotator })}
            >
              {' '}
              <FormattedMessage id="label.verdict.reviewer" values={{ reviewer: finalReviewer, b }} />
            </span>
          )}
          {state.blind_label && state.blind_label !== state.final_label && (
            <span className="blind">
              {' '}
              <FormattedMessage id="label.verdict.blind" values={{ label: state.blind_label }} />
            </span>
          )}
          {state.completed_at && (
            <span className="done-tag">
              {' '}
              <FormattedMessage id="label.verdict.completed" />
            </span>
          )}
          {state.changed_after_completion && (
            <span className="after-completion" title={intl.formatMessage({ id: 'label.verdict.changed.title' })}>
              {' '}
              <FormattedMessage id="label.verdict.changed" />
            </span>
          )}
          {transcribing && !recording && (
            <span className="transcribing">
              {' '}
              <FormattedMessage id="label.verdict.transcribingToo" />
            </span>
          )}
        </>
      ) : transcribing && !recording ? (
        <span className="transcribing">
          <FormattedMessage id="label.verdict.transcribing" />
        </span>
      ) : stopping ? (
        <span className="muted">
          <FormattedMessage id="label.verdict.saving" />
        </span>
      ) : (
        <span className="muted">
          <FormattedMessage id="label.verdict.none" values={{ phrase: examplePhrase(languages, '…') }} />
        </span>
      )}
    </div>
  );
}
