import { FormattedMessage, useIntl } from 'react-intl';
import type { ItemSessionState } from '../../../core/common/session/itemState';
import { transcriptPieces } from '../../../core/common/transcript/transcriptMarks';

/** The verbatim transcript with commit phrases, negated mentions and fillers marked, and a key to the marks. */
export function TranscriptView({
  state,
  fillers,
  listening,
  partial,
  speculative = false,
}: {
  state: ItemSessionState | undefined;
  fillers: readonly string[];
  listening: boolean;
  partial?: string | null;
  /** the partial is the speculative final: the speech ended, shown as final text with a "still listening" mark until the cut */
  speculative?: boolean;
}) {
  const pieces = transcriptPieces(state?.transcript ?? '', state?.commitments ?? [], state?.parse_diagnostics ?? [], {
    fillers,
    finalIsVoice: state?.label_source === 'voice',
  });
  const kinds = new Set(pieces.map((p) => p.kind));
  const intl = useIntl();
  const filler = intl.formatMessage({ id: 'shared.transcript.filler' });
  const commitPhrase = intl.formatMessage({ id: 'shared.transcript.commitPhrase' });
  return (
    // a log: what is added (final text, the partial as it grows) is read out politely
    <div className="transcript" role="log" aria-label={intl.formatMessage({ id: 'shared.transcript.name' })}>
      <h3>
        <FormattedMessage id="shared.transcript.heading" values={{ muted: (text) => <span className="muted">{text}</span> }} />
      </h3>
      {pieces.length === 0 && !partial ? (
        <p className="muted">{intl.formatMessage({ id: listening ? 'shared.transcript.listening' : 'shared.transcript.empty' })}</p>
      ) : (
        <p className="transcript-text">
          {pieces.map((p, n) => {
            switch (p.kind) {
              case 'text':
                return <span key={n}>{p.text}</span>;
              case 'commit':
                return (
                  <mark
                    key={n}
                    className={p.final ? 'commit final' : 'commit'}
                    title={intl.formatMessage(
                      { id: p.final ? 'shared.transcript.commitFinal' : 'shared.transcript.commitEarlier' },
                      { label: p.label },
                    )}
                  >
                    {p.text}
                  </mark>
                );
              case 'negation':
                return (
                  <span key={n} className="negation" title={p.note}>
                    {p.text}
                  </span>
                );
              case 'mention':
                return (
                  <span key={n} className="mention" title={p.note}>
                    {p.text}
                  </span>
                );
              case 'filler':
                return (
                  <span key={n} className="filler" title={filler}>
                    {p.text}
                  </span>
                );
            }
          })}
          {partial && !speculative && (
            <span className="partial" aria-label={intl.formatMessage({ id: 'shared.transcript.partial' })}>
              {pieces.length > 0 ? ' ' : ''}
              {partial}
            </span>
          )}
          {partial && speculative && (
            <span className="speculative-final" aria-label={intl.formatMessage({ id: 'shared.transcript.speculative' })}>
              {pieces.length > 0 ? ' ' : ''}
              {partial}
              <span className="still-listening" title={intl.formatMessage({ id: 'shared.transcript.stillListening' })}>
                {' '}
                ···
              </span>
            </span>
          )}
        </p>
      )}
      {(kinds.has('commit') || kinds.has('negation') || kinds.has('filler') || kinds.has('mention')) && (
        <p className="mark-key" role="note" aria-label={intl.formatMessage({ id: 'shared.transcript.marks' })}>
          {kinds.has('commit') && (
            <span>
              <FormattedMessage
                id="shared.transcript.key.final"
                values={{ phrase: <mark className="commit final">{commitPhrase}</mark> }}
              />
            </span>
          )}
          {kinds.has('commit') && (
            <span>
              <FormattedMessage id="shared.transcript.key.earlier" values={{ phrase: <mark className="commit">{commitPhrase}</mark> }} />
            </span>
          )}
          {kinds.has('negation') && (
            <span>
              <FormattedMessage
                id="shared.transcript.key.negated"
                values={{ negated: (text) => <span className="negation">{text}</span> }}
              />
            </span>
          )}
          {kinds.has('mention') && (
            <span>
              <FormattedMessage
                id="shared.transcript.key.mention"
                values={{ mention: (text) => <span className="mention">{text}</span> }}
              />
            </span>
          )}
          {kinds.has('filler') && <span className="filler">{filler}</span>}
        </p>
      )}
    </div>
  );
}
