import { useIntl } from 'react-intl';
import { refusalText } from '../../shared/refusalText';
import { useCallback, useState } from 'react';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import { Refusal } from '../../../../core/common/refusal/refusal';
import { useApi } from '../../shared/api';
import type { RunCall } from '../../shared/runCall';

/** A key or click that would change a completed item's label, shown for a yes before anything is logged. */
export interface PendingLabelChange {
  itemId: string;
  label: string;
  source: 'click' | 'key';
  from: string;
}

/**
 * Giving a label by key or click: a change of a completed item's label waits for the annotator's yes (the host refuses
 * it with confirmation_required), and the second press of the same label is that yes — one act, logged once.
 */
export function useLabelActs(
  currentId: string | null,
  finalLabel: string | null | undefined,
  onSession: (update: SessionUpdate) => void,
  onError: (message: string | null) => void,
  run: RunCall,
) {
  const client = useApi();
  const intl = useIntl();
  /** a key or click that would change a completed item's label, waiting for the annotator's yes */
  const [pendingChange, setPendingChange] = useState<PendingLabelChange | null>(null);

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
          setPendingChange({ itemId: currentId, label, source, from: finalLabel ?? '' });
        } else onError(refusalText(intl, e));
      }
    },
    [client, confirmChange, currentId, intl, onError, onSession, pendingChange, finalLabel],
  );
  return { pendingChange, setPendingChange, confirmChange, commit };
}
