import { FormattedMessage, useIntl } from 'react-intl';
import type { ItemSessionState } from '../../../core/common/session/itemState';
import { transcriptPieces, type TranscriptPiece } from '../../../core/common/transcript/transcriptMarks';
import { parserNoteText } from './i18n/parserNote';

/** A piece with its offset in the transcript, the key React keeps it by (so an older piece is never re-inserted). */
type PlacedPiece = TranscriptPiece & { start: number };

/**
 * The pieces with their offsets, plain text split where a segment (one final utterance) begins: a new final is then new
 * elements in the log, announced once, and the text already there is left alone (never re-read).
 */
function placedPieces(pieces: readonly TranscriptPiece[], segmentTexts: readonly string[]): PlacedPiece[] {
  const starts = new Set<number>();
  let at = 0;
  for (const text of segmentTexts) {
    starts.add(at);
    at += text.length;
  }
  const placed: PlacedPiece[] = [];
  let start = 0;
  for (const piece of pieces) {
    const end = start + piece.text.length;
    if (piece.kind !== 'text') placed.push({ ...piece, start });
    else {
      const cuts = [start, ...[...starts].filter((s) => s > start && s < end).sort((a, b) => a - b), end];
      for (let i = 0; i + 1 < cuts.length; i++)
        placed.push({ kind: 'text', text: piece.text.slice(cuts[i]! - start, cuts[i + 1]! - start), start: cuts[i]! });
    }
    start = end;
  }
  return placed;
}

/** The verbatim transcript with commit phrases, negated mentions and fillers marked, and a key to the marks. */
export function TranscriptView({
  itemId,
  state,
  fillers,
  listening,
  partial,
  speculative = false,
}: {
  /** the item shown: another item is a new log (its transcript is not announced as if just said) */
  itemId: string | null;
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
  const segmentTexts = state?.segments.map((s) => s.text) ?? [];
  // offsets only hold when the transcript is its segments joined (it is, verbatim); otherwise no split
  const placed = placedPieces(pieces, segmentTexts.join('') === state?.transcript ? segmentTexts : []);
  const intl = useIntl();
  const filler = intl.formatMessage({ id: 'shared.transcript.filler' });
  const commitPhrase = intl.formatMessage({ id: 'shared.transcript.commitPhrase' });
  const stillWords = partial ? intl.formatMessage({ id: speculative ? 'shared.transcript.speculative' : 'shared.transcript.partial' }) : '';
  return (
    <>
      <div className="transcript">
        <h3>
          <FormattedMessage id="shared.transcript.heading" values={{ muted: (text) => <span className="muted">{text}</span> }} />
        </h3>
        {/* the log announces what is added, once: each final utterance (new elements); the changing partial is hidden from it */}
        <div
          key={itemId ?? ''}
          className="transcript-log"
          role="log"
          aria-live="polite"
          aria-relevant="additions"
          aria-label={intl.formatMessage({ id: 'shared.transcript.name' })}
        >
          {pieces.length === 0 && !partial ? (
            <p className="muted">{intl.formatMessage({ id: listening ? 'shared.transcript.listening' : 'shared.transcript.empty' })}</p>
          ) : (
            <p className="transcript-text">
              {placed.map((p) => {
                const key = `${p.kind}@${p.start}`;
                switch (p.kind) {
                  case 'text':
                    return <span key={key}>{p.text}</span>;
                  case 'commit':
                    return (
                      <mark
                        key={key}
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
                      <span key={key} className="negation" title={parserNoteText(p, intl)}>
                        {p.text}
                      </span>
                    );
                  case 'mention':
                    return (
                      <span key={key} className="mention" title={parserNoteText(p, intl)}>
                        {p.text}
                      </span>
                    );
                  case 'filler':
                    return (
                      <span key={key} className="filler" title={filler}>
                        {p.text}
                      </span>
                    );
                }
              })}
              {/* seen, not spoken: a growing partial read out word by word is noise; the status below says its state */}
              {partial && !speculative && (
                <span className="partial" aria-hidden="true">
                  {pieces.length > 0 ? ' ' : ''}
                  {partial}
                </span>
              )}
              {partial && speculative && (
                <span className="speculative-final" aria-hidden="true">
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
        </div>
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
      {/* its own polite, atomic status: the partial's state (not its words) changes seldom, so it is said whole, once */}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-transcript-state>
        {stillWords}
      </div>
    </>
  );
}
