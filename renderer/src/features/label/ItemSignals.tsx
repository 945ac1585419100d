import { FormattedMessage, useIntl } from 'react-intl';
import type { ThinkAloudConfig } from '../../../../core/common/project/projectConfig';
import type { ItemSessionState } from '../../../../core/common/session/itemState';

/** The item's hesitation signals: pauses, silent chunks, first speech, fillers, hesitation words and label changes. */
export function ItemSignals({ signals, thinkaloud }: { signals: NonNullable<ItemSessionState['signals']>; thinkaloud: ThinkAloudConfig }) {
  const intl = useIntl();
  return (
    <dl className="signals" aria-label={intl.formatMessage({ id: 'label.signals.name' })}>
      {signals.pauses && (
        <>
          <dt>
            <FormattedMessage id="label.signals.pauses" />
          </dt>
          <dd>
            <FormattedMessage
              id="label.signals.pauses.value"
              values={{ count: signals.pauses.count, total: signals.pauses.total_ms / 1000, longest: signals.pauses.longest_ms / 1000 }}
            />
          </dd>
        </>
      )}
      {signals.silent_chunks !== undefined && signals.total_chunks !== undefined && (
        <>
          <dt>
            <FormattedMessage id="label.signals.silentChunks" />
          </dt>
          <dd>
            <FormattedMessage
              id="label.signals.silentChunks.value"
              values={{
                silent: signals.silent_chunks,
                total: signals.total_chunks,
                seconds: thinkaloud.chunk_seconds,
                dbfs: thinkaloud.silence_threshold_dbfs,
              }}
            />
          </dd>
        </>
      )}
      {signals.time_to_first_speech_ms !== undefined && signals.time_to_first_speech_ms !== null && (
        <>
          <dt>
            <FormattedMessage id="label.signals.firstSpeech" />
          </dt>
          <dd>
            <FormattedMessage id="label.signals.seconds" values={{ seconds: signals.time_to_first_speech_ms / 1000 }} />
          </dd>
        </>
      )}
      {signals.filler_count !== undefined && (
        <>
          <dt>
            <FormattedMessage id="label.signals.fillers" />
          </dt>
          <dd>{intl.formatNumber(signals.filler_count)}</dd>
        </>
      )}
      {signals.filled_pause_count !== undefined && (
        <>
          <dt>
            <FormattedMessage id="label.signals.hesitation" />
          </dt>
          <dd>
            <FormattedMessage
              id="label.signals.hesitation.value"
              values={{
                filled: signals.filled_pause_count,
                hedges: signals.hedge_count ?? 0,
                repetitions: signals.repetition_count ?? 0,
                editing: signals.editing_term_count ?? 0,
              }}
            />
            {signals.hesitation_language && ` (${signals.hesitation_language})`}
          </dd>
        </>
      )}
      {signals.label_changes !== undefined && (
        <>
          <dt>
            <FormattedMessage id="label.signals.labelChanges" />
          </dt>
          <dd>{intl.formatNumber(signals.label_changes)}</dd>
        </>
      )}
    </dl>
  );
}
