import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import type { RecorderControls } from './useRecorder';
import { LevelMeter } from './LevelMeter';
import type { PendingLabelChange } from './useLabelActs';

/** The item's place in the list and the buttons that move: Go to…, previous, next, and the shortcut list. */
export function ItemHead({
  index,
  count,
  itemId,
  onJump,
  onMove,
  onHelp,
}: {
  index: number;
  count: number;
  itemId: string;
  onJump: () => void;
  onMove: (delta: number) => void;
  onHelp: () => void;
}) {
  return (
    <div className="item-head">
      <span className="counter">
        Item {index + 1} of {count} · <code>{itemId}</code>
      </span>
      <div className="nav">
        <button onClick={onJump} title="Go to an item by id or text (Ctrl+G)">
          Go to…
        </button>
        <button onClick={() => onMove(-1)} disabled={index <= 0} title="Previous item (←)">
          ← Prev
        </button>
        <button onClick={() => onMove(1)} disabled={index >= count - 1} title="Next item (→)">
          Next →
        </button>
        <button onClick={onHelp} aria-label="keyboard shortcuts" title="Keyboard shortcuts (?)">
          ?
        </button>
      </div>
    </div>
  );
}

/** The record button, the input meter, the clock, and what is said about recording (off in review, keep talking). */
export function RecordRow({
  recorder,
  audioMs,
  reviewing,
  annotator,
  recordingOffShown,
  cue,
  onToggle,
}: {
  recorder: RecorderControls;
  /** audio already recorded for the item (0: none; undefined: its state is not known yet) */
  audioMs: number | undefined;
  reviewing: boolean;
  annotator: string;
  recordingOffShown: boolean;
  cue: boolean;
  onToggle: () => void;
}) {
  const recorded = audioMs !== undefined && audioMs > 0;
  return (
    <div className="record-row" id="controls" tabIndex={-1}>
      <button
        className={recorder.recording ? 'record on' : 'record'}
        onClick={onToggle}
        disabled={reviewing || recorder.starting || recorder.stopping}
        aria-pressed={recorder.recording}
        aria-describedby={reviewing ? 'recording-off' : undefined}
        title={reviewing ? `Recording is off in review: your voice would become ${annotator}’s` : 'Record / stop (Space)'}
      >
        <span className="record-dot" aria-hidden="true" />
        {recorder.recording ? 'Stop' : recorder.starting ? 'Starting…' : recorded ? 'Record more' : 'Record'}
      </button>
      <LevelMeter label="input level" db={recorder.level} filled={recorder.recording} />
      <span className="clock">
        {recorder.recording
          ? `${(recorder.elapsedMs / 1000).toFixed(1)} s`
          : recorder.stopping
            ? 'saving…'
            : recorded
              ? `${((audioMs ?? 0) / 1000).toFixed(1)} s recorded`
              : ''}
      </span>
      {reviewing && (
        <span id="recording-off" className={recordingOffShown ? 'recording-off said' : 'recording-off muted'} role="status">
          Recording is off in review: what you say would become {annotator}’s audio and labels. Label by key or click, or correct the
          transcript.
        </span>
      )}
      {cue && (
        <span className="keep-talking" role="status">
          Please keep talking
        </span>
      )}
    </div>
  );
}

/** A button per label of the project (with its key), and Complete. */
export function LabelButtons({
  labels,
  finalLabel,
  onLabel,
  onComplete,
}: {
  labels: readonly LabelDef[];
  finalLabel: string | null | undefined;
  onLabel: (label: string) => void;
  onComplete: () => void;
}) {
  return (
    <div className="labels" role="group" aria-label="labels">
      {labels.map((l) => (
        <button
          key={l.name}
          className={finalLabel === l.name ? 'label-btn chosen' : 'label-btn'}
          onClick={() => onLabel(l.name)}
          aria-pressed={finalLabel === l.name}
        >
          {l.key && <kbd>{l.key}</kbd>} {l.name}
        </button>
      ))}
      <button className="complete" onClick={onComplete} title="Complete and go to the next item (Enter)">
        Complete ⏎
      </button>
    </div>
  );
}

/** The yes asked before a completed item's label changes: Enter (or the label's key again) says yes, Esc keeps it. */
export function LabelChangeConfirm({
  change,
  changeKey,
  onConfirm,
  onKeep,
}: {
  change: PendingLabelChange;
  changeKey: string | undefined;
  onConfirm: () => void;
  onKeep: () => void;
}) {
  return (
    <div className="confirm-change" role="alertdialog" aria-label="change a completed item's label">
      <span>
        This item is completed with <strong>{change.from}</strong>. Change its label to <strong>{change.label}</strong>? It will be recorded
        as a change after completion.
      </span>
      <button className="primary" onClick={onConfirm}>
        Change to {change.label} <kbd>⏎</kbd>
        {changeKey && (
          <>
            {' '}
            or <kbd>{changeKey}</kbd>
          </>
        )}
      </button>
      <button onClick={onKeep}>
        Keep {change.from} <kbd>Esc</kbd>
      </button>
    </div>
  );
}
