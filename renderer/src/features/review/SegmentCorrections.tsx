import { useEffect, useRef, useState } from 'react';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { FormattedMessage, useIntl } from 'react-intl';
import { useFormatClock } from '../../shared/i18n/useDuration';
import type { RunCall } from '../../shared/runCall';
import { useApi } from '../../shared/api';

/** The segment being corrected and its text so far. */
export type SegmentEdit = { n: number; text: string } | null;

interface Props {
  state: ItemSessionState;
  /** the segment playing now (highlighted) */
  active: number;
  seek: (ms: number) => void;
  editing: SegmentEdit;
  onEditing: (edit: SegmentEdit) => void;
  run: RunCall;
  onSession?: ((update: SessionUpdate) => void) | undefined;
}

/**
 * The correction editor: the item's segments (click a time or a word to play from there), each correctable as a layer
 * over the verbatim text, which stays beside the correction; and a label from the corrected text.
 */
export function SegmentCorrections({ state, active, seek, editing, onEditing, run, onSession }: Props) {
  const client = useApi();
  const intl = useIntl();
  const formatClock = useFormatClock();
  // the label the button would set, asked of the host (the same rule it applies when pressed)
  const [fromCorrections, setFromCorrections] = useState<{ label: string; quote: string } | null>(null);
  const corrected = state.transcript_corrected;
  const segmentsRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    let live = true;
    setFromCorrections(null);
    if (corrected === null) return;
    void client.labelFromCorrections(state.item_id).then(
      (found) => live && setFromCorrections(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, corrected, state.item_id]);
  const act = async (task: () => Promise<SessionUpdate>): Promise<boolean> => {
    const view = await run(task);
    if (view) onSession?.(view);
    return view !== undefined;
  };
  const correctionOf = (n: number) => {
    const ref = state.segment_refs[n];
    return ref ? state.corrections.filter((c) => c.utterance === ref.utterance && c.segment === ref.segment).at(-1) : undefined;
  };
  return (
    <>
      {state.segments.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="review.segments.none" values={{ late: state.stale_results }} />
        </p>
      ) : (
        <ol className="segments" ref={segmentsRef} tabIndex={-1} aria-label={intl.formatMessage({ id: 'review.segments.name' })}>
          {state.segments.map((seg, n) => {
            const correction = correctionOf(n);
            const ref = state.segment_refs[n];
            return (
              <li key={n} className={n === active ? 'segment playing' : 'segment'} aria-current={n === active ? 'true' : undefined}>
                <button
                  className="link time"
                  onClick={() => seek(seg.t0_ms)}
                  title={intl.formatMessage({ id: 'review.segments.playHere' })}
                >
                  {formatClock(seg.t0_ms)}
                </button>
                {editing?.n === n ? (
                  <form
                    className="correct-form"
                    onSubmit={(e) => {
                      e.preventDefault();
                      if (!ref) return;
                      void act(() => client.correctSegment(state.item_id, ref.utterance, ref.segment, editing.text)).then(
                        (ok) => ok && onEditing(null),
                      );
                    }}
                  >
                    <input
                      aria-label={intl.formatMessage({ id: 'review.segments.corrected' }, { n: n + 1 })}
                      value={editing.text}
                      onChange={(e) => onEditing({ n, text: e.target.value })}
                      autoFocus
                    />
                    <button type="submit" className="primary">
                      <FormattedMessage id="review.segments.save" />
                    </button>
                    <button type="button" onClick={() => onEditing(null)}>
                      <FormattedMessage id="common.cancel" />
                    </button>
                  </form>
                ) : (
                  <span className="seg-text">
                    {correction ? (
                      <>
                        {/* said before the correction (a name on a plain span is not read); the verbatim line names itself */}
                        <span className="visually-hidden">{intl.formatMessage({ id: 'review.segments.corrected' }, { n: n + 1 })}</span>
                        <span className="corrected">{correction.text}</span>
                        <span className="verbatim muted">
                          <FormattedMessage id="review.segments.verbatim" values={{ text: seg.text }} />
                        </span>
                      </>
                    ) : seg.tokens && seg.tokens.length > 0 ? (
                      seg.tokens.map((tok, k) => (
                        <button
                          key={k}
                          className="word"
                          onClick={() => seek(tok.t0_ms)}
                          title={intl.formatMessage({ id: 'review.segments.playFrom' }, { clock: formatClock(tok.t0_ms) })}
                        >
                          {tok.text}
                        </button>
                      ))
                    ) : (
                      seg.text
                    )}
                  </span>
                )}
                {ref && editing?.n !== n && (
                  <button
                    className="link edit"
                    onClick={() => onEditing({ n, text: correction?.text ?? seg.text.trim() })}
                    aria-label={intl.formatMessage({ id: 'review.segments.correct.name' }, { n: n + 1 })}
                  >
                    <FormattedMessage id="review.segments.correct" />
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {state.transcript_corrected !== null && (
        // polite: the label set from the corrections replaces the button, and is said
        <p className="row" aria-live="polite">
          {fromCorrections && labelSetFromCorrections(state, fromCorrections.label) ? (
            <span className="muted small">
              <FormattedMessage id="review.fromCorrections.set" values={{ label: fromCorrections.label }} />
            </span>
          ) : fromCorrections ? (
            <>
              <button
                onClick={() =>
                  // the button goes once the label is set: the keyboard goes on from the segments, not from the page's top
                  void act(() => client.rederiveLabelsFromCorrections(state.item_id)).then((done) => done && segmentsRef.current?.focus())
                }
              >
                <FormattedMessage id="review.fromCorrections.button" values={{ label: fromCorrections.label }} />
              </button>
              <span className="muted small">
                <FormattedMessage
                  id="review.fromCorrections.explain"
                  values={{
                    label: fromCorrections.label,
                    quote: fromCorrections.quote,
                    current: state.final_label ?? '',
                    relation: state.final_label === fromCorrections.label ? 'same' : state.final_label ? 'replaces' : 'none',
                  }}
                />
              </span>
            </>
          ) : (
            <span className="muted small">
              <FormattedMessage id="review.fromCorrections.none" />
            </span>
          )}
        </p>
      )}
    </>
  );
}

/** The label was set from the corrected text as it is now: the last act is that label from a correction made after every correction. */
export function labelSetFromCorrections(state: Pick<ItemSessionState, 'label_history' | 'corrections'>, label: string): boolean {
  const last = state.label_history.at(-1);
  if (!last || last.source !== 'correction' || last.label !== label) return false;
  return state.corrections.every((c) => c.at <= last.at);
}
