import { useEffect, useState } from 'react';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { formatClock } from '../../../../core/common/transcript/transcriptMarks';
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
  // the label the button would set, asked of the host (the same rule it applies when pressed)
  const [fromCorrections, setFromCorrections] = useState<{ label: string; quote: string } | null>(null);
  const corrected = state.transcript_corrected;
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
          No transcript for this recording{state.stale_results > 0 ? ` (${state.stale_results} result(s) arrived too late)` : ''}.
        </p>
      ) : (
        <ol className="segments" aria-label="segments">
          {state.segments.map((seg, n) => {
            const correction = correctionOf(n);
            const ref = state.segment_refs[n];
            return (
              <li key={n} className={n === active ? 'segment playing' : 'segment'} aria-current={n === active ? 'true' : undefined}>
                <button className="link time" onClick={() => seek(seg.t0_ms)} title="play from here">
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
                      aria-label={`corrected text of segment ${n + 1}`}
                      value={editing.text}
                      onChange={(e) => onEditing({ n, text: e.target.value })}
                      autoFocus
                    />
                    <button type="submit" className="primary">
                      Save correction
                    </button>
                    <button type="button" onClick={() => onEditing(null)}>
                      Cancel
                    </button>
                  </form>
                ) : (
                  <span className="seg-text">
                    {correction ? (
                      <>
                        <span className="corrected" aria-label={`corrected text of segment ${n + 1}`}>
                          {correction.text}
                        </span>
                        <span className="verbatim muted" aria-label={`verbatim text of segment ${n + 1}`}>
                          verbatim: {seg.text}
                        </span>
                      </>
                    ) : seg.tokens && seg.tokens.length > 0 ? (
                      seg.tokens.map((tok, k) => (
                        <button key={k} className="word" onClick={() => seek(tok.t0_ms)} title={`play from ${formatClock(tok.t0_ms)}`}>
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
                    aria-label={`correct segment ${n + 1}`}
                  >
                    Correct
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {state.transcript_corrected !== null && (
        <p className="row">
          {fromCorrections && labelSetFromCorrections(state, fromCorrections.label) ? (
            <span className="muted small">
              The label {fromCorrections.label} was set from the corrected text (a label of source “correction”; the earlier labels stay in
              the history).
            </span>
          ) : fromCorrections ? (
            <>
              <button onClick={() => void act(() => client.rederiveLabelsFromCorrections(state.item_id))}>
                Set the label {fromCorrections.label} from the corrected text
              </button>
              <span className="muted small">
                The corrected text commits to {fromCorrections.label} (“{fromCorrections.quote}”). This adds a label of source “correction”
                {state.final_label === fromCorrections.label
                  ? ` (the label is ${fromCorrections.label} already)`
                  : state.final_label
                    ? ` in place of ${state.final_label}`
                    : ''}
                ; the earlier labels stay in the history.
              </span>
            </>
          ) : (
            <span className="muted small">The corrected text commits to no label, so no label can be set from it.</span>
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
