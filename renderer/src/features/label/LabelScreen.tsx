import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AloudEvent, ProjectView, SessionPatch, SessionView } from '../../../../core/common/contract/aloudApi';
import { applySessionPatch, type SessionUpdate } from '../../../../core/common/contract/sessionPatch';
import { Refusal } from '../../../../core/common/contract/refusal';
import { completionRuleText, spokenLabelRequiredText } from '../../../../core/common/session/labelRules';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { SilenceWatch } from './keepTalking';
import { NavigationQueue, nextOpenItem } from './navigation';
import { assignedItemsFirst } from '../../../../core/common/adjudication/adjudicationFold';
import { shortcutAction, shortcutList } from './labelKeys';
import { ShortcutHelp } from '../../shared/Dialogs';
import { JumpDialog } from './JumpDialog';
import { ItemList } from '../../shared/ItemList';
import { ItemTextSelection } from './ItemTextSelection';
import { ShadowRoomPanel } from '../rooms/ShadowRoomPanel';
import { ModelReasoningPanel } from '../reasoning/ModelReasoningPanel';
import { TranscriptView } from '../../shared/TranscriptView';
import { METER_FLOOR_DB, useRecorder } from './useRecorder';
import { useItemState } from '../../shared/useItemState';
import { useShortcuts } from '../../shared/useShortcuts';
import type { RunCall } from '../../shared/runCall';
import { useApi } from '../../shared/api';

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A refusal to complete and the reason it holds by: it is shown only while that reason is still true. */
interface CompletionRefusal {
  itemId: string;
  code: 'spoken_label_required' | 'transcription_pending';
  message: string;
}

/** A key or click that would change a completed item's label, shown for a yes before anything is logged. */
interface PendingLabelChange {
  itemId: string;
  label: string;
  source: 'click' | 'key';
  from: string;
}

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

/** The Label screen's line about the transcription engine: a crash, its restart, or transcription stopping for the session. */
export function engineNoticeText(event: Extract<AloudEvent, { type: 'engine' }>): string {
  switch (event.state) {
    case 'crashed':
      return 'The transcription engine stopped unexpectedly; it is restarting. Recording goes on and nothing recorded is lost.';
    case 'restarted':
      return 'Transcription restarted after the engine stopped unexpectedly. Nothing recorded was lost; waiting utterances are being transcribed now.';
    case 'stopped':
      return `Transcription stopped: ${event.message}. Your audio is kept: once the engine runs again, Settings offers to transcribe it.`;
  }
}

export function LabelScreen({ project, session, onSession, onError, run, deviceId = null, keepTalkingSeconds = null }: Props) {
  const client = useApi();
  const [allDone, setAllDone] = useState(false);
  const [note, setNote] = useState('');
  const [overlay, setOverlay] = useState<'jump' | 'help' | null>(null);
  /** a refusal to complete, kept with the item it is about while its reason holds */
  const [refusal, setRefusal] = useState<CompletionRefusal | null>(null);
  /** a key or click that would change a completed item's label, waiting for the annotator's yes */
  const [pendingChange, setPendingChange] = useState<PendingLabelChange | null>(null);
  /** Enter is being carried out: the recording is being saved, then the host completes */
  const [completing, setCompleting] = useState(false);
  const completingRef = useRef(false);
  const [cue, setCue] = useState(false);
  /** text of the utterance still being spoken (the engine's partial results): shown greyed, never a transcript */
  const [partial, setPartial] = useState<{ itemId: string; text: string; speculative: boolean } | null>(null);
  /** what happened to the transcription engine, in words: one line, replaced by the next event, never repeated */
  const [engineNotice, setEngineNotice] = useState<string | null>(null);

  const states = useMemo(() => new Map(session.items.map((i) => [i.item_id, i])), [session.items]);
  /** items an adjudicator assigned to this annotator: she finds them first, and labels them blind like any other */
  const [assigned, setAssigned] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    let live = true;
    // a host without adjudication (or a refusal) leaves the project's order as it is
    void Promise.resolve()
      .then(() => client.assignedItems())
      .then(
        (ids) => live && ids.length > 0 && setAssigned(new Set(ids)),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [client, session.annotator]);
  const items = useMemo(() => assignedItemsFirst(project.items, assigned), [project.items, assigned]);
  const currentId = session.current_item ?? items[0]?.id ?? null;
  const index = items.findIndex((i) => i.id === currentId);
  const item = index >= 0 ? items[index]! : null;
  const state: ItemSessionState | undefined = useItemState(session, currentId, currentId !== null && states.has(currentId));
  const indexRef = useRef(index);
  indexRef.current = index;
  /** the view as last rendered: an act's patch applies to it (a callback made before then holds an older one) */
  const sessionRef = useRef(session);
  sessionRef.current = session;

  const watchRef = useRef<SilenceWatch | null>(null);
  const recorder = useRecorder({
    deviceId,
    onError,
    onMeter: (reading, elapsedMs) => {
      const watch = watchRef.current;
      if (!watch) return;
      const silentMs = watch.reading(reading.peakDbfs, elapsedMs);
      if (silentMs !== null) {
        setCue(true);
        void client.logCue('keep_talking', Math.round(silentMs)).catch(() => undefined);
      } else if (!watch.showing) setCue(false);
    },
    onStopped: async (stopCapture) => {
      watchRef.current = null;
      setCue(false);
      await stopCapture();
      const view = await run(() => client.stopRecording());
      if (view) onSession(view);
    },
  });

  /** in review the voice would be the annotator's (her audio, transcript, labels): recording is off, and Space says so */
  const reviewing = session.reviewer !== null;
  const [recordingOffShown, setRecordingOffShown] = useState(false);
  const toggleRecording = useCallback(() => {
    if (reviewing) {
      setRecordingOffShown(true);
      return;
    }
    // while Enter completes the item, Space must not start a recording on it (or on the next one before it opens)
    if (completingRef.current) return;
    setPendingChange(null);
    if (!recorder.isActive())
      watchRef.current = new SilenceWatch(
        keepTalkingSeconds === null ? null : keepTalkingSeconds * 1000,
        project.thinkaloud.silence_threshold_dbfs,
      );
    recorder.toggle();
  }, [keepTalkingSeconds, project.thinkaloud.silence_threshold_dbfs, recorder, reviewing]);

  // Presses queue: each moves the target, and the host opens the latest one when the call before has answered.
  const queue = useMemo(
    () =>
      new NavigationQueue(
        () => items.length,
        () => indexRef.current,
        async (to) => {
          // a stop under way delivers its last chunk first, then the host opens the other item
          await recorder.idle();
          if (recorder.isActive()) await recorder.stop();
          const view = await client.openItem(items[to]!.id);
          indexRef.current = to;
          onSession(view);
        },
      ),
    // one queue per item list: the recorder and onSession it calls are read when a call runs
    [client, items],
  );
  /** navigation calls under way: the item pane says it is busy (aria-busy) until the host has opened the item */
  const [navigating, setNavigating] = useState(0);
  const navigate = useCallback(
    async (to: () => Promise<void>) => {
      setNavigating((n) => n + 1);
      try {
        await to();
      } catch (e) {
        onError((e as Error).message);
      } finally {
        setNavigating((n) => n - 1);
      }
    },
    [onError],
  );
  const go = useCallback((to: number) => navigate(() => queue.goTo(to)), [navigate, queue]);
  /** once per session: when items are assigned to her, the first she has not completed opens (she finds them first) */
  const openedAssigned = useRef(false);
  useEffect(() => {
    if (openedAssigned.current || assigned.size === 0) return;
    openedAssigned.current = true;
    const first = items.findIndex((i) => assigned.has(i.id) && !states.get(i.id)?.completed_at);
    if (first >= 0 && first !== indexRef.current) void go(first);
  }, [assigned, go, items, states]);
  const move = useCallback((delta: number) => navigate(() => queue.move(delta)), [navigate, queue]);

  const confirmChange = useCallback(async () => {
    const change = pendingChange;
    setPendingChange(null);
    if (!change || change.itemId !== currentId) return;
    const view = await run(() => client.confirmLabelChange(change.label, change.source));
    if (view) onSession(view);
  }, [client, currentId, onSession, pendingChange, run]);

  const commit = useCallback(
    async (label: string, source: 'click' | 'key') => {
      // the second press of a change waiting for its yes is the yes: one act, logged once
      if (pendingChange && pendingChange.itemId === currentId && pendingChange.label === label) {
        await confirmChange();
        return;
      }
      setPendingChange(null);
      try {
        onSession(await client.commitLabel(label, source));
      } catch (e) {
        if (e instanceof Refusal && e.code === 'confirmation_required' && currentId) {
          setPendingChange({ itemId: currentId, label, source, from: state?.final_label ?? '' });
        } else onError((e as Error).message);
      }
    },
    [client, confirmChange, currentId, onError, onSession, pendingChange, state?.final_label],
  );

  const complete = useCallback(async () => {
    // one Enter, one completion: a second press while the first is being carried out does nothing more
    if (completingRef.current) return;
    completingRef.current = true;
    setCompleting(true);
    setPendingChange(null);
    try {
      // Space just before Enter: the stop stores its last chunk and the host stops the recording first
      await recorder.idle();
      if (recorder.isActive()) await recorder.stop();
      const at = indexRef.current;
      // a move asked for while the item is being completed (Ctrl+G, an arrow, a click) wins over the step to the next
      const moves = queue.mark();
      let patch: SessionPatch;
      try {
        patch = await client.completeItem();
      } catch (e) {
        if (e instanceof Refusal && e.code === 'spoken_label_required' && currentId) {
          setRefusal({ itemId: currentId, code: e.code, message: spokenLabelRequiredText(project, state?.final_label ?? null) });
        } else if (e instanceof Refusal && e.code === 'transcription_pending' && currentId) {
          setRefusal({ itemId: currentId, code: e.code, message: `Not completed yet: ${e.message}` });
        } else onError((e as Error).message);
        return;
      }
      setRefusal(null);
      onSession(patch);
      const done = new Set(
        applySessionPatch(sessionRef.current, patch)
          .items.filter((i) => i.completed_at)
          .map((i) => i.item_id),
      );
      const next = nextOpenItem(items, at, done);
      if (queue.mark() !== moves) return;
      if (next) await go(items.indexOf(next));
      else setAllDone(true);
    } finally {
      completingRef.current = false;
      setCompleting(false);
    }
  }, [client, currentId, go, items, onError, onSession, project, queue, recorder, state?.final_label]);

  useShortcuts((press, event) => {
    if (overlay !== null) return false;
    // a change of a completed item's label waits for its yes: Enter (or its key again) says yes, Esc or anything else no
    if (pendingChange && !press.inField && !press.onControl && press.key === 'Escape') {
      setPendingChange(null);
      return true;
    }
    const action = shortcutAction(press, project.schema.labels);
    if (!action) return false;
    if (pendingChange && action.kind === 'complete') {
      void confirmChange();
      return true;
    }
    if (pendingChange && action.kind !== 'label') setPendingChange(null);
    switch (action.kind) {
      case 'leave-field':
        (event.target as HTMLElement).blur();
        return true;
      case 'jump':
        setOverlay('jump');
        return true;
      case 'help':
        setOverlay('help');
        return true;
      case 'label':
        void commit(action.label, 'key');
        return true;
      case 'toggle-recording':
        toggleRecording();
        return true;
      case 'complete':
        void complete();
        return true;
      case 'move':
        void move(action.delta);
        return true;
    }
  });

  useEffect(() => setAllDone(false), [currentId]);
  useEffect(() => {
    // the text of the utterance being spoken, until the item's transcript (its final) replaces it
    const stopPartials = client.onPartial((event) =>
      setPartial({ itemId: event.item_id, text: event.text, speculative: event.speculative }),
    );
    const stopItems = client.onItem((event) => setPartial((p) => (p && p.itemId === event.item.item_id ? null : p)));
    // what happened to the transcription engine, in words
    const stopEngine = client.onEngine((event) => setEngineNotice(engineNoticeText(event)));
    return () => {
      stopPartials();
      stopItems();
      stopEngine();
    };
  }, [client]);

  if (!item) return <p className="empty">This project has no items yet. Import some on the Project tab.</p>;
  const meterPct = Math.round((100 * (recorder.level - METER_FLOOR_DB)) / -METER_FLOOR_DB);
  const signals = state?.signals;
  const transcribing = currentId !== null && (session.pending_items?.[currentId] ?? 0) > 0;
  const refusalHolds = (r: CompletionRefusal): boolean =>
    r.itemId === currentId &&
    !state?.completed_at &&
    (r.code === 'spoken_label_required' ? (state?.commitments.length ?? 0) === 0 : transcribing);
  const itemRefusal = refusal && refusalHolds(refusal) ? refusal.message : null;
  const change = pendingChange && pendingChange.itemId === currentId ? pendingChange : null;
  // the act that set the final label: a reviewer's is marked as hers
  const finalAct = state?.label_history.at(-1);
  const finalReviewer = finalAct && finalAct.label === state?.final_label ? (finalAct.reviewer ?? null) : null;
  const changeKey = change ? project.schema.labels.find((l) => l.name === change.label)?.key : undefined;

  return (
    <div className="label-screen">
      <ItemList items={items} states={states} currentId={currentId} onOpen={(n) => void go(n)} />
      <section className="item-pane" aria-label="current item" aria-busy={navigating > 0 || completing}>
        <div className="item-head">
          <span className="counter">
            Item {index + 1} of {items.length} · <code>{item.id}</code>
          </span>
          <div className="nav">
            <button onClick={() => setOverlay('jump')} title="Go to an item by id or text (Ctrl+G)">
              Go to…
            </button>
            <button onClick={() => void move(-1)} disabled={index <= 0} title="Previous item (←)">
              ← Prev
            </button>
            <button onClick={() => void move(1)} disabled={index >= items.length - 1} title="Next item (→)">
              Next →
            </button>
            <button onClick={() => setOverlay('help')} aria-label="keyboard shortcuts" title="Keyboard shortcuts (?)">
              ?
            </button>
          </div>
        </div>
        {item.context && (
          <blockquote className="context" aria-label="user message">
            <span className="who">User</span>
            {item.context}
          </blockquote>
        )}
        <ItemTextSelection
          text={item.text}
          lead={item.context && <span className="who">Reply</span>}
          selection={state?.selection}
          onSelect={(span) =>
            void run(() => client.selectText(span?.start ?? null, span?.end ?? null)).then((view) => view && onSession(view))
          }
        />
        <ShadowRoomPanel />

        <div className="record-row" id="controls" tabIndex={-1}>
          <button
            className={recorder.recording ? 'record on' : 'record'}
            onClick={toggleRecording}
            disabled={reviewing || recorder.starting || recorder.stopping}
            aria-pressed={recorder.recording}
            aria-describedby={reviewing ? 'recording-off' : undefined}
            title={reviewing ? `Recording is off in review: your voice would become ${session.annotator}’s` : 'Record / stop (Space)'}
          >
            <span className="record-dot" aria-hidden="true" />
            {recorder.recording ? 'Stop' : recorder.starting ? 'Starting…' : state && state.audio_ms > 0 ? 'Record more' : 'Record'}
          </button>
          <div
            className="meter"
            role="meter"
            aria-label="input level"
            aria-valuemin={METER_FLOOR_DB}
            aria-valuemax={0}
            aria-valuenow={Math.round(recorder.level)}
          >
            <div className="meter-fill" style={{ width: `${recorder.recording ? meterPct : 0}%` }} />
          </div>
          <span className="clock">
            {recorder.recording
              ? `${(recorder.elapsedMs / 1000).toFixed(1)} s`
              : recorder.stopping
                ? 'saving…'
                : state && state.audio_ms > 0
                  ? `${(state.audio_ms / 1000).toFixed(1)} s recorded`
                  : ''}
          </span>
          {reviewing && (
            <span id="recording-off" className={recordingOffShown ? 'recording-off said' : 'recording-off muted'} role="status">
              Recording is off in review: what you say would become {session.annotator}’s audio and labels. Label by key or click, or
              correct the transcript.
            </span>
          )}
          {cue && (
            <span className="keep-talking" role="status">
              Please keep talking
            </span>
          )}
        </div>

        <div className="labels" role="group" aria-label="labels">
          {project.schema.labels.map((l) => (
            <button
              key={l.name}
              className={state?.final_label === l.name ? 'label-btn chosen' : 'label-btn'}
              onClick={() => void commit(l.name, 'click')}
              aria-pressed={state?.final_label === l.name}
            >
              {l.key && <kbd>{l.key}</kbd>} {l.name}
            </button>
          ))}
          <button className="complete" onClick={() => void complete()} title="Complete and go to the next item (Enter)">
            Complete ⏎
          </button>
        </div>
        <p className="rule" id="spoken-rule">
          {completionRuleText(project)}
        </p>
        {completing && session.finishing_item !== currentId && (
          <div className="finishing" role="status">
            {recorder.stopping ? 'Saving the end of the recording before completing the item…' : 'Completing…'}
          </div>
        )}
        {engineNotice && (
          <p className="engine-notice" role="status">
            {engineNotice}
          </p>
        )}
        {session.finishing_item === currentId && (
          <div className="finishing" role="status">
            Finishing the transcript of this item before completing it…
          </div>
        )}
        {change && (
          <div className="confirm-change" role="alertdialog" aria-label="change a completed item's label">
            <span>
              This item is completed with <strong>{change.from}</strong>. Change its label to <strong>{change.label}</strong>? It will be
              recorded as a change after completion.
            </span>
            <button className="primary" onClick={() => void confirmChange()}>
              Change to {change.label} <kbd>⏎</kbd>
              {changeKey && (
                <>
                  {' '}
                  or <kbd>{changeKey}</kbd>
                </>
              )}
            </button>
            <button onClick={() => setPendingChange(null)}>
              Keep {change.from} <kbd>Esc</kbd>
            </button>
          </div>
        )}
        {itemRefusal && (
          <div className="refusal" role="alert">
            {itemRefusal}
          </div>
        )}

        {allDone && (
          <div className="all-done" role="status">
            All {items.length} items are completed. Export your session with the Export button, or go back to any item to change it.
          </div>
        )}
        <div className="verdict" aria-live="polite">
          {state?.final_label ? (
            <>
              Label: <strong className="final-label">{state.final_label}</strong> <span className="source">by {state.label_source}</span>
              {finalReviewer && (
                <span
                  className="reviewer-act"
                  title={`${finalReviewer} gave this label while reviewing ${session.annotator}’s session; it is recorded as hers`}
                >
                  {' '}
                  · given by <strong>{finalReviewer}</strong> (reviewer)
                </span>
              )}
              {state.blind_label && state.blind_label !== state.final_label && (
                <span className="blind"> · first said {state.blind_label}</span>
              )}
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
              {transcribing && !recorder.recording && <span className="transcribing"> · transcribing what you said…</span>}
            </>
          ) : transcribing && !recorder.recording ? (
            <span className="transcribing">Transcribing what you said… a spoken label shows here as soon as its words are recognised.</span>
          ) : recorder.stopping ? (
            <span className="muted">Saving the recording…</span>
          ) : (
            <span className="muted">No label yet: say “I label this …” or press a label key.</span>
          )}
        </div>

        <TranscriptView
          state={state}
          fillers={project.thinkaloud.fillers}
          listening={recorder.recording}
          partial={partial && partial.itemId === currentId ? partial.text : null}
          speculative={partial?.speculative ?? false}
        />
        {session.current_item && <ModelReasoningPanel itemId={session.current_item} state={state} onSession={onSession} run={run} />}

        {signals && (
          <dl className="signals" aria-label="hesitation signals">
            {signals.pauses && (
              <>
                <dt>Pauses</dt>
                <dd>
                  {signals.pauses.count} ({(signals.pauses.total_ms / 1000).toFixed(1)} s, longest{' '}
                  {(signals.pauses.longest_ms / 1000).toFixed(1)} s)
                </dd>
              </>
            )}
            {signals.silent_chunks !== undefined && signals.total_chunks !== undefined && (
              <>
                <dt>Silent chunks</dt>
                <dd>
                  {signals.silent_chunks} of {signals.total_chunks} ({project.thinkaloud.chunk_seconds} s each, at or below{' '}
                  {project.thinkaloud.silence_threshold_dbfs} dBFS)
                </dd>
              </>
            )}
            {signals.time_to_first_speech_ms !== undefined && signals.time_to_first_speech_ms !== null && (
              <>
                <dt>First speech</dt>
                <dd>{(signals.time_to_first_speech_ms / 1000).toFixed(1)} s</dd>
              </>
            )}
            {signals.filler_count !== undefined && (
              <>
                <dt>Fillers</dt>
                <dd>{signals.filler_count}</dd>
              </>
            )}
            {signals.filled_pause_count !== undefined && (
              <>
                <dt>Hesitation</dt>
                <dd>
                  {plural(signals.filled_pause_count, 'filled pause')}, {plural(signals.hedge_count ?? 0, 'hedge')},{' '}
                  {plural(signals.repetition_count ?? 0, 'repetition')}, {plural(signals.editing_term_count ?? 0, 'editing term')}
                  {signals.hesitation_language && ` (${signals.hesitation_language})`}
                </dd>
              </>
            )}
            {signals.label_changes !== undefined && (
              <>
                <dt>Label changes</dt>
                <dd>{signals.label_changes}</dd>
              </>
            )}
          </dl>
        )}

        {session.notes.some((n) => n.item_id === currentId) && (
          <ul className="notes" aria-label="notes on this item">
            {session.notes
              .filter((n) => n.item_id === currentId)
              .map((n, i) => (
                <li key={i}>
                  <span className="muted">{new Date(n.ts).toLocaleTimeString()}</span> {n.text}
                </li>
              ))}
          </ul>
        )}
        <form
          className="note"
          onSubmit={(e) => {
            e.preventDefault();
            const text = note.trim();
            if (!text) return;
            const field = e.currentTarget.querySelector('input');
            void run(() => client.addNote(text)).then((view) => {
              if (!view) return;
              onSession(view);
              setNote('');
              // back to the keys: the next "1" is a label, not a character in the note
              field?.blur();
            });
          }}
        >
          <input
            aria-label="note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Add a note for this item (optional; Esc leaves the field)"
          />
          <button type="submit" disabled={!note.trim()}>
            Add note
          </button>
        </form>
      </section>
      {overlay === 'jump' && <JumpDialog items={items} onJump={(n) => void go(n)} onClose={() => setOverlay(null)} />}
      {overlay === 'help' && <ShortcutHelp shortcuts={shortcutList(project.schema.labels)} onClose={() => setOverlay(null)} />}
    </div>
  );
}
