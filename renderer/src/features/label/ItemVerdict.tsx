import type { ItemSessionState } from '../../../../core/common/session/itemState';

/** The item's label as the log has it (who gave it, what was said first, completed, changed after), or what is awaited. */
export function ItemVerdict({
  state,
  annotator,
  transcribing,
  recording,
  stopping,
}: {
  state: ItemSessionState | undefined;
  annotator: string;
  /** utterances of this item still being transcribed */
  transcribing: boolean;
  recording: boolean;
  stopping: boolean;
}) {
  // the act that set the final label: a reviewer's is marked as hers
  const finalAct = state?.label_history.at(-1);
  const finalReviewer = finalAct && finalAct.label === state?.final_label ? (finalAct.reviewer ?? null) : null;
  return (
    <div className="verdict" aria-live="polite">
      {state?.final_label ? (
        <>
          Label: <strong className="final-label">{state.final_label}</strong> <span className="source">by {state.label_source}</span>
          {finalReviewer && (
            <span
              className="reviewer-act"
              title={`${finalReviewer} gave this label while reviewing ${annotator}’s session; it is recorded as hers`}
            >
              {' '}
              · given by <strong>{finalReviewer}</strong> (reviewer)
            </span>
          )}
          {state.blind_label && state.blind_label !== state.final_label && <span className="blind"> · first said {state.blind_label}</span>}
          {state.completed_at && <span className="done-tag"> · completed</span>}
          {state.changed_after_completion && (
            <span
              className="after-completion"
              title="A label act after the item was completed chose another label (kept in the record as a change after completion)"
            >
              {' '}
              · changed after completion
            </span>
          )}
          {transcribing && !recording && <span className="transcribing"> · transcribing what you said…</span>}
        </>
      ) : transcribing && !recording ? (
        <span className="transcribing">Transcribing what you said… a spoken label shows here as soon as its words are recognised.</span>
      ) : stopping ? (
        <span className="muted">Saving the recording…</span>
      ) : (
        <span className="muted">No label yet: say “I label this …” or press a label key.</span>
      )}
    </div>
  );
}
