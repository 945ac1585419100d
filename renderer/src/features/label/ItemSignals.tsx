import type { ThinkAloudConfig } from '../../../../core/common/project/projectConfig';
import type { ItemSessionState } from '../../../../core/common/session/itemState';

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The item's hesitation signals: pauses, silent chunks, first speech, fillers, hesitation words and label changes. */
export function ItemSignals({ signals, thinkaloud }: { signals: NonNullable<ItemSessionState['signals']>; thinkaloud: ThinkAloudConfig }) {
  return (
    <dl className="signals" aria-label="hesitation signals">
      {signals.pauses && (
        <>
          <dt>Pauses</dt>
          <dd>
            {signals.pauses.count} ({(signals.pauses.total_ms / 1000).toFixed(1)} s, longest {(signals.pauses.longest_ms / 1000).toFixed(1)}{' '}
            s)
          </dd>
        </>
      )}
      {signals.silent_chunks !== undefined && signals.total_chunks !== undefined && (
        <>
          <dt>Silent chunks</dt>
          <dd>
            {signals.silent_chunks} of {signals.total_chunks} ({thinkaloud.chunk_seconds} s each, at or below{' '}
            {thinkaloud.silence_threshold_dbfs} dBFS)
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
      {signals.filled_pause_count !== undefined && (
        <>
          <dt>Hesitation</dt>
          <dd>
            {plural(signals.filled_pause_count, 'filled pause')}, {plural(signals.hedge_count ?? 0, 'hedge')},{' '}
            {plural(signals.repetition_count ?? 0, 'repetition')}, {plural(signals.editing_term_count ?? 0, 'editing term')}
            {signals.hesitation_language && ` (${signals.hesitation_language})`}
          </dd>
        </>
      )}
      {signals.label_changes !== undefined && (
        <>
          <dt>Label changes</dt>
          <dd>{signals.label_changes}</dd>
        </>
      )}
    </dl>
  );
}
