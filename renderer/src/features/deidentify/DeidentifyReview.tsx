import { useEffect, useState } from 'react';
import type { DeidentifyReviewView, ReviewSegmentView, ReviewSpanView } from '../../../../core/common/deidentify/reviewView';
import type { ReviewDecisionKind } from '../../../../core/common/deidentify/reviewDecisions';
import type { SpanRef } from '../../../../core/common/deidentify/deidentifyRecord';
import { selectableWords, wordSelectionSpan, type WordSelection } from './deidentifySelection';
import type { RunCall } from '../../shared/runCall';
import { formatClock } from '../../../../core/common/transcript/transcriptMarks';
import { useApi } from '../../shared/api';

interface Props {
  itemId: string;
  /** changes when the item's transcript or corrections change, so the matches are asked for again */
  version: string;
  /** plays the recording from a time (ms) */
  seek: (ms: number) => void;
  run: RunCall;
}

const DECISION_WORDS: Record<ReviewDecisionKind, string> = {
  accept: 'hidden (accepted)',
  reject: 'kept (rejected)',
  add: 'hidden (added)',
};

/**
 * Review before sharing: every span a de-identified export would hide in this item, with its audio, to accept or
 * reject, and missed words to add by selecting them. Each decision is an event in the annotator's review log.
 */
export function DeidentifyReview({ itemId, version, seek, run }: Props) {
  const client = useApi();
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
    <section className="deidentify-review" aria-label="de-identification review">
      <h3>
        De-identification{' '}
        <span className="muted">
          (deidentify.yaml version {view.list.version}, {view.list.terms} terms)
        </span>
      </h3>
      {view.spans.length === 0 ? (
        <p className="muted">Nothing in this item matches the list or the patterns.</p>
      ) : (
        <ul className="deidentify-spans" aria-label="spans to hide">
          {view.spans.map((s) => (
            <SpanRow key={`${s.span.utterance}/${s.span.segment}/${s.span.layer}/${s.span.start}`} span={s} seek={seek} decide={decide} />
          ))}
        </ul>
      )}
      <div className="deidentify-add" role="group" aria-label="add a missed span">
        <p className="muted">Missed something? Click its first word, shift-click its last, choose a class and hide it.</p>
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
          Class
          <select
            aria-label="class of the added span"
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
          Hide selected words
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
  const where = `${s.class} "${s.text}" at ${formatClock(s.t0_ms)}`;
  return (
    <li className={`deidentify-span decision-${s.decision ?? 'open'}`} data-decision={s.decision ?? 'open'}>
      <span className="class-badge">{s.class}</span> <strong className="span-text">{s.text}</strong>{' '}
      <span className="muted">
        {s.span.layer === 'corrected' ? 'corrected text, ' : ''}
        {s.origin === 'added' ? 'added by a reviewer' : s.origin === 'term' ? 'listed term' : `pattern ${s.origin}`}
      </span>{' '}
      <button className="link" onClick={() => seek(s.t0_ms)} aria-label={`play ${where}`}>
        ▶ {formatClock(s.t0_ms)}
      </button>{' '}
      <span className="decision">{s.decision ? DECISION_WORDS[s.decision] : 'hidden (not reviewed)'}</span>{' '}
      {s.origin !== 'added' && (
        <>
          <button onClick={() => void decide('accept', s.span, s.class)} disabled={s.decision === 'accept'} aria-label={`accept ${where}`}>
            Accept
          </button>
          <button onClick={() => void decide('reject', s.span, s.class)} disabled={s.decision === 'reject'} aria-label={`reject ${where}`}>
            Reject
          </button>
        </>
      )}
      {s.origin === 'added' && (
        <button onClick={() => void decide('reject', s.span, s.class)} aria-label={`remove ${where}`}>
          Remove
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
  const words = selectableWords(segment.text);
  const inSelection = (w: number): boolean =>
    selection !== null &&
    selection.segment === n &&
    w >= Math.min(selection.first, selection.last) &&
    w <= Math.max(selection.first, selection.last);
  return (
    <p
      className="deidentify-words"
      aria-label={`words of ${segment.layer === 'corrected' ? 'the correction of ' : ''}segment at ${formatClock(segment.t0_ms)}`}
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
