import { FormattedMessage, useIntl } from 'react-intl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { SessionView } from '../../../../core/common/session/sessionApi';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { useApi } from '../../shared/api';
import { ShortcutHelp } from '../../shared/Dialogs';
import { ItemList } from '../../shared/ItemList';
import type { RunCall } from '../../shared/runCall';
import { TranscriptView } from '../../shared/TranscriptView';
import { useItemState } from '../../shared/useItemState';
import { ModelReasoningPanel } from '../reasoning/ModelReasoningPanel';
import { ShadowRoomPanel } from '../rooms/ShadowRoomPanel';
import { ItemNotes } from './ItemNotes';
import { ItemSignals } from './ItemSignals';
import { ItemTextSelection } from './ItemTextSelection';
import { ItemVerdict } from './ItemVerdict';
import { JumpDialog } from './JumpDialog';
import { ItemHead, LabelButtons, LabelChangeConfirm, RecordRow } from './LabelControls';
import { shortcutList } from './labelKeys';
import { useAssignedItems } from './useAssignedItems';
import { exampleLabel, examplePhrase } from './labelKeys';
import { type CompletionRefusal, useCompleteItem } from './useCompleteItem';
import { useHostNotices } from './useHostNotices';
import { useItemNavigation } from './useItemNavigation';
import { useLabelActs } from './useLabelActs';
import { useLabelKeys } from './useLabelKeys';
import { GuidelinesPanel, useGuidelinesShortcut } from '../guidelines/GuidelinesPanel';
import { useLabelRecorder } from './useLabelRecorder';

interface Props {
  project: ProjectView;
  session: SessionView;
  onSession: (update: SessionUpdate) => void;
  onError: (message: string | null) => void;
  run: RunCall;
  /** microphone chosen in Settings (null: the system default) */
  deviceId?: string | null;
  /** seconds of silence before the keep-talking cue; null: off */
  keepTalkingSeconds?: number | null;
}

/** The Label screen: the item list, the open item with its recorder, labels, transcript and signals, and its keys. */
export function LabelScreen({ project, session, onSession, onError, run, deviceId = null, keepTalkingSeconds = null }: Props) {
  const client = useApi();
  const intl = useIntl();
  const [overlay, setOverlay] = useState<'jump' | 'help' | null>(null);
  const completingRef = useRef(false);

  const states = useMemo(() => new Map(session.items.map((i) => [i.item_id, i])), [session.items]);
  const { assigned, items } = useAssignedItems(project.items, session.annotator);
  const currentId = session.current_item ?? items[0]?.id ?? null;
  const index = items.findIndex((i) => i.id === currentId);
  const item = index >= 0 ? items[index]! : null;
  const state: ItemSessionState | undefined = useItemState(session, currentId, currentId !== null && states.has(currentId));
  const indexRef = useRef(index);
  indexRef.current = index;
  /** the view as last rendered: an act's patch applies to it (a callback made before then holds an older one) */
  const sessionRef = useRef(session);
  sessionRef.current = session;

  const { pendingChange, setPendingChange, confirmChange, commit } = useLabelActs(currentId, state?.final_label, onSession, onError, run);
  const dropPendingChange = useCallback(() => setPendingChange(null), [setPendingChange]);
  /** in review the voice would be the annotator's (her audio, transcript, labels): recording is off, and Space says so */
  const reviewing = session.reviewer !== null;
  const { recorder, cue, recordingOffShown, toggleRecording } = useLabelRecorder({
    project,
    deviceId,
    keepTalkingSeconds,
    reviewing,
    completingRef,
    onToggle: dropPendingChange,
    onSession,
    onError,
    run,
  });
  const { queue, navigating, go, move } = useItemNavigation(items, indexRef, recorder, onSession, onError);
  /** once per session: when items are assigned to her, the first she has not completed opens (she finds them first) */
  const openedAssigned = useRef(false);
  useEffect(() => {
    if (openedAssigned.current || assigned.size === 0) return;
    openedAssigned.current = true;
    const first = items.findIndex((i) => assigned.has(i.id) && !states.get(i.id)?.completed_at);
    if (first >= 0 && first !== indexRef.current) void go(first);
  }, [assigned, go, items, states]);
  const { completing, refusal, allDone, complete } = useCompleteItem({
    project,
    items,
    currentId,
    finalLabel: state?.final_label,
    indexRef,
    sessionRef,
    completingRef,
    recorder,
    queue,
    go,
    onStart: dropPendingChange,
    onSession,
    onError,
  });
  useLabelKeys({
    labels: project.schema.labels,
    overlayOpen: overlay !== null,
    pendingChange: pendingChange !== null,
    dropPendingChange,
    confirmChange,
    open: setOverlay,
    commit,
    toggleRecording,
    complete,
    move,
  });
  const { partial, engineNotice } = useHostNotices();
  const guidelinesShortcut = useGuidelinesShortcut(project.schema.labels);

  if (!item)
    return (
      <p className="empty">
        <FormattedMessage id="label.noItems" />
      </p>
    );
  const signals = state?.signals;
  const transcribing = currentId !== null && (session.pending_items?.[currentId] ?? 0) > 0;
  const refusalHolds = (r: CompletionRefusal): boolean =>
    r.itemId === currentId &&
    !state?.completed_at &&
    (r.code === 'spoken_label_required' ? (state?.commitments.length ?? 0) === 0 : transcribing);
  const itemRefusal = refusal && refusalHolds(refusal) ? refusal.message : null;
  const change = pendingChange && pendingChange.itemId === currentId ? pendingChange : null;
  const changeKey = change ? project.schema.labels.find((l) => l.name === change.label)?.key : undefined;

  return (
    <div className="label-screen">
      <ItemList items={items} states={states} currentId={currentId} onOpen={(n) => void go(n)} />
      <section className="item-pane" aria-label={intl.formatMessage({ id: 'label.item.name' })} aria-busy={navigating > 0 || completing}>
        <ItemHead
          index={index}
          count={items.length}
          itemId={item.id}
          onJump={() => setOverlay('jump')}
          onMove={(delta) => void move(delta)}
          onHelp={() => setOverlay('help')}
        />
        {item.context && (
          <blockquote className="context" aria-label={intl.formatMessage({ id: 'label.context.name' })}>
            <span className="who">
              <FormattedMessage id="label.context.user" />
            </span>
            {item.context}
          </blockquote>
        )}
        <ItemTextSelection
          text={item.text}
          lead={
            item.context && (
              <span className="who">
                <FormattedMessage id="label.context.reply" />
              </span>
            )
          }
          selection={state?.selection}
          onSelect={(span) =>
            void run(() => client.selectText(span?.start ?? null, span?.end ?? null)).then((view) => view && onSession(view))
          }
        />
        <ShadowRoomPanel />

        <RecordRow
          recorder={recorder}
          audioMs={state?.audio_ms}
          reviewing={reviewing}
          annotator={session.annotator}
          recordingOffShown={recordingOffShown}
          cue={cue}
          onToggle={toggleRecording}
        />
        <LabelButtons
          labels={project.schema.labels}
          finalLabel={state?.final_label}
          onLabel={(label) => void commit(label, 'click')}
          onComplete={() => void complete()}
        />
        <p className="rule" id="spoken-rule">
          <FormattedMessage
            id={project.thinkaloud.require_spoken_label ? 'label.rule.spoken' : 'label.rule.any'}
            values={{ phrase: examplePhrase(project.thinkaloud.languages, exampleLabel(project.schema.labels)) }}
          />
        </p>
        {completing && session.finishing_item !== currentId && (
          <div className="finishing" role="status">
            {intl.formatMessage({ id: recorder.stopping ? 'label.completing.saving' : 'label.completing' })}
          </div>
        )}
        {engineNotice && (
          <p className="engine-notice" role="status">
            {intl.formatMessage({ id: engineNotice.id }, engineNotice.values)}
          </p>
        )}
        {session.finishing_item === currentId && (
          <div className="finishing" role="status">
            <FormattedMessage id="label.completing.transcript" />
          </div>
        )}
        {change && (
          <LabelChangeConfirm change={change} changeKey={changeKey} onConfirm={() => void confirmChange()} onKeep={dropPendingChange} />
        )}
        {itemRefusal && (
          <div className="refusal" role="alert">
            {intl.formatMessage({ id: itemRefusal.id }, itemRefusal.values)}
          </div>
        )}

        {allDone && (
          <div className="all-done" role="status">
            <FormattedMessage id="label.allDone" values={{ count: items.length }} />
          </div>
        )}
        <ItemVerdict
          state={state}
          annotator={session.annotator}
          languages={project.thinkaloud.languages}
          transcribing={transcribing}
          recording={recorder.recording}
          stopping={recorder.stopping}
        />

        <TranscriptView
          itemId={currentId}
          state={state}
          fillers={project.thinkaloud.fillers}
          listening={recorder.recording}
          partial={partial && partial.itemId === currentId ? partial.text : null}
          speculative={partial?.speculative ?? false}
        />
        {session.current_item && <ModelReasoningPanel itemId={session.current_item} state={state} onSession={onSession} run={run} />}

        {signals && <ItemSignals signals={signals} thinkaloud={project.thinkaloud} />}

        <ItemNotes notes={session.notes} itemId={currentId} run={run} onSession={onSession} />
      </section>
      {overlay === 'jump' && <JumpDialog items={items} onJump={(n) => void go(n)} onClose={() => setOverlay(null)} />}
      <GuidelinesPanel
        names={project.schema.labels}
        kind="labels"
        projectLanguage={project.thinkaloud.languages[0] ?? 'en'}
        emphasis={state?.final_label ? [state.final_label] : []}
      />
      {overlay === 'help' && (
        <ShortcutHelp shortcuts={[...shortcutList(project.schema.labels), guidelinesShortcut]} onClose={() => setOverlay(null)} />
      )}
    </div>
  );
}
