import { useIntl } from 'react-intl';
import { refusalText } from '../../shared/refusalText';
import { useCallback, useEffect, useState, type MutableRefObject } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import type { SessionPatch, SessionView } from '../../../../core/common/session/sessionApi';
import { applySessionPatch, type SessionUpdate } from '../../../../core/common/session/sessionPatch';
import { Refusal } from '../../../../core/common/refusal/refusal';
import { useApi } from '../../shared/api';
import type { MessageRef } from '../../shared/Dialogs';
import { exampleLabel, examplePhrase } from './labelKeys';
import { nextOpenItem, type NavigationQueue } from './navigation';
import type { RecorderControls } from './useRecorder';

/** A refusal to complete and the reason it holds by: it is shown only while that reason is still true. */
export interface CompletionRefusal {
  itemId: string;
  code: 'spoken_label_required' | 'transcription_pending';
  message: MessageRef;
}

interface Options {
  project: ProjectView;
  items: ProjectView['items'];
  currentId: string | null;
  finalLabel: string | null | undefined;
  indexRef: MutableRefObject<number>;
  /** the view as last rendered: the completion's patch applies to it */
  sessionRef: MutableRefObject<SessionView>;
  /** set while Enter is carried out (read synchronously by Space and by a second Enter) */
  completingRef: MutableRefObject<boolean>;
  recorder: Pick<RecorderControls, 'idle' | 'isActive' | 'stop'>;
  queue: NavigationQueue;
  go: (to: number) => Promise<void>;
  /** a completion drops a label change waiting for its yes */
  onStart: () => void;
  onSession: (update: SessionUpdate) => void;
  onError: (message: string | null) => void;
}

/**
 * Enter: the recording is saved, the host completes the item, and the next item not completed opens (unless a move
 * was asked for meanwhile); a refusal to complete is kept with its item while its reason holds.
 */
export function useCompleteItem(o: Options) {
  const client = useApi();
  const intl = useIntl();
  const { project, items, currentId, finalLabel, indexRef, sessionRef, completingRef, recorder, queue, go, onStart, onSession, onError } =
    o;
  /** Enter is being carried out: the recording is being saved, then the host completes */
  const [completing, setCompleting] = useState(false);
  /** a refusal to complete, kept with the item it is about while its reason holds */
  const [refusal, setRefusal] = useState<CompletionRefusal | null>(null);
  const [allDone, setAllDone] = useState(false);

  const complete = useCallback(async () => {
    // one Enter, one completion: a second press while the first is being carried out does nothing more
    if (completingRef.current) return;
    completingRef.current = true;
    setCompleting(true);
    onStart();
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
          setRefusal({
            itemId: currentId,
            code: e.code,
            message: {
              id: 'label.refusal.spoken',
              values: {
                phrase: examplePhrase(project.thinkaloud.languages, (finalLabel ?? exampleLabel(project.schema.labels)).toLowerCase()),
              },
            },
          });
        } else if (e instanceof Refusal && e.code === 'transcription_pending' && currentId) {
          // the host's reason in the interface language when it carries a catalog message
          setRefusal({
            itemId: currentId,
            code: e.code,
            message: { id: 'label.refusal.pending', values: { reason: refusalText(intl, e) } },
          });
        } else onError(refusalText(intl, e));
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
  }, [
    client,
    completingRef,
    currentId,
    finalLabel,
    go,
    indexRef,
    intl,
    items,
    onError,
    onSession,
    onStart,
    project,
    queue,
    recorder,
    sessionRef,
  ]);

  useEffect(() => setAllDone(false), [currentId]);
  return { completing, refusal, allDone, complete };
}
