import { FormattedMessage, useIntl } from 'react-intl';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import type { RecorderControls } from './useRecorder';
import { LevelMeter } from './LevelMeter';
import { keyName } from '../../shared/Dialogs';

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
  const intl = useIntl();
  return (
    <div className="item-head">
      <span className="counter">
        <FormattedMessage id="label.head.counter" values={{ n: index + 1, count, id: <code>{itemId}</code> }} />
      </span>
      <div className="nav">
        <button onClick={onJump} title={intl.formatMessage({ id: 'label.head.jump.title' }, { keys: keyName(intl, 'Ctrl+G') })}>
          <FormattedMessage id="label.head.jump" />
        </button>
        <button onClick={() => onMove(-1)} disabled={index <= 0} title={intl.formatMessage({ id: 'label.head.prev.title' })}>
          <FormattedMessage id="label.head.prev" />
        </button>
        <button onClick={() => onMove(1)} disabled={index >= count - 1} title={intl.formatMessage({ id: 'label.head.next.title' })}>
          <FormattedMessage id="label.head.next" />
        </button>
        <button
          onClick={onHelp}
          aria-label={intl.formatMessage({ id: 'label.head.help' })}
          title={intl.formatMessage({ id: 'label.head.help.title' })}
        >
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
  const intl = useIntl();
  const recorded = audioMs !== undefined && audioMs > 0;
  return (
    <div className="record-row" id="controls" tabIndex={-1}>
      <button
        className={recorder.recording ? 'record on' : 'record'}
        onClick={onToggle}
        disabled={reviewing || recorder.starting || recorder.stopping}
        aria-pressed={recorder.recording}
        aria-describedby={reviewing ? 'recording-off' : undefined}
        title={
          reviewing
            ? intl.formatMessage({ id: 'label.record.off.title' }, { annotator })
            : intl.formatMessage({ id: 'label.record.title' }, { key: keyName(intl, 'Space') })
        }
      >
        <span className="record-dot" aria-hidden="true" />
        {intl.formatMessage({
          id: recorder.recording
            ? 'label.record.stop'
            : recorder.starting
              ? 'label.record.starting'
              : recorded
                ? 'label.record.more'
                : 'label.record.start',
        })}
      </button>
      <LevelMeter label={intl.formatMessage({ id: 'label.record.level' })} db={recorder.level} filled={recorder.recording} />
      <span className="clock">
        {recorder.recording
          ? intl.formatMessage({ id: 'label.record.clock' }, { seconds: recorder.elapsedMs / 1000 })
          : recorder.stopping
            ? intl.formatMessage({ id: 'label.record.saving' })
            : recorded
              ? intl.formatMessage({ id: 'label.record.recorded' }, { seconds: (audioMs ?? 0) / 1000 })
              : ''}
      </span>
      {reviewing && (
        <span id="recording-off" className={recordingOffShown ? 'recording-off said' : 'recording-off muted'} role="status">
          <FormattedMessage id="label.record.off" values={{ annotator }} />
        </span>
      )}
      {cue && (
        <span className="keep-talking" role="status">
          <FormattedMessage id="label.keepTalking" />
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
  const intl = useIntl();
  return (
    <div className="labels" role="group" aria-label={intl.formatMessage({ id: 'label.buttons' })}>
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
      <button className="complete" onClick={onComplete} title={intl.formatMessage({ id: 'label.complete.title' })}>
        <FormattedMessage id="label.complete" />
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
  const intl = useIntl();
  const kbd = (text: React.ReactNode) => <kbd>{text}</kbd>;
  return (
    <div className="confirm-change" role="alertdialog" aria-label={intl.formatMessage({ id: 'label.change.name' })}>
      <span>
        <FormattedMessage
          id="label.change.question"
          values={{ from: change.from, label: change.label, b: (text: React.ReactNode) => <strong>{text}</strong> }}
        />
      </span>
      <button className="primary" onClick={onConfirm}>
        {changeKey ? (
          <FormattedMessage id="label.change.confirmOrKey" values={{ label: change.label, key: changeKey, kbd }} />
        ) : (
          <FormattedMessage id="label.change.confirm" values={{ label: change.label, kbd }} />
        )}
      </button>
      <button onClick={onKeep}>
        <FormattedMessage id="label.change.keep" values={{ label: change.from, kbd }} />
      </button>
    </div>
  );
}
