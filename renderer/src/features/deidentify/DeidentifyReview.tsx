import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DeidentifyReviewView, ReviewSegmentView, ReviewSpanView } from '../../../../core/common/deidentify/reviewView';
import type { ReviewDecisionKind } from '../../../../core/common/deidentify/reviewDecisions';
import type { SpanRef } from '../../../../core/common/deidentify/deidentifyRecord';
import { selectableWords, wordSelectionSpan, type WordSelection } from './deidentifySelection';
import type { RunCall } from '../../shared/runCall';
import { useApi } from '../../shared/api';
import { useFormatClock } from '../../shared/i18n/useDuration';

interface Props {
  itemId: string;
  /** changes when the item's transcript or corrections change, so the matches are asked for again */
  version: string;
  /** plays the recording from a time (ms) */
  seek: (ms: number) => void;
  run: RunCall;
}

/**
 * Review before sharing: every span a de-identified export would hide in this item, with its audio, to accept or
 * reject, and missed words to add by selecting them. Each decision is an event in the annotator's review log.
 */
export function DeidentifyReview({ itemId, version, seek, run }: Props) {
  const client = useApi();
  const intl = useIntl();
  const [view, setView] = useState<DeidentifyReviewView | null>(null);
  const [selection, setSelection] = useState<WordSelection | null>(null);
  const [cls, setCls] = useState('PERSON');

  useEffect(() => {
    let live = true;
    setSelection(null);
    void run(() => client.deidentifyReview(itemId)).then((v) => {
      if (live && v) setView(v);
    });
    return () => {
      live = false;
    };
  }, [client, itemId, version, run]);

  if (!view?.list) return null;
  const decide = async (decision: ReviewDecisionKind, span: SpanRef, spanClass: string): Promise<void> => {
    const next = await run(() => client.decideDeidentify(itemId, decision, span, spanClass));
    if (next) {
      setView(next);
      setSelection(null);
    }
  };
  const selected = selection ? wordSelectionSpan(view.segments, selection) : null;

  return (
    <section className="deidentify-review" aria-label={intl.formatMessage({ id: 'deidentify.review.label' })}>
      <h3>
        <FormattedMessage id="deidentify.review.title" />{' '}
        <span className="muted">
          <FormattedMessage id="deidentify.review.list" values={{ version: view.list.version, terms: view.list.terms }} />
        </span>
      </h3>
      {view.spans.length === 0 ? (
        <p className="muted">
          <FormattedMessage id="deidentify.review.nothing" />
        </p>
      ) : (
        <ul className="deidentify-spans" aria-label={intl.formatMessage({ id: 'deidentify.spans.label' })}>
          {view.spans.map((s) => (
            <SpanRow key={`${s.span.utterance}/${s.span.segment}/${s.span.layer}/${s.span.start}`} span={s} seek={seek} decide={decide} />
          ))}
        </ul>
      )}
      <div className="deidentify-add" role="group" aria-label={intl.formatMessage({ id: 'deidentify.add.label' })}>
        <p className="muted">
          <FormattedMessage id="deidentify.add.hint" />
        </p>
        {view.segments.map((segment, n) => (
          <SegmentWords
            key={`${segment.utterance}/${segment.segment}/${segment.layer}`}
            segment={segment}
            n={n}
            selection={selection}
            onSelect={setSelection}
          />
        ))}
        <label>
          <FormattedMessage id="deidentify.add.class" />
          <select
            aria-label={intl.formatMessage({ id: 'deidentify.add.classLabel' })}
            value={view.list.classes.includes(cls) ? cls : view.list.classes[0]}
            onChange={(e) => setCls(e.target.value)}
          >
            {view.list.classes.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <button
          disabled={!selected}
          onClick={() => selected && void decide('add', selected, view.list!.classes.includes(cls) ? cls : view.list!.classes[0]!)}
        >
          <FormattedMessage id="deidentify.add.hide" />
        </button>
      </div>
    </section>
  );
}

function SpanRow({
  span: s,
  seek,
  decide,
}: {
  span: ReviewSpanView;
  seek: (ms: number) => void;
  decide: (d: ReviewDecisionKind, span: SpanRef, cls: string) => Promise<void>;
}) {
  const intl = useIntl();
  const formatClock = useFormatClock();
  const where = intl.formatMessage({ id: 'deidentify.span.where' }, { spanClass: s.class, text: s.text, time: formatClock(s.t0_ms) });
  const origin = intl.formatMessage({ id: 'deidentify.span.origin' }, { origin: s.origin });
  return (
    <li className={`deidentify-span decision-${s.decision ?? 'open'}`} data-decision={s.decision ?? 'open'}>
      <span className="class-badge">{s.class}</span> <strong className="span-text">{s.text}</strong>{' '}
      <span className="muted">
        {s.span.layer === 'corrected' ? intl.formatMessage({ id: 'deidentify.span.corrected' }, { origin }) : origin}
      </span>{' '}
      <button className="link" onClick={() => seek(s.t0_ms)} aria-label={intl.formatMessage({ id: 'deidentify.span.play' }, { where })}>
        ▶ {formatClock(s.t0_ms)}
      </button>{' '}
      <span className="decision">{intl.formatMessage({ id: 'deidentify.decision' }, { decision: s.decision ?? 'open' })}</span>{' '}
      {s.origin !== 'added' && (
        <>
          <button
            onClick={() => void decide('accept', s.span, s.class)}
            disabled={s.decision === 'accept'}
            aria-label={intl.formatMessage({ id: 'deidentify.span.accept' }, { where })}
          >
            <FormattedMessage id="deidentify.span.acceptButton" />
          </button>
          <button
            onClick={() => void decide('reject', s.span, s.class)}
            disabled={s.decision === 'reject'}
            aria-label={intl.formatMessage({ id: 'deidentify.span.reject' }, { where })}
          >
            <FormattedMessage id="deidentify.span.rejectButton" />
          </button>
        </>
      )}
      {s.origin === 'added' && (
        <button
          onClick={() => void decide('reject', s.span, s.class)}
          aria-label={intl.formatMessage({ id: 'deidentify.span.remove' }, { where })}
        >
          <FormattedMessage id="deidentify.span.removeButton" />
        </button>
      )}
    </li>
  );
}

function SegmentWords({
  segment,
  n,
  selection,
  onSelect,
}: {
  segment: ReviewSegmentView;
  n: number;
  selection: WordSelection | null;
  onSelect: (s: WordSelection | null) => void;
}) {
  const intl = useIntl();
  const formatClock = useFormatClock();
  const words = selectableWords(segment.text);
  const inSelection = (w: number): boolean =>
    selection !== null &&
    selection.segment === n &&
    w >= Math.min(selection.first, selection.last) &&
    w <= Math.max(selection.first, selection.last);
  return (
    <p
      className="deidentify-words"
      aria-label={intl.formatMessage(
        { id: segment.layer === 'corrected' ? 'deidentify.words.correction' : 'deidentify.words.segment' },
        { time: formatClock(segment.t0_ms) },
      )}
    >
      {words.map((word, w) => (
        <button
          key={word.start}
          className={`word${inSelection(w) ? ' selected' : ''}`}
          aria-pressed={inSelection(w)}
          onClick={(e) => onSelect(e.shiftKey && selection?.segment === n ? { ...selection, last: w } : { segment: n, first: w, last: w })}
        >
          {word.text}
        </button>
      ))}
    </p>
  );
}
