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
  return (
    // a log: what is added (final text, the partial as it grows) is read out politely
    <div className="transcript" role="log" aria-label="transcript">
      <h3>
        Transcript <span className="muted">(verbatim)</span>
      </h3>
      {pieces.length === 0 && !partial ? (
        <p className="muted">{listening ? 'Listening…' : 'Nothing transcribed yet.'}</p>
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
                    title={p.final ? `gives the label ${p.label}` : `committed ${p.label} (not the final label)`}
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
                  <span key={n} className="filler" title="filler">
                    {p.text}
                  </span>
                );
            }
          })}
          {partial && !speculative && (
            <span className="partial" aria-label="still being transcribed">
              {pieces.length > 0 ? ' ' : ''}
              {partial}
            </span>
          )}
          {partial && speculative && (
            <span className="speculative-final" aria-label="final text, still listening">
              {pieces.length > 0 ? ' ' : ''}
              {partial}
              <span className="still-listening" title="still listening: this becomes the transcript when the pause holds">
                {' '}
                ···
              </span>
            </span>
          )}
        </p>
      )}
      {(kinds.has('commit') || kinds.has('negation') || kinds.has('filler') || kinds.has('mention')) && (
        <p className="mark-key" aria-label="marks">
          {kinds.has('commit') && (
            <span>
              <mark className="commit final">commit phrase</mark> gives the label
            </span>
          )}
          {kinds.has('commit') && (
            <span>
              <mark className="commit">commit phrase</mark> earlier or overridden
            </span>
          )}
          {kinds.has('negation') && (
            <span>
              <span className="negation">negated</span> commits nothing
            </span>
          )}
          {kinds.has('mention') && (
            <span>
              <span className="mention">mention</span> commits nothing
            </span>
          )}
          {kinds.has('filler') && <span className="filler">filler</span>}
        </p>
      )}
    </div>
  );
}
